// connection.js: the page's engine workers (engine-worker.js, each
// holding warren.wasm and simulations of the page) and which simulation
// is in which; bridge-loader.js's Engine sends its calls through them.
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

/** maxRestarts bounds restarts in a minute: an engine that cannot stay up
 * (a lesson whose own script kills it) is not restarted for ever. */
const maxRestarts = 4;

/** splitAfter is how long one call may hold the worker while calls of
 * other simulations wait behind it (ms); past it they move to a new
 * worker, and the long call keeps the old one to itself. */
export const splitAfter = 1500;

/** deadAfter is how long a worker may hold one call before the page
 * takes it for dead (ms): it is ended as if its Go program had exited,
 * the call it held is the culprit, and the other widgets rebuild their
 * simulations in a new worker. A lesson's own command runs whole, with no
 * time budget, and the heaviest take seconds, tens on a slow computer; a
 * worker stuck in its collector once held a call for minutes. */
export const deadAfter = 120_000;

/** maxLanes bounds the workers of a page. */
export const maxLanes = 3;

/** spreadLanes is how many workers new simulations are spread over: one
 * a core, but at least two and at most maxLanes. */
const spreadLanes = Math.max(2, Math.min(maxLanes, (globalThis.navigator && navigator.hardwareConcurrency) || 2));

/** Lane is one engine worker and the calls sent to it, answered in order:
 * the first pending is the one running. */
class Lane {
  constructor(conn) {
    this.conn = conn;
    this.pending = new Map(); // message id → {resolve, reject, ids}
    this.alive = true;
    this.ready = false; // the worker has loaded the engine
    this.runningSince = 0; // when the first pending call started
    this.creating = 0; // creates sent and not yet answered
    this.held = 0; // the bytes its simulations hold, as its last answer said
    this.loaded = new Promise((resolve, reject) => this.start(resolve, reject));
    this.loaded.catch(() => {});
  }

  /** start starts the worker and has it load the engine: resolve is
   * called with the engine's names and usages once it has, reject when
   * it cannot. */
  start(resolve, reject) {
    const conn = this.conn;
    let worker;
    try {
      worker = conn.startWorker();
    } catch (e) {
      reject(Object.assign(new Error(`cannot start the engine's worker: ${e && e.message ? e.message : e}`), { violations: (e && e.violations) || [] }));
      return;
    }
    this.worker = worker;
    worker.onmessage = (e) => this.alive && this.heard(e.data || {}, resolve, reject);
    worker.onerror = (e) => this.alive && this.failed(e, reject);
    try {
      worker.postMessage(conn.module ? { type: "load", base: conn.base, module: conn.module } : { type: "load", base: conn.base });
    } catch {
      worker.postMessage({ type: "load", base: conn.base }); // a module that cannot cross: it compiles its own
    }
  }

  /** heard takes a message m of the worker: the engine loaded (resolve)
   * or could not (reject), a batch's answer, or its death. */
  heard(m, resolve, reject) {
    const conn = this.conn;
    if (m.type === "loaded") {
      this.ready = true;
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
  }

  /** failed takes the worker's error event e: the engine could not load
   * (reject), or the worker died under it. */
  failed(e, reject) {
    const why = (e && e.message) || "the engine's worker could not run (is engine-worker.js served to this page?)";
    if (e && typeof e.preventDefault === "function") {
      e.preventDefault();
    }
    if (!this.ready) {
      reject(new Error(why));
    } else {
      this.conn.died(this, why);
    }
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
   * as culprit (when culprit says so, with culpritSays as its message if
   * given), the others as lost. */
  end(why, culprit, culpritSays = "") {
    this.alive = false;
    try {
      this.worker.terminate();
    } catch {
      // already gone
    }
    const waiting = [...this.pending.values()];
    this.pending.clear();
    waiting.forEach((p, i) =>
      p.reject(new EngineError(i === 0 && culprit ? culpritSays || `the engine stopped while running this (${why})` : `the engine stopped (${why})`, { lost: true, culprit: i === 0 && culprit })),
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

  /** watch ends a worker that has held one call past deadAfter, and moves
   * the simulations waiting behind a long call to a new worker. */
  watch() {
    for (const lane of [...this.lanes]) {
      if (lane.alive && lane.busy && this.now() - lane.runningSince >= deadAfter) {
        this.died(lane, `no answer in ${deadAfter / 1000} s`, `the engine gave no answer in ${deadAfter / 1000} s while running this`);
      }
    }
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

  /** died ends a worker whose Go program exited, or that gave no answer
   * (culpritSays, then, is the culprit's message): its simulations are
   * lost, the call it was running is the culprit; a new worker replaces
   * the current one. */
  died(lane, why, culpritSays = "") {
    lane.end(why, true, culpritSays);
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

/** startWorker starts the worker module at url. A worker must come from
 * the page's own origin: for a page on another origin (an embedding
 * host) it is a module of the page's own, made here, that imports url
 * (which the widget's server allows by CORS, as for every module). */
export function startWorker(url) {
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
