// engine-worker.js: the page's one Web Worker. It holds warren.wasm (the
// engine and its bridge, wasm/) and every simulation of the page, so that
// the engine never runs on the page's main thread. bridge-loader.js starts
// it and talks to it by messages:
//
//   page → worker  {type: "load", base, module?}     load base + warren.wasm
//                                                   (or start from module,
//                                                   compiled by another)
//                  {type: "call", id, calls, elsewhere}
//                                                   calls: [[fn, ...args], ...];
//                                                   elsewhere: the bytes the
//                                                   page's other workers hold
//   worker → page  {type: "loaded", names, usages, module}
//                                                   or {type: "failed", why}
//                  {type: "answer", id, results, held}
//                                                   one {value, ms} or {error, ms}
//                                                   a call; held: the bytes this
//                                                   worker's simulations hold
//                  {type: "dead", why}              the Go program has exited
//
// The calls of one message run one after another without a pause; each
// answer carries the milliseconds its call took in here. Answers that the
// bridge gives as JSON text arrive parsed. Once the Go program has exited
// (out of memory, a fatal error) the worker says so once and answers
// nothing more, not even the answer to the calls it died in: the page
// starts another.
//
// A broker's folder dropped on a widget's Files view is read by a second
// module, inspect.wasm (wasm/inspect), which also reads a file's bytes
// field by field (engine/store/format.Annotate) for the Files view: the
// worker loads it beside warren.wasm the first time the page calls
// openFolder, folderBytes, recoverFolder, closeFolder or fileBytes; a
// widget that never opens a folder or a file's bytes never downloads it.


/** JSON_ANSWERS are the bridge's functions that answer in JSON text. */
export const JSON_ANSWERS = new Set(["exec", "snapshot", "expect", "samples", "transcript", "events", "parse", "usage", "names", "stats", "upcoming", "markers", "narrate", "fileBytes", "openFolder", "folderBytes", "recoverFolder"]);

/** FOLDER_CALLS are the functions of inspect.wasm, not warren.wasm. */
export const FOLDER_CALLS = new Set(["openFolder", "folderBytes", "recoverFolder", "closeFolder"]);

/** INSPECTED_CALLS are the calls that need inspect.wasm: its own;
 * fileBytes, whose answer from warren.wasm inspect.wasm reads field by
 * field (annotated); and prepareBytes, which loads it ahead of a reader's
 * first fileBytes and answers true. */
export const INSPECTED_CALLS = new Set([...FOLDER_CALLS, "fileBytes", "prepareBytes"]);

/** annotated is warren's fileBytes read field by field by inspect.wasm's
 * annotate: the JSON the Files view draws, or the error either gave.
 * (annotate takes the answer parsed: JSON.parse is the browser's, and
 * encoding/json's decoder would cost inspect.wasm 120 kB.) */
export function annotated(fileBytes, annotate) {
  return (...args) => {
    const raw = fileBytes(...args);
    return typeof raw === "string" ? annotate(JSON.parse(raw)) : raw;
  };
}

/** runMessage runs the calls of a message from the page: first it tells
 * the engine what the simulations of the page's other workers hold
 * (m.elsewhere, in bytes), so that all the page's simulations together
 * stay inside one memory budget (engine.SharedHeldBytes) however many
 * workers they are spread over; then the calls. held is what this
 * worker's simulations hold after them, which the page hands the others
 * (undefined from an engine that cannot say). Nothing here throws. */
export function runMessage(w, m, isDead, clock = () => performance.now()) {
  if (typeof m.elsewhere === "number" && typeof w.elsewhere === "function" && !isDead()) {
    try {
      w.elsewhere(m.elsewhere);
    } catch {
      // a dead engine says so at the first call
    }
  }
  const results = runCalls(w, m.calls || [], isDead, clock);
  let held;
  if (!isDead() && typeof w.held === "function") {
    try {
      const v = w.held();
      held = typeof v === "number" ? v : undefined;
    } catch {
      // likewise
    }
  }
  return { results, held };
}

/** goalsBudgetMs is the time the goal checks (expect) of one batch take
 * together, as a command's in the browser (engine.BrowserCommandTime):
 * each is told what is left, and one with nothing left is not checked. A
 * widget checks all its goals in one batch after each step. */
export const goalsBudgetMs = 10_000;

/** runCalls runs a batch of calls on the bridge w, in order. isDead says
 * whether the Go program has exited; once it has, the calls left get an
 * error. Nothing here throws. */
export function runCalls(w, calls, isDead, clock = () => performance.now()) {
  const out = [];
  let goalsMs = 0; // what the goal checks of this batch took
  for (const call of calls) {
    const t0 = clock();
    if (isDead()) {
      out.push({ error: "the engine has stopped", ms: 0 });
      continue;
    }
    const [fn, ...args] = Array.isArray(call) ? call : [];
    if (fn === "exec" && (args.length === 2 || args[2] == null)) {
      args[2] = maxLinesSent; // the engine prints no more than crosses
    }
    if (fn === "expect" && args.length === 2) {
      // the goals of one batch share one time budget
      args[2] = Math.max(Math.floor(goalsBudgetMs - goalsMs), -1) || -1;
    }
    if (typeof fn !== "string" || typeof w[fn] !== "function" || fn === "ready") {
      out.push({ error: `no engine function ${JSON.stringify(fn)}`, ms: 0 });
      continue;
    }
    let r;
    try {
      const v = w[fn](...args);
      if (v && typeof v === "object" && typeof v.error === "string") {
        // an error the engine says as data comes with its sentence
        r = typeof v.said === "string" ? { error: v.error, said: JSON.parse(v.said) } : { error: v.error };
      } else if (isDead()) {
        r = { error: "the engine has stopped" };
      } else {
        r = { value: keepLines(JSON_ANSWERS.has(fn) && typeof v === "string" ? JSON.parse(v) : v) };
      }
    } catch (e) {
      r = { error: `${fn}: ${e && e.message ? e.message : e}` };
    }
    r.ms = clock() - t0;
    if (fn === "expect") {
      goalsMs += r.ms;
    }
    out.push(r);
  }
  return out;
}

/** maxLinesSent bounds the trace lines of one answer that cross to the
 * page: a command that ran millions of events would otherwise hold the
 * page's main thread while they are copied there. */
export const maxLinesSent = 1000;

/** keepLines cuts an answer's lines to maxLinesSent; omitted says how
 * many more there were. */
export function keepLines(v) {
  if (v && Array.isArray(v.lines) && v.lines.length > maxLinesSent) {
    return { ...v, lines: v.lines.slice(0, maxLinesSent), omitted: v.lines.length - maxLinesSent };
  }
  return v;
}

/** usagesOf is every command's usage, for completion without a message. */
export function usagesOf(w, names) {
  const all = {};
  for (const n of names) {
    try {
      all[n] = JSON.parse(w.usage(n));
    } catch {
      all[n] = null;
    }
  }
  return all;
}

/** lastLines is the end of what the Go program printed, for a death
 * notice: its last few lines, at most 600 characters. */
export function lastLines(text) {
  const lines = text.trim().split("\n").filter((l) => l.trim());
  const fatal = lines.findIndex((l) => /^(fatal error|panic|runtime:)/.test(l));
  const pick = fatal >= 0 ? lines.slice(fatal, fatal + 2) : lines.slice(-2);
  return pick.join(" / ").slice(0, 600);
}

// ---------------------------------------------------------------------
// In a worker: serve the page.

if (typeof WorkerGlobalScope !== "undefined" && globalThis instanceof WorkerGlobalScope) {
  let go = null;
  let bridge = null; // warren.wasm's functions
  let w = null; // them, with inspect.wasm's once loaded
  let dead = "";
  let said = false;
  let printed = ""; // the end of what Go printed
  let fatal = ""; // the first line of a fatal error it printed
  let loading = null;
  // what the page's Content-Security-Policy blocked in here (the worker
  // of a page of another origin has the page's policy)
  const violations = [];
  addEventListener("securitypolicyviolation", (e) => violations.push({ directive: e.effectiveDirective || e.violatedDirective, blocked: e.blockedURI }));

  const isDead = () => !!dead || (go !== null && go.exited);

  const die = (why) => {
    if (!dead) {
      dead = why || "the engine stopped";
    }
    if (!said) {
      said = true;
      postMessage({ type: "dead", why: dead });
    }
  };

  let compiled = null; // the WebAssembly.Module, for the page's next workers
  let base = ""; // where warren.wasm came from, and inspect.wasm comes from

  // inspect.wasm, loaded when a folder is first dropped or a file's bytes
  // first opened: its functions,
  // and warren's destroy forgetting the simulation's folder too.
  let inspecting = null;
  const loadInspect = () =>
    inspecting ||
    (inspecting = (async () => {
      const url = base + "inspect.wasm";
      const igo = new globalThis.Go();
      const response = await fetch(url);
      if (!response.ok) {
        throw new Error(`cannot load ${url}: HTTP ${response.status}`);
      }
      let r;
      try {
        r = await WebAssembly.instantiateStreaming(response.clone(), igo.importObject);
      } catch {
        r = await WebAssembly.instantiate(await response.arrayBuffer(), igo.importObject);
      }
      const gone = () => {
        inspecting = null;
      };
      igo.run(r.instance).then(gone, gone);
      const api = globalThis.warrenInspect;
      if (!api || !api.ready) {
        throw new Error("inspect.wasm started but did not install its functions");
      }
      const destroy = w.destroy;
      w.destroy = (id) => {
        api.closeFolder(id);
        return destroy.call(w, id);
      };
      return api;
    })());

  /** withInspect puts inspect.wasm's functions, and fileBytes read
   * through it, on w for a batch that calls them; if it cannot load, they
   * fail saying why. */
  const withInspect = async (calls) => {
    if (!calls.some((c) => Array.isArray(c) && INSPECTED_CALLS.has(c[0]))) {
      return;
    }
    try {
      const api = await loadInspect();
      for (const fn of FOLDER_CALLS) {
        w[fn] = (...args) => api[fn](...args);
      }
      w.fileBytes = annotated(bridge.fileBytes, api.annotate);
      w.prepareBytes = () => true;
    } catch (err) {
      inspecting = null;
      const why = String(err && err.message ? err.message : err);
      for (const fn of INSPECTED_CALLS) {
        w[fn] = () => {
          throw new Error(why);
        };
      }
    }
  };

  const load = async (from, module) => {
    base = from;
    if (typeof globalThis.Go !== "function") {
      await import(base + "wasm_exec.js");
    }
    // Keep the end of what Go prints: a fatal error says why there.
    const fs = globalThis.fs;
    const write = fs.writeSync.bind(fs);
    const decoder = new TextDecoder();
    fs.writeSync = (fd, buf) => {
      printed = (printed + decoder.decode(buf)).slice(-4000);
      if (!fatal) {
        const m = /(^|\n)((fatal error|panic|runtime: out of memory)[^\n]*)\n/.exec(printed);
        fatal = m ? m[2] : "";
      }
      return write(fd, buf);
    };
    go = new globalThis.Go();
    // a module another worker compiled, if this one can start from it
    let instance = module ? await WebAssembly.instantiate(module, go.importObject).catch(() => null) : null;
    if (instance) {
      compiled = module;
    } else {
      instance = await fetchAndStart(base);
    }
    // run() settles when the Go program exits, which it does only on a
    // fatal error; the functions are in place as soon as it has started.
    go.run(instance).then(
      () => die(fatal || lastLines(printed) || "the engine stopped"),
      (e) => die(String(e)),
    );
    bridge = globalThis.warren;
    if (!bridge || !bridge.ready) {
      throw new Error("warren.wasm started but did not install its functions");
    }
    // The bridge's functions, and the size of the engine's memory (bytes).
    w = Object.create(bridge);
    w.wasmMemory = () => instance.exports.mem.buffer.byteLength;
    const names = JSON.parse(bridge.names());
    return { names, usages: usagesOf(bridge, names) };
  };

  // fetchAndStart downloads and compiles warren.wasm and instantiates it.
  const fetchAndStart = async (base) => {
    const url = base + "warren.wasm";
    const response = await fetch(url);
    if (!response.ok) {
      throw new Error(`cannot load ${url}: HTTP ${response.status}`);
    }
    let r;
    try {
      r = await WebAssembly.instantiateStreaming(response.clone(), go.importObject);
    } catch {
      // A server that does not say application/wasm.
      r = await WebAssembly.instantiate(await response.arrayBuffer(), go.importObject);
    }
    compiled = r.module;
    return r.instance;
  };

  globalThis.onmessage = async (e) => {
    const m = e.data || {};
    if (m.type === "load") {
      if (!loading) {
        loading = load(m.base, m.module);
        loading.then(
          (r) => {
            try {
              postMessage({ type: "loaded", ...r, module: compiled });
            } catch {
              postMessage({ type: "loaded", ...r }); // a module that cannot cross
            }
          },
          async (err) => {
            await new Promise((r) => setTimeout(r, 50)); // the violation's event comes after
            const why = err && err.message ? err.message : String(err);
            postMessage({ type: "failed", why, violations });
          },
        );
      }
      return;
    }
    if (m.type !== "call") {
      return;
    }
    try {
      await loading;
    } catch {
      return; // "failed" said why
    }
    if (said) {
      return;
    }
    await withInspect(m.calls || []);
    const { results, held } = runMessage(w, m, isDead);
    if (isDead()) {
      // No answer: the page fails the calls it was waiting on, the one
      // running first. Go's exit promise settles a moment later.
      await Promise.resolve();
      die(fatal || lastLines(printed) || "the Go program has exited");
      return;
    }
    postMessage({ type: "answer", id: m.id, results, held });
    collectWhenIdle(m.calls || []);
  };

  // Once the answer is out and nothing else has come, the engine may
  // collect its garbage (warren.idle, wasm/gc.go): then, not in the middle
  // of the next call, where it costs that call far more. After a command
  // (exec) it may do so at once; after anything else, once a quarter
  // second has passed with no call. idle collects in a goroutine of its
  // own, started as it returns: a runtime.GC made inside the call from
  // JavaScript now and then wedged this worker in Chromium
  // (TestHeavyPageProbe, on the backlog spiral).
  //
  // NB: a reader's seek is four or five calls in a row (seek, snapshot,
  // events, narrate), each sent when the one before has answered, and a
  // collection begun after the first held the rest for its whole length:
  // in the playground, a 100,000-message run's seek took 170-719 ms from
  // the slider to the drawn state with a collection after any answer, and
  // 54-113 ms when the seek's calls wait for a quarter second of quiet.
  // But a script's commands come one after another with no quiet between
  // them, and a collection inside a command costs far more than one
  // between two: "What persistence costs" opened its first widget after
  // 3.4-3.7 s of the engine's time with collections between its commands, and
  // 5.9 s without.
  const quietMs = 250;
  let idleTimer = 0;
  const collectWhenIdle = (calls) => {
    clearTimeout(idleTimer);
    const command = calls.some((c) => Array.isArray(c) && c[0] === "exec");
    idleTimer = setTimeout(() => {
      if (w && !isDead() && typeof w.idle === "function") {
        try {
          w.idle();
        } catch {
          // a dead engine says so at the next call
        }
      }
    }, command ? 0 : quietMs);
  };
}
