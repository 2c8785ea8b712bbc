// bridge-loader.js: the page's side of the engine. The engine itself runs
// in a Web Worker (engine-worker.js), which holds warren.wasm and the
// page's simulations; Engine sends it calls and hands back promises of the
// answers, parsed, with {error} turned into an EngineError.
//
// The workers, which simulation is in which, and what happens when one
// dies or is held too long, are connection.js's.

import { Connection, EngineError, startWorker } from "./connection.js";

/** NO_HANDLE lists the bridge functions that take no simulation handle. */
const NO_HANDLE = new Set(["create", "names", "usage", "parse", "wasmMemory"]);

/** HISTORY lists the bridge functions whose time counts as a
 * simulation's cost: what a rebuild replays. */
const HISTORY = new Set(["exec", "step", "seek"]);

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
   * without the time budget (a lesson's own line, never a link's); atEnd
   * runs it at the end of the timeline, the simulation staying at the
   * event it shows. */
  async exec(id, line, cut, whole, atEnd) {
    if (whole || atEnd) {
      return withOmitted(await this.call("exec", id, line, null, cut || 0, whole ? 1 : 0, atEnd ? 1 : 0));
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
  /** upcoming is what the node does next from the moment shown: {in,
   * timer, process, what} (in: µs from now; a process that can run now is
   * in 0, timer false), or null when nothing ever will. */
  upcoming(id) {
    return this.call("upcoming", id);
  }
  /** eventAt is the last event of the timeline that starts by virtual
   * time t (µs), 0 for none. */
  eventAt(id, t) {
    return this.call("eventAt", id, t);
  }
  /** keep has the engine keep the simulation's state as it is now, for a
   * seek back to it to restore (Sim.Keep). */
  keep(id) {
    return this.call("keep", id);
  }
  /** firstEvents finds, in one pass, the first event from each
   * {goal, from} on at which its goal (an expect line) holds: {at: [event
   * or -1, ...]}, with error and said when a budget stopped the look (the
   * events found before it stand). */
  async firstEvents(id, whens) {
    return JSON.parse(await this.call("firstEvents", id, whens.map((w) => `${w.from} ${w.goal}`).join("\n")));
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
 * of line index to {text, key, args}), explain, what the reply of
 * RabbitMQ's a line shows means (a Map as said is), and cut, the events
 * after which the time budget stopped the command (0: it did not). */
export function withOmitted(answer) {
  const lines = answer.lines;
  if (answer.omitted > 0) {
    lines.length += answer.omitted;
  }
  // not enumerable: the array compares and copies as its lines
  Object.defineProperty(lines, "said", { value: new Map(answer.said || []) });
  Object.defineProperty(lines, "explain", { value: new Map(answer.explain || []) });
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
