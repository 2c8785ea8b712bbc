// bridge-loader.js: the page's side of the engine. The engine itself runs
// in a Web Worker (engine-worker.js), which holds warren.wasm and the
// page's simulations; Engine sends it calls and hands back promises of the
// answers, parsed, with {error} turned into an EngineError.
//
// A worker answers one call at a time. New simulations are spread over
// up to spreadLanes workers (the one holding the fewest gets the next), so
// that the widgets of a page run their scenarios side by side and one
// widget's long command does not hold the others. Two things take
// simulations from a worker, and neither takes a widget with it for good:
//
//   - It dies (the Go program ran out of memory or hit a fatal error): the
//     page starts another worker and tells every widget; each whose
//     simulation was lost rebuilds it from its script at the event it was
//     showing. The call that was running is the culprit's: its error says
//     so (culprit); the calls waiting behind it fail with lost set.
//   - One call holds it over splitAfter while calls of other simulations
//     wait: the page starts a new worker for the simulations waiting, and those
//     simulations are rebuilt there, while the long call finishes in the
//     old worker (up to maxLanes workers), which then forgets what moved.
//     A rebuild replays a simulation's history, so this is done only when
//     replaying what moves is cheaper than the wait so far (cost: the time
//     the calls that made each history took); else the calls wait their
//     turn. Simulations with nothing waiting stay where they are.
//
// A lost handle names nothing any more: calls with it fail with lost.

import { TRUSTED_TYPES } from "./policy.js";

/** EngineError is a refusal from the bridge ({error: "...", said?}), or
 * a call the engine could not answer: lost when the worker died under it,
 * culprit when it was the call running as the worker died. said is the
 * refusal as the engine says it as data (engine/say; i18n.js errorText
 * says it in the reader's language). */
export class EngineError extends Error {
  constructor(message, { lost = false, culprit = false, said = null } = {}) {
    super(message);
    this.lost = lost;
    this.culprit = culprit;
    this.said = said;
  }
}

/** NO_HANDLE lists the bridge functions that take no simulation handle. */
const NO_HANDLE = new Set(["create", "names", "usage", "parse", "wasmMemory"]);

/** maxRestarts bounds restarts in a minute: an engine that cannot stay up
 * (a lesson whose own script kills it) is not restarted for ever. */
const maxRestarts = 4;

/** splitAfter is how long one call may hold the worker while calls of
 * other simulations wait behind it (ms); past it they move to a new
 * worker, and the long call keeps the old one to itself. */
export const splitAfter = 1500;

/** maxLanes bounds the workers of a page. */
export const maxLanes = 3;

/** spreadLanes is how many workers new simulations are spread over: one
 * a core, but at least two and at most maxLanes. */
const spreadLanes = Math.max(2, Math.min(maxLanes, (globalThis.navigator && navigator.hardwareConcurrency) || 2));

/** HISTORY lists the bridge functions whose time counts as a
 * simulation's cost: what a rebuild replays. */
const HISTORY = new Set(["exec", "step", "seek"]);

/** Lane is one engine worker and the calls sent to it, answered in order:
 * the first pending is the one running. */
class Lane {
  constructor(conn) {
    this.conn = conn;
    this.pending = new Map(); // message id → {resolve, reject, ids}
    this.alive = true;
    this.runningSince = 0; // when the first pending call started
    this.creating = 0; // creates sent and not yet answered
    this.held = 0; // the bytes its simulations hold, as its last answer said
    let worker;
    this.loaded = new Promise((resolve, reject) => {
      try {
        worker = conn.startWorker();
      } catch (e) {
        reject(Object.assign(new Error(`cannot start the engine's worker: ${e && e.message ? e.message : e}`), { violations: (e && e.violations) || [] }));
        return;
      }
      this.worker = worker;
      let ready = false;
      worker.onmessage = (e) => {
        if (!this.alive) {
          return;
        }
        const m = e.data || {};
        if (m.type === "loaded") {
          ready = true;
          if (m.module && !conn.module) {
            conn.module = m.module; // compiled once: the next workers start from it
          }
          resolve({ names: m.names, usages: m.usages });
        } else if (m.type === "failed") {
          // the page says in its language what the policy must allow
          reject(Object.assign(new Error(m.why), { violations: m.violations || [] }));
        } else if (m.type === "answer") {
          if (typeof m.held === "number") {
            this.held = m.held;
          }
          const p = this.pending.get(m.id);
          if (p) {
            this.pending.delete(m.id);
            this.runningSince = this.pending.size ? conn.now() : 0;
            p.resolve(m.results);
          }
        } else if (m.type === "dead") {
          conn.died(this, m.why);
        }
      };
      worker.onerror = (e) => {
        if (!this.alive) {
          return;
        }
        const why = (e && e.message) || "the engine's worker could not run (is engine-worker.js served to this page?)";
        if (e && typeof e.preventDefault === "function") {
          e.preventDefault();
        }
        if (!ready) {
          reject(new Error(why));
        } else {
          conn.died(this, why);
        }
      };
      try {
        worker.postMessage(conn.module ? { type: "load", base: conn.base, module: conn.module } : { type: "load", base: conn.base });
      } catch {
        worker.postMessage({ type: "load", base: conn.base }); // a module that cannot cross: it compiles its own
      }
    });
    this.loaded.catch(() => {});
  }

  /** post sends a batch; ids are the worker's simulations it touches. */
  post(calls, ids) {
    return new Promise((resolve, reject) => {
      const id = this.conn.nextID++;
      if (!this.pending.size) {
        this.runningSince = this.conn.now();
      }
      this.pending.set(id, { resolve, reject, ids });
      this.worker.postMessage({ type: "call", id, calls, elsewhere: this.conn.heldElsewhere(this) });
    });
  }

  /** busy says whether a call is running in the worker. */
  get busy() {
    return this.pending.size > 0;
  }

  /** end terminates the worker; what waited on it fails: the running call
   * as culprit (when culprit says so), the others as lost. */
  end(why, culprit) {
    this.alive = false;
    try {
      this.worker.terminate();
    } catch {
      // already gone
    }
    const waiting = [...this.pending.values()];
    this.pending.clear();
    waiting.forEach((p, i) =>
      p.reject(new EngineError(i === 0 && culprit ? `the engine stopped while running this (${why})` : `the engine stopped (${why})`, { lost: true, culprit: i === 0 && culprit })),
    );
  }
}

/** Connection is the page's engine workers: the current one, where new
 * simulations go, and any that a long call kept to itself. It holds the
 * handles the page knows simulations by. startWorker() makes a worker
 * (postMessage, terminate, and the message and error events); base is
 * where warren.wasm is. It has no DOM in it: Node's tests drive it with
 * a fake worker and a fake clock. */
export class Connection {
  constructor(startWorker, base, now = () => Date.now(), every = (f, ms) => setInterval(f, ms), spread = spreadLanes) {
    this.startWorker = startWorker;
    this.base = base;
    this.now = now;
    this.nextID = 1;
    this.restarts = [];
    this.listeners = new Set();
    this.handles = new Map(); // handle → {lane, id in its worker, lost}
    this.nextHandle = 1;
    this.stopped = ""; // why the engine cannot be restarted
    this.restarting = Promise.resolve();
    this.spread = spread;
    this.module = null; // warren.wasm compiled, from the first worker
    this.lanes = new Set();
    this.lane = this.addLane();
    this.loaded = this.lane.loaded;
    this.watchdog = every(() => this.watch(), 250);
  }

  addLane() {
    const lane = new Lane(this);
    this.lanes.add(lane);
    return lane;
  }

  /** heldElsewhere is what the simulations of the page's workers other
   * than lane hold, as each last said: the page's simulations together
   * are inside one memory budget (engine.SharedHeldBytes, 512 MB), which
   * each worker is told before its calls run. A worker that died or
   * ended holds nothing. */
  heldElsewhere(lane) {
    let n = 0;
    for (const l of this.lanes) {
      if (l !== lane && l.alive) {
        n += l.held;
      }
    }
    return n;
  }

  /** liveIn counts the simulations of lane that are not lost, and those
   * being made there. */
  liveIn(lane) {
    let n = lane.creating;
    for (const h of this.handles.values()) {
      if (h.lane === lane && !h.lost) {
        n++;
      }
    }
    return n;
  }

  /** placeNew is the worker for a new simulation: the one holding the
   * fewest (of as few, one where no call runs, then the current one), or
   * a new one while every worker holds some and there are fewer than
   * spread. A worker whose call has run over splitAfter is the last
   * choice. */
  placeNew() {
    const lanes = [...this.lanes].filter((l) => l.alive);
    if (this.stopped || !lanes.length) {
      return this.lane;
    }
    const load = (l) => this.liveIn(l) + (!l.busy ? 0 : this.now() - l.runningSince >= splitAfter ? 1000 : 0.5);
    const best = lanes.reduce((a, b) => (load(b) < load(a) ? b : a), this.lane.alive ? this.lane : lanes[0]);
    if (load(best) > 0 && lanes.length < this.spread) {
      return this.addLane();
    }
    return best;
  }

  /** send posts calls to the worker of handle (or the current one) and
   * resolves with their results. calls name the worker's own ids. */
  async send(calls, lane = null, ids = []) {
    if (this.stopped) {
      throw new EngineError(`the engine is not running (${this.stopped}); reload the page`);
    }
    lane = lane || this.lane;
    await lane.loaded;
    if (!lane.alive) {
      throw new EngineError("the engine restarted before this could run", { lost: true });
    }
    return lane.post(calls, ids);
  }

  /** watch moves the simulations waiting behind a long call to a new
   * worker. */
  watch() {
    for (const lane of [...this.lanes]) {
      if (this.lanes.size >= maxLanes) {
        return;
      }
      if (lane.alive) {
        this.split(lane);
      }
    }
  }

  /** split moves the simulations of lane that wait behind a long call to
   * a new worker, when that is worth it (see the top of this file). */
  split(lane) {
    const running = this.now() - lane.runningSince;
    if (lane.pending.size < 2 || running < splitAfter) {
      return;
    }
    const [first, ...behind] = [...lane.pending.entries()];
    const keep = new Set(first[1].ids);
    // calls of other simulations, or for none yet (a create)
    const others = behind.filter(([, p]) => !p.ids.length || p.ids.some((id) => !keep.has(id)));
    if (!others.length) {
      return; // only the long call's own simulation waits: it waits its turn
    }
    // the simulations whose calls wait: the others stay where they are
    const waiting = new Set(others.flatMap(([, p]) => p.ids));
    const moving = [...this.handles.values()].filter((h) => h.lane === lane && !h.lost && waiting.has(h.id));
    if (moving.reduce((sum, h) => sum + h.cost, 0) > running) {
      return; // replaying them would take longer than they have waited
    }
    for (const [id, p] of others) {
      lane.pending.delete(id);
      p.reject(new EngineError("the engine moved this simulation to another worker", { lost: true }));
    }
    for (const h of moving) {
      h.lost = true;
    }
    if (!this.liveIn(lane)) {
      lane.end("nothing left in it", false);
      this.lanes.delete(lane);
    } else if (moving.length) {
      // what moved is forgotten here once the long call is done
      lane.post(moving.map((h) => ["destroy", h.id]), []).catch(() => {});
    }
    this.renew(`a command held the engine over ${splitAfter / 1000} s`);
  }

  /** renew makes a new current worker and, once it has loaded, tells the
   * listeners. */
  renew(why) {
    this.lane = this.addLane();
    this.loaded = this.lane.loaded;
    this.restarting = this.loaded.then(
      () => this.listeners.forEach((f) => f(why)),
      () => {},
    );
  }

  /** died ends a worker whose Go program exited: its simulations are lost,
   * the call it was running is the culprit; a new worker replaces the
   * current one. */
  died(lane, why) {
    lane.end(why, true);
    this.lanes.delete(lane);
    for (const h of this.handles.values()) {
      if (h.lane === lane) {
        h.lost = true;
      }
    }
    const t = this.now();
    this.restarts = this.restarts.filter((x) => t - x < 60_000);
    if (lane !== this.lane && this.restarts.length < maxRestarts) {
      this.restarts.push(t);
      this.restarting = Promise.resolve().then(() => this.listeners.forEach((f) => f(why)));
      return;
    }
    if (this.restarts.length >= maxRestarts) {
      this.stopped = `it stopped ${this.restarts.length + 1} times in a minute; last: ${why}`;
      this.loaded = Promise.reject(new EngineError(`the engine is not running (${this.stopped}); reload the page`));
      this.loaded.catch(() => {});
      return;
    }
    this.restarts.push(t);
    this.renew(why);
  }

  /** forget drops a handle; a worker left with no simulation other than
   * the current one is ended. */
  forget(handle) {
    const h = this.handles.get(handle);
    this.handles.delete(handle);
    if (!h) {
      return;
    }
    if (h.lane !== this.lane && h.lane.alive && !this.liveIn(h.lane)) {
      h.lane.end("nothing left in it", false);
      this.lanes.delete(h.lane);
    } else if (h.lane.alive && !h.lost) {
      h.lane.post([["destroy", h.id]], []).catch(() => {});
    }
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

  /** onRestart registers f(why), called once a new worker has loaded after
   * one died or simulations were moved to it: a widget whose handle is now
   * lost rebuilds. It returns the function that unregisters. */
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
  }

  /** batch sends calls as they are ([fn, handle, ...args]) and resolves
   * with one {value, ms} or {error, ms} per call: ms is how long the call
   * took in the worker. Handles are translated; one that names nothing,
   * or a simulation lost with its worker, is an error. The calls of one
   * batch go to one worker: the first handle's, or the current one. */
  async batch(calls) {
    const conn = this.conn;
    await conn.loaded;
    let lane = null;
    const ids = [];
    const sent = [];
    const answer = calls.map(() => null);
    calls.forEach((c, i) => {
      const [fn, ...args] = c;
      if (NO_HANDLE.has(fn)) {
        sent.push({ i, call: c });
        return;
      }
      const h = conn.handles.get(args[0]);
      if (!h || h.lost || !h.lane.alive || (lane && h.lane !== lane)) {
        answer[i] = { error: h ? "this simulation was lost when the engine restarted" : `no simulation ${args[0]}`, lost: !!h, ms: 0 };
        return;
      }
      lane = h.lane;
      ids.push(h.id);
      sent.push({ i, call: [fn, h.id, ...args.slice(1)] });
    });
    if (sent.length) {
      const creates = sent.filter((s) => s.call[0] === "create").length;
      // a create where placeNew says; a call of no simulation (parse) to
      // a worker where nothing runs, if there is one
      lane = lane || (creates ? conn.placeNew() : [...conn.lanes].find((l) => l.alive && !l.busy) || conn.lane);
      lane.creating += creates;
      let results;
      try {
        results = await conn.send(
          sent.map((s) => s.call),
          lane,
          ids,
        );
      } finally {
        lane.creating -= creates;
      }
      sent.forEach((s, k) => {
        const r = results[k];
        if (s.call[0] === "create" && r && "value" in r) {
          const handle = conn.nextHandle++;
          conn.handles.set(handle, { lane, id: r.value, lost: false, cost: 0 });
          r.value = handle;
        } else if (HISTORY.has(s.call[0]) && r) {
          const h = conn.handles.get(calls[s.i][1]);
          if (h) {
            h.cost += r.ms || 0;
          }
        }
        answer[s.i] = r;
      });
    }
    return answer;
  }

  /** call runs one bridge function and resolves with its answer. */
  async call(fn, ...args) {
    if (fn === "wasmMemory") {
      return this.wasmMemory(); // the page's simulations may be in several workers
    }
    const [r] = await this.batch([[fn, ...args]]);
    if ("error" in r) {
      throw new EngineError(`${r.error}`, { lost: !!r.lost, said: r.said || null });
    }
    return r.value;
  }

  /** all runs several calls in one message and resolves with their
   * answers, or fails with the first error. */
  async all(calls) {
    const rs = await this.batch(calls);
    return rs.map((r) => {
      if ("error" in r) {
        throw new EngineError(r.error, { lost: !!r.lost, said: r.said || null });
      }
      return r.value;
    });
  }

  /** wasmMemory is the size of the largest wasm memory of the page's
   * workers (bytes). */
  async wasmMemory() {
    const lanes = [...this.conn.lanes].filter((l) => l.alive);
    const sizes = await Promise.all(lanes.map((l) => this.conn.send([["wasmMemory"]], l).then(([r]) => r.value || 0)));
    return Math.max(0, ...sizes);
  }

  /** isLost says whether the simulation of handle went with its worker. */
  isLost(handle) {
    const h = this.conn.handles.get(handle);
    return !!h && (h.lost || !h.lane.alive);
  }

  /** restarting is the promise of the last restart (Connection.settled
   * waits for it): a new one means another restart began. */
  get restarting() {
    return this.conn.restarting;
  }

  /** settled: see Connection.settled. */
  settled() {
    return this.conn.settled();
  }

  /** onRestart: see Connection.onRestart. */
  onRestart(f) {
    return this.conn.onRestart(f);
  }

  /** create makes a simulation; cost, when it is to replay the history
   * of another (a rebuild), is what that history cost (costOf). */
  async create(opts, cost = 0) {
    const handle = await this.call("create", JSON.stringify(opts || {}));
    this.conn.handles.get(handle).cost += cost;
    return handle;
  }

  /** costOf is how long the calls that made the history of handle took
   * in the worker (ms): what replaying it costs, about. */
  costOf(handle) {
    const h = this.conn.handles.get(handle);
    return h ? h.cost : 0;
  }
  /** exec runs a line; cut, when given, stops it after that many events
   * (a #@cut) or sooner if the time budget stops it; whole runs it
   * without the time budget (a lesson's own line, never a link's). */
  async exec(id, line, cut, whole) {
    if (whole) {
      return withOmitted(await this.call("exec", id, line, null, cut || 0, 1));
    }
    return withOmitted(await (cut ? this.call("exec", id, line, null, cut) : this.call("exec", id, line)));
  }
  step(id, n) {
    return this.call("step", id, n);
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
  /** narrate says the current event in plain words: {text, key, args}
   * (say it with i18n.js engineSays). */
  narrate(id) {
    return this.call("narrate", id);
  }
  /** markers lists the timeline's markers: [{event, time, kind, said}],
   * said as narrate gives it. */
  markers(id) {
    return this.call("markers", id);
  }
  /** firstEvent is the first event from event from on at which a goal
   * (an expect line) holds, or -1 if none does. */
  firstEvent(id, goal, from) {
    return this.call("firstEvent", id, goal, from);
  }
  /** fileBytes reads one file of the Files view field by field: {path,
   * kind, size, synced, annotation} (warren.wasm's bytes, which the worker
   * has inspect.wasm annotate; files.js draws it). */
  fileBytes(id, path) {
    return this.call("fileBytes", id, path);
  }
  /** prepareBytes has the worker of simulation id load what fileBytes
   * needs (inspect.wasm) ahead of it: a reader about to open a file's
   * bytes does not wait for it then. */
  prepareBytes(id) {
    return this.call("prepareBytes", id);
  }
  /** openFolder reads a broker's vhost folder the reader dropped, as
   * [[path, Uint8Array], ...], beside simulation id: {root, skipped,
   * report, problems, files} (wasm/folder.go). */
  openFolder(id, files) {
    return this.call("openFolder", id, files);
  }
  /** folderBytes reads one file of that folder as fileBytes does. */
  folderBytes(id, path) {
    return this.call("folderBytes", id, path);
  }
  /** recoverFolder starts that folder as RabbitMQ 3.10.8 would on boot,
   * named by the definitions defs (JSON, or ""): {vhost, named, queues,
   * gone, why, script} (wasm/inspect/server.go). */
  recoverFolder(id, defs) {
    return this.call("recoverFolder", id, defs);
  }
  parse(text) {
    return this.call("parse", text);
  }
  /** destroy forgets a simulation; it never fails. */
  destroy(id) {
    this.conn.forget(id);
  }
  usage(name) {
    return (this.usages && this.usages[name]) || null;
  }
}

/** withOmitted is an answer's lines; the ones the worker did not send
 * (engine-worker.js, maxLinesSent) stay holes at the end, so that the
 * length counts them and nothing shows them. The array carries beside
 * them said, the sentences of the lines the engine says as data (a Map
 * of line index to {text, key, args}), and cut, the events after which
 * the time budget stopped the command (0: it did not). */
export function withOmitted(answer) {
  const lines = answer.lines;
  if (answer.omitted > 0) {
    lines.length += answer.omitted;
  }
  // not enumerable: the array compares and copies as its lines
  Object.defineProperty(lines, "said", { value: new Map(answer.said || []) });
  Object.defineProperty(lines, "cut", { value: answer.cut || 0 });
  return lines;
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
  let at = url;
  if (new URL(url).origin !== location.origin) {
    at = URL.createObjectURL(new Blob([`import ${JSON.stringify(url)};\n`], { type: "text/javascript" }));
  }
  try {
    return new Worker(scriptURL(at), { type: "module", name: "warren engine" });
  } catch (e) {
    if (globalThis.trustedTypes && !trusted) {
      // the page requires Trusted Types and refused the widget's policy
      throw Object.assign(new Error(e.message), { violations: [{ directive: "require-trusted-types-for" }] });
    }
    throw e;
  }
}

let trusted; // the Trusted Types policy, once made (null: none)

/** scriptURL is url as a page that requires Trusted Types takes a
 * worker's address: through the policy named TRUSTED_TYPES, which the
 * page's trusted-types directive must list. Elsewhere it is url. */
function scriptURL(url) {
  if (trusted === undefined) {
    trusted = null;
    if (globalThis.trustedTypes && typeof globalThis.trustedTypes.createPolicy === "function") {
      try {
        trusted = globalThis.trustedTypes.createPolicy(TRUSTED_TYPES, { createScriptURL: (u) => u });
      } catch {
        // not listed in trusted-types: the worker is refused, and the
        // policy's violation says what to add
      }
    }
  }
  return trusted ? trusted.createScriptURL(url) : url;
}
