// bridge-loader.js: the engine, one warren.wasm instance for the page,
// and the Engine class that wraps its bridge (wasm/): it parses the JSON
// answers and turns {error} into exceptions.

/** EngineError is a refusal from the bridge ({error: "..."}). */
export class EngineError extends Error {}

let enginePromise = null;

/** loadEngine loads wasm_exec.js and warren.wasm from base, once per page. */
export function loadEngine(base) {
  if (!enginePromise) {
    enginePromise = startEngine(base);
  }
  return enginePromise;
}

async function startEngine(base) {
  if (globalThis.warren && globalThis.warren.ready) {
    return new Engine(globalThis.warren);
  }
  if (typeof globalThis.Go !== "function") {
    await new Promise((resolve, reject) => {
      const s = document.createElement("script");
      s.src = base + "wasm_exec.js";
      s.onload = resolve;
      s.onerror = () => reject(new Error(`cannot load ${s.src}`));
      document.head.appendChild(s);
    });
  }
  const go = new globalThis.Go();
  const url = base + "warren.wasm";
  let instance;
  const response = await fetch(url);
  if (!response.ok) {
    throw new Error(`cannot load ${url}: HTTP ${response.status}`);
  }
  try {
    ({ instance } = await WebAssembly.instantiateStreaming(response.clone(), go.importObject));
  } catch {
    // A server that does not say application/wasm.
    ({ instance } = await WebAssembly.instantiate(await response.arrayBuffer(), go.importObject));
  }
  // run() returns when the Go program exits, which it does only on a
  // fatal error; the functions are in place as soon as it has started.
  go.run(instance).then(
    () => Engine.dead("the engine stopped"),
    (e) => Engine.dead(String(e)),
  );
  if (!globalThis.warren || !globalThis.warren.ready) {
    throw new Error("warren.wasm started but did not install its functions");
  }
  return new Engine(globalThis.warren);
}

/** Engine wraps the bridge: it parses JSON answers and throws EngineError. */
export class Engine {
  static stopped = "";
  static dead(why) {
    Engine.stopped = why;
  }
  constructor(w) {
    this.w = w;
    this.names = this.json(w.names());
    this.usages = new Map();
  }
  check(v) {
    if (Engine.stopped) {
      throw new EngineError(`the engine is not running (${Engine.stopped}); reload the page`);
    }
    if (v && typeof v === "object" && typeof v.error === "string") {
      throw new EngineError(v.error);
    }
    return v;
  }
  json(v) {
    return JSON.parse(this.check(v));
  }
  call(fn, ...args) {
    if (Engine.stopped) {
      this.check(null);
    }
    let v;
    try {
      v = this.w[fn](...args);
    } catch (e) {
      throw new EngineError(`${fn}: ${e && e.message ? e.message : e}`);
    }
    return this.check(v);
  }
  create(opts) {
    return this.call("create", JSON.stringify(opts || {}));
  }
  exec(id, line) {
    return JSON.parse(this.call("exec", id, line)).lines;
  }
  submit(id, line) {
    return JSON.parse(this.call("submit", id, line)).lines;
  }
  step(id, n) {
    return this.call("step", id, n);
  }
  runQuiet(id) {
    return JSON.parse(this.call("runQuiet", id)).lines;
  }
  seek(id, n) {
    return this.call("seek", id, n);
  }
  snapshot(id) {
    const s = JSON.parse(this.call("snapshot", id));
    for (const k of ["schedulers", "processes", "credit", "queues", "alarms"]) {
      s[k] = s[k] || [];
    }
    return s;
  }
  /** expect checks a goal line now: {met, text}. */
  expect(id, line) {
    return JSON.parse(this.call("expect", id, line));
  }
  /** samples is the metrics series from index from on. */
  samples(id, from) {
    const list = JSON.parse(this.call("samples", id, from));
    for (const x of list) {
      x.scheduler = x.scheduler || [];
    }
    return list;
  }
  transcript(id, from) {
    return JSON.parse(this.call("transcript", id, from));
  }
  events(id, from, to) {
    return JSON.parse(this.call("events", id, from, to));
  }
  parse(text) {
    return JSON.parse(this.call("parse", text));
  }
  destroy(id) {
    try {
      this.w.destroy(id);
    } catch {
      // the page is going away; nothing to tell
    }
  }
  usage(name) {
    if (!this.usages.has(name)) {
      let u = null;
      try {
        u = JSON.parse(this.call("usage", name));
      } catch {
        u = null;
      }
      this.usages.set(name, u);
    }
    return this.usages.get(name);
  }
}
