// bridge-loader.js: the page's side of the engine. The engine itself runs
// in one Web Worker for the page (engine-worker.js), which holds warren.wasm
// and every simulation; Engine sends it calls and hands back promises of
// the answers, parsed, with {error} turned into an EngineError.
//
// A worker that dies (the Go program ran out of memory or hit a fatal
// error) takes no simulation with it for good: the page starts another
// worker and tells every widget, which rebuilds its simulation from its
// script at the event it was showing. The call that was running when it
// died is the culprit's: its error says so (culprit), and the calls that
// were waiting behind it fail with lost set. A handle from before a
// restart names nothing in the new worker: calls with it fail with lost.

/** EngineError is a refusal from the bridge ({error: "..."}), or a call
 * the engine could not answer: lost when the worker died under it,
 * culprit when it was the call running as the worker died. */
export class EngineError extends Error {
  constructor(message, { lost = false, culprit = false } = {}) {
    super(message);
    this.lost = lost;
    this.culprit = culprit;
  }
}

/** NO_HANDLE lists the bridge functions that take no simulation handle. */
const NO_HANDLE = new Set(["create", "names", "usage", "parse", "wasmMemory"]);

/** maxRestarts bounds restarts in a minute: an engine that cannot stay up
 * (a lesson whose own script kills it) is not restarted for ever. */
const maxRestarts = 4;

/** Connection is one engine worker at a time, and the calls sent to it.
 * startWorker() makes a worker (postMessage, terminate, and the
 * message and error events); base is where warren.wasm is. It has no DOM
 * in it: Node's tests drive it with a fake worker. */
export class Connection {
  constructor(startWorker, base, now = () => Date.now()) {
    this.startWorker = startWorker;
    this.base = base;
    this.now = now;
    this.generation = 0;
    this.pending = new Map(); // message id → {resolve, reject}
    this.nextID = 1;
    this.restarts = [];
    this.listeners = new Set();
    this.stopped = ""; // why the engine cannot be restarted
    this.restarting = Promise.resolve();
    this.start();
  }

  /** start makes a worker and loads the engine in it; loaded settles
   * with {names, usages} or fails. */
  start() {
    this.generation++;
    const gen = this.generation;
    let worker;
    this.loaded = new Promise((resolve, reject) => {
      try {
        worker = this.startWorker();
      } catch (e) {
        reject(new Error(`cannot start the engine's worker: ${e && e.message ? e.message : e}`));
        return;
      }
      this.worker = worker;
      let ready = false;
      worker.onmessage = (e) => {
        if (gen !== this.generation) {
          return;
        }
        const m = e.data || {};
        if (m.type === "loaded") {
          ready = true;
          resolve({ names: m.names, usages: m.usages });
        } else if (m.type === "failed") {
          reject(new Error(m.why));
        } else if (m.type === "answer") {
          const p = this.pending.get(m.id);
          if (p) {
            this.pending.delete(m.id);
            p.resolve(m.results);
          }
        } else if (m.type === "dead") {
          this.died(m.why);
        }
      };
      worker.onerror = (e) => {
        if (gen !== this.generation) {
          return;
        }
        const why = (e && e.message) || "the engine's worker could not run (is engine-worker.js served to this page?)";
        if (e && typeof e.preventDefault === "function") {
          e.preventDefault();
        }
        if (!ready) {
          reject(new Error(why));
        } else {
          this.died(why);
        }
      };
      worker.postMessage({ type: "load", base: this.base });
    });
    this.loaded.catch(() => {});
    return this.loaded;
  }

  /** send posts a batch of calls and resolves with their results. With a
   * generation, calls meant for that worker only: if another has started
   * since, they fail with lost. */
  async send(calls, generation) {
    if (this.stopped) {
      throw new EngineError(`the engine is not running (${this.stopped}); reload the page`);
    }
    await this.loaded;
    if (generation !== undefined && generation !== this.generation) {
      throw new EngineError("the engine restarted before this could run", { lost: true });
    }
    return new Promise((resolve, reject) => {
      const id = this.nextID++;
      this.pending.set(id, { resolve, reject });
      this.worker.postMessage({ type: "call", id, calls });
    });
  }

  /** died ends the worker, fails what was waiting on it and starts
   * another, then tells the listeners (why, the new generation). */
  died(why) {
    const old = this.worker;
    this.generation++; // nothing more is read from the old one
    try {
      old.terminate();
    } catch {
      // already gone
    }
    const waiting = [...this.pending.values()];
    this.pending.clear();
    waiting.forEach((p, i) =>
      p.reject(new EngineError(i === 0 ? `the engine stopped while running this (${why})` : `the engine stopped (${why})`, { lost: true, culprit: i === 0 })),
    );
    const t = this.now();
    this.restarts = this.restarts.filter((x) => t - x < 60_000);
    if (this.restarts.length >= maxRestarts) {
      this.stopped = `it stopped ${this.restarts.length + 1} times in a minute; last: ${why}`;
      this.loaded = Promise.reject(new EngineError(`the engine is not running (${this.stopped}); reload the page`));
      this.loaded.catch(() => {});
      return;
    }
    this.restarts.push(t);
    this.restarting = this.start().then(
      () => this.listeners.forEach((f) => f(why, this.generation)),
      () => {},
    );
  }

  /** settled resolves once no restart is under way: the listeners of the
   * last one have been told. */
  async settled() {
    let r;
    do {
      r = this.restarting;
      await r;
    } while (r !== this.restarting);
  }

  /** onRestart registers f(why, generation), called once a new worker
   * has loaded after one died; it returns the function that unregisters. */
  onRestart(f) {
    this.listeners.add(f);
    return () => this.listeners.delete(f);
  }
}

/** Engine is the page's engine as a widget sees it: each method is one
 * bridge function (wasm/doc.go) and returns a promise. names and usage
 * answer at once, from what the worker listed when it loaded. */
export class Engine {
  constructor(conn, info) {
    this.conn = conn;
    this.names = info.names;
    this.usages = info.usages;
    this.handles = new Map(); // handle → {generation, id in the worker}
    this.nextHandle = 1;
  }

  /** batch sends calls as they are ([fn, handle, ...args]) and resolves
   * with one {value, ms} or {error, ms} per call: ms is how long the call
   * took in the worker. Handles are translated; a stale one is an error. */
  async batch(calls) {
    await this.conn.loaded;
    const gen = this.conn.generation;
    const sent = [];
    const answer = calls.map(() => null);
    calls.forEach((c, i) => {
      const [fn, ...args] = c;
      if (NO_HANDLE.has(fn)) {
        sent.push({ i, call: c });
        return;
      }
      const h = this.handles.get(args[0]);
      if (!h || h.generation !== gen) {
        answer[i] = { error: h ? "this simulation was lost when the engine restarted" : `no simulation ${args[0]}`, lost: !!h, ms: 0 };
        return;
      }
      sent.push({ i, call: [fn, h.id, ...args.slice(1)] });
    });
    if (sent.length) {
      const results = await this.conn.send(
        sent.map((s) => s.call),
        gen,
      );
      sent.forEach((s, k) => {
        const r = results[k];
        if (s.call[0] === "create" && r && "value" in r) {
          const handle = this.nextHandle++;
          this.handles.set(handle, { generation: gen, id: r.value });
          r.value = handle;
        }
        answer[s.i] = r;
      });
    }
    return answer;
  }

  /** call runs one bridge function and resolves with its answer. */
  async call(fn, ...args) {
    const [r] = await this.batch([[fn, ...args]]);
    if ("error" in r) {
      throw new EngineError(`${r.error}`, { lost: !!r.lost });
    }
    return r.value;
  }

  /** all runs several calls in one message and resolves with their
   * answers, or fails with the first error. */
  async all(calls) {
    const rs = await this.batch(calls);
    return rs.map((r) => {
      if ("error" in r) {
        throw new EngineError(r.error, { lost: !!r.lost });
      }
      return r.value;
    });
  }

  /** settled: see Connection.settled. */
  settled() {
    return this.conn.settled();
  }

  /** onRestart: see Connection.onRestart. */
  onRestart(f) {
    return this.conn.onRestart(f);
  }

  create(opts) {
    return this.call("create", JSON.stringify(opts || {}));
  }
  async exec(id, line) {
    return (await this.call("exec", id, line)).lines;
  }
  async submit(id, line) {
    return (await this.call("submit", id, line)).lines;
  }
  step(id, n) {
    return this.call("step", id, n);
  }
  async runQuiet(id) {
    return (await this.call("runQuiet", id)).lines;
  }
  seek(id, n) {
    return this.call("seek", id, n);
  }
  async snapshot(id) {
    return fillSnapshot(await this.call("snapshot", id));
  }
  /** expect checks a goal line now: {met, text}. */
  expect(id, line) {
    return this.call("expect", id, line);
  }
  /** samples is the metrics series from index from on. */
  async samples(id, from) {
    return fillSamples(await this.call("samples", id, from));
  }
  transcript(id, from) {
    return this.call("transcript", id, from);
  }
  events(id, from, to) {
    return this.call("events", id, from, to);
  }
  /** narrate says the current event in plain words. */
  narrate(id) {
    return this.call("narrate", id);
  }
  /** markers lists the timeline's markers: [{event, time, kind, text}]. */
  markers(id) {
    return this.call("markers", id);
  }
  parse(text) {
    return this.call("parse", text);
  }
  /** destroy forgets a simulation; it never fails. */
  destroy(id) {
    const h = this.handles.get(id);
    this.handles.delete(id);
    if (h && h.generation === this.conn.generation) {
      this.conn.send([["destroy", h.id]]).catch(() => {});
    }
  }
  usage(name) {
    return (this.usages && this.usages[name]) || null;
  }
}

/** fillSnapshot gives a snapshot's lists their empty value. */
export function fillSnapshot(s) {
  for (const k of ["schedulers", "processes", "credit", "queues", "alarms"]) {
    s[k] = s[k] || [];
  }
  return s;
}

/** fillSamples gives each sample its scheduler list. */
export function fillSamples(list) {
  for (const x of list) {
    x.scheduler = x.scheduler || [];
  }
  return list;
}

let enginePromise = null;

/** loadEngine starts the page's engine worker, once, and resolves with
 * its Engine when warren.wasm has loaded in it. */
export function loadEngine(base) {
  if (!enginePromise) {
    const url = new URL("engine-worker.js", import.meta.url).href;
    const conn = new Connection(() => startWorker(url), base);
    enginePromise = conn.loaded.then((info) => new Engine(conn, info));
  }
  return enginePromise;
}

/** startWorker starts the worker module at url. A worker must come from
 * the page's own origin: for a page on another origin (an embedding
 * host) it is a module of the page's own, made here, that imports url
 * (which the widget's server allows by CORS, as for every module). */
function startWorker(url) {
  if (new URL(url).origin === location.origin) {
    return new Worker(url, { type: "module", name: "warren engine" });
  }
  const src = new Blob([`import ${JSON.stringify(url)};\n`], { type: "text/javascript" });
  return new Worker(URL.createObjectURL(src), { type: "module", name: "warren engine" });
}
