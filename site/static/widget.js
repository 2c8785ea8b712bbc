// widget.js defines <warren-scenario>: a live view of a simulated RabbitMQ
// node running a scenario script, with step, play, a timeline to scrub, a
// console in the command language and a link that reproduces the exact
// state. One script tag and one element work on any page; every element of
// a page shares one warren.wasm instance (the engine and its bridge,
// wasm/), loaded once.
//
// Where the files are: the directory of this script, unless the script tag
// has data-base="https://host/path/" or the page sets
// globalThis.warrenBase before this script runs.
//
// Share links: #w=<script>&e=<event>&v=<view>, the script being every
// command that made the state (deflate-raw, base64url). A line "#@seek N"
// in such a script is the widget's own: the next command ran after seeking
// back to event N. To the engine it is a comment.
(() => {
  "use strict";
  if (customElements.get("warren-scenario")) {
    return; // the script was included twice
  }

  const here = document.currentScript;
  const base = (() => {
    const given = (here && here.dataset.base) || globalThis.warrenBase;
    const from = given || (here && here.src) || document.baseURI;
    try {
      return new URL(given ? from : ".", given ? document.baseURI : from).href.replace(/\/?$/, "/");
    } catch {
      return "/";
    }
  })();

  // ---------------------------------------------------------------------
  // The engine: one wasm instance for the page.

  /** EngineError is a refusal from the bridge ({error: "..."}). */
  class EngineError extends Error {}

  let enginePromise = null;

  /** loadEngine loads wasm_exec.js and warren.wasm once per page. */
  function loadEngine() {
    if (!enginePromise) {
      enginePromise = startEngine();
    }
    return enginePromise;
  }

  async function startEngine() {
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
  class Engine {
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

  // The widget's style sheet, fetched once and shared by every shadow root.
  let sheetPromise = null;
  function loadSheet() {
    if (!sheetPromise) {
      sheetPromise = fetch(base + "widget.css")
        .then((r) => (r.ok ? r.text() : ""))
        .catch(() => "")
        .then((text) => {
          const sheet = new CSSStyleSheet();
          sheet.replaceSync(text || FALLBACK_CSS);
          return sheet;
        });
    }
    return sheetPromise;
  }

  // Enough to read the widget if widget.css cannot be fetched.
  const FALLBACK_CSS = `:host{display:block;all:initial;font:14px system-ui,sans-serif;color:#111;background:#fff}
    [hidden]{display:none!important}.sr-only{position:absolute;width:1px;height:1px;overflow:hidden;clip-path:inset(50%)}`;

  // ---------------------------------------------------------------------
  // Share links: deflate-raw, then base64url.

  async function deflate(text) {
    const stream = new Blob([new TextEncoder().encode(text)]).stream().pipeThrough(new CompressionStream("deflate-raw"));
    return base64url(new Uint8Array(await new Response(stream).arrayBuffer()));
  }

  async function inflate(data) {
    const bytes = unbase64url(data);
    const stream = new Blob([bytes]).stream().pipeThrough(new DecompressionStream("deflate-raw"));
    const buf = await new Response(stream).arrayBuffer();
    return new TextDecoder("utf-8", { fatal: true }).decode(buf);
  }

  function base64url(bytes) {
    let bin = "";
    for (let i = 0; i < bytes.length; i += 0x8000) {
      bin += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
    }
    return btoa(bin).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
  }

  function unbase64url(s) {
    if (!/^[A-Za-z0-9_-]*$/.test(s)) {
      throw new Error("it has characters a link's data never has");
    }
    const bin = atob(s.replace(/-/g, "+").replace(/_/g, "/") + "===".slice((s.length + 3) % 4));
    return Uint8Array.from(bin, (c) => c.charCodeAt(0));
  }

  /** ShareState is what a share link holds. */
  class ShareState {
    constructor(script, event, view) {
      this.script = script;
      this.event = event;
      this.view = view;
    }
    async encode() {
      const p = [`w=${await deflate(this.script)}`];
      if (this.event !== null && this.event !== undefined) {
        p.push(`e=${this.event}`);
      }
      if (this.view) {
        p.push(`v=${encodeURIComponent(this.view)}`);
      }
      return "#" + p.join("&");
    }
    /** decode reads a hash; null when it is not a share link at all. */
    static async decode(hash) {
      const params = new URLSearchParams(hash.replace(/^#/, ""));
      if (!params.has("w")) {
        return null;
      }
      let script;
      try {
        script = await inflate(params.get("w"));
      } catch (e) {
        throw new LinkError(`the scenario data in the link cannot be read (${e.message || e}); the link may have been cut short when it was copied`);
      }
      let event = null;
      if (params.has("e")) {
        const e = params.get("e");
        if (!/^\d{1,15}$/.test(e)) {
          throw new LinkError(`e=${e} is not an event number`);
        }
        event = Number(e);
      }
      const view = params.get("v");
      if (view !== null && !VIEWS.includes(view)) {
        throw new LinkError(`v=${view} is not a view (${VIEWS.join(", ")})`);
      }
      return new ShareState(script, event, view);
    }
  }

  class LinkError extends Error {}

  const VIEWS = ["diagram", "table"];
  const DEFAULT_VERSION = "3.10"; // the engine's default profile
  const SPEEDS = [1, 2, 5, 10, 50, 200, 1000, 10000];
  const MAX_OUTPUT_LINES = 200; // of one command, in the console
  const MAX_CONSOLE_ENTRIES = 400;
  const EVENT_LIST = 8;

  // ---------------------------------------------------------------------
  // Small DOM helpers.

  /** h makes an element: h("div.a.b", {attr: v}, child, "text", ...). */
  function h(spec, attrs, ...children) {
    const [tag, ...classes] = spec.split(".");
    const el = document.createElement(tag || "div");
    if (classes.length) {
      el.className = classes.join(" ");
    }
    if (attrs) {
      for (const [k, v] of Object.entries(attrs)) {
        if (v === null || v === undefined || v === false) {
          continue;
        }
        if (k.startsWith("on")) {
          el.addEventListener(k.slice(2), v);
        } else if (k === "text") {
          el.textContent = v;
        } else {
          el.setAttribute(k, v === true ? "" : String(v));
        }
      }
    }
    for (const c of children.flat()) {
      if (c !== null && c !== undefined && c !== false) {
        el.append(c);
      }
    }
    return el;
  }

  function setText(el, text) {
    if (el.textContent !== text) {
      el.textContent = text;
    }
  }

  function formatTime(us) {
    if (us < 1000) {
      return `${us} µs`;
    }
    if (us < 1_000_000) {
      return `${(us / 1000).toFixed(3)} ms`;
    }
    return `${(us / 1_000_000).toFixed(3)} s`;
  }

  function formatBytes(n) {
    if (n < 1024) {
      return `${n} B`;
    }
    const units = ["KiB", "MiB", "GiB", "TiB"];
    let u = -1;
    do {
      n /= 1024;
      u++;
    } while (n >= 1024 && u < units.length - 1);
    return `${n.toFixed(n < 10 ? 1 : 0)} ${units[u]}`;
  }

  function pct(part, whole) {
    if (!(whole > 0)) {
      return 0;
    }
    return Math.max(0, Math.min(100, (100 * part) / whole));
  }

  // A message kind's colour: a hue picked from its name, so that the same
  // kind looks the same everywhere.
  function kindHue(kind) {
    let x = 0;
    for (const c of kind) {
      x = (x * 31 + c.charCodeAt(0)) % 360;
    }
    return x;
  }

  const COLUMNS = [
    { kind: "reader", title: "Readers", help: "one per connection: reads frames from the socket" },
    { kind: "channel", title: "Channels", help: "one per channel: routes publishes, tracks unacked deliveries" },
    { kind: "queue", title: "Queues", help: "one process per queue, one message at a time" },
    { kind: "writer", title: "Writers", help: "one per channel: frames for the client" },
  ];

  // ---------------------------------------------------------------------
  // The element.

  class WarrenScenario extends HTMLElement {
    constructor() {
      super();
      this.root = this.attachShadow({ mode: "open" });
      this.started = false;
      this.id_ = 0; // the simulation's handle
      this.engine = null;
      this.source = ""; // the scenario as given
      this.extra = []; // lines added by what the reader did since
      this.entries = []; // console entries
      this.history = [];
      this.historyAt = 0;
      this.snap = null;
      this.pos = 0;
      this.end = 0;
      this.playing = false;
      this.timer = 0;
      this.view = "diagram";
      this.stepMode = false;
      this.boxes = new Map();
      this.announceTimer = 0;
      this.busy = false;
      let resolve;
      /** ready settles when the scenario has run (or failed to). */
      this.ready = new Promise((r) => (resolve = r));
      this.resolveReady = resolve;
    }

    connectedCallback() {
      if (this.id_ && this.engine) {
        return; // moved within the page
      }
      if (this.started && this.engine && !this.busy) {
        this.reset(); // removed, then put back
        return;
      }
      if (!this.started) {
        this.started = true;
        this.start().catch((e) => this.fail("The widget could not start", e));
      }
    }

    disconnectedCallback() {
      queueMicrotask(() => {
        if (!this.isConnected) {
          this.pause();
          if (this.engine && this.id_) {
            this.engine.destroy(this.id_);
            this.id_ = 0;
          }
        }
      });
    }

    /** fromURL: this widget reads its scenario from the page address. */
    get fromURL() {
      return this.hasAttribute("from-url") || this.getAttribute("layout") === "full";
    }

    get label() {
      return this.titleText || "RabbitMQ scenario";
    }

    async start() {
      // A title attribute would be a tooltip over the whole widget: keep
      // its text for the heading instead.
      this.titleText = this.getAttribute("title") || "";
      if (this.titleText) {
        this.removeAttribute("title");
        this.setAttribute("aria-label", this.titleText);
      }
      const sheet = await loadSheet();
      this.root.adoptedStyleSheets = [sheet];
      this.build();
      this.status("Loading the simulation…");
      if (this.fromURL) {
        addEventListener("hashchange", () => this.onHashChange());
      }
      let share = null;
      let source;
      try {
        ({ share, source } = await this.readSource());
      } catch (e) {
        this.engine = await loadEngine().catch(() => null);
        if (this.engine) {
          this.id_ = this.engine.create(this.options());
        }
        this.showProblem(e instanceof LinkError ? "This link is damaged" : "The scenario could not be loaded", e.message || String(e));
        this.source = "";
        this.refresh();
        this.setControlsEnabled(!!this.engine);
        this.status("");
        this.resolveReady();
        return;
      }
      this.engine = await loadEngine();
      this.source = source;
      if (share && share.view) {
        this.setView(share.view);
      } else if (VIEWS.includes(this.getAttribute("view"))) {
        this.setView(this.getAttribute("view"));
      }
      await this.runSource(source);
      const at = share && share.event !== null ? share.event : this.attrEvent();
      if (at !== null) {
        this.seekTo(Math.min(at, this.end), false);
        if (at > this.end) {
          this.showProblem("This link points past the end", `event ${at} is past the end of the timeline (${this.end}); showing the end`);
        }
      } else if (this.hasAttribute("autoplay") && !matchMedia("(prefers-reduced-motion: reduce)").matches) {
        this.seekTo(0, false);
        this.play();
      }
      this.status("");
      this.resolveReady();
    }

    /** onHashChange loads a share link pasted into the address bar. */
    async onHashChange() {
      if (location.hash === this.writtenHash || this.busy) {
        return;
      }
      let share;
      try {
        share = await ShareState.decode(location.hash);
      } catch (e) {
        this.showProblem("This link is damaged", e.message);
        return;
      }
      if (!share) {
        return;
      }
      this.source = share.script;
      await this.reset();
      this.setView(share.view || "diagram");
      if (share.event !== null) {
        this.seekTo(Math.min(share.event, this.end), true);
      }
    }

    attrEvent() {
      const e = this.getAttribute("event");
      return e !== null && /^\d+$/.test(e) ? Number(e) : null;
    }

    options() {
      return {};
    }

    /** readSource finds the script: the page address, src, name or text. */
    async readSource() {
      if (this.fromURL) {
        const share = await ShareState.decode(location.hash);
        if (share) {
          return { share, source: share.script };
        }
      }
      const src = this.getAttribute("src");
      const name = this.getAttribute("name");
      if (src || name) {
        if (name && globalThis.warrenScenarios && typeof globalThis.warrenScenarios[name] === "string") {
          return { source: globalThis.warrenScenarios[name] };
        }
        const url = src ? new URL(src, document.baseURI) : new URL(`scenarios/${encodeURIComponent(name)}.txt`, base);
        let r;
        try {
          r = await fetch(url);
        } catch (e) {
          throw new Error(`cannot fetch ${url}: ${e.message}`);
        }
        if (!r.ok) {
          throw new Error(`cannot fetch ${url}: HTTP ${r.status}`);
        }
        return { source: await r.text() };
      }
      const pre = this.querySelector("pre");
      let source = (pre ? pre.textContent : this.textContent).replace(/\r\n?/g, "\n");
      // A version other than the default becomes the script's first line,
      // so that a share link keeps it.
      const version = this.getAttribute("version");
      if (version && version !== DEFAULT_VERSION && /^\d+\.\d+$/.test(version)) {
        source = `set version=${version}\n${source}`;
      }
      return { source };
    }

    /** runSource runs a script line by line, as share links replay. */
    async runSource(text) {
      this.busy = true;
      this.setControlsEnabled(false);
      if (!this.id_) {
        this.id_ = this.engine.create(this.options());
      }
      try {
        this.engine.parse(text.split("\n").filter((l) => !l.trimStart().startsWith("#@")).join("\n"));
      } catch (e) {
        this.showProblem("The scenario has a mistake", `${e.message.replace(/^parse: /, "")}. The other lines ran.`);
      }
      const lines = text.split("\n");
      let refused = 0;
      const parseFailed = !this.el.problem.hidden;
      for (let i = 0; i < lines.length; i++) {
        const line = lines[i].trim();
        if (!line || (line.startsWith("#") && !line.startsWith("#@"))) {
          continue;
        }
        if (lines.length > 20 && i % 5 === 0) {
          this.status(`Running line ${i + 1} of ${lines.length}…`);
          await new Promise((r) => setTimeout(r, 0));
          if (!this.id_) {
            return; // removed meanwhile
          }
        }
        const ok = this.runLine(line, i + 1);
        if (!ok) {
          refused++;
          if (refused === 1 && !parseFailed && !this.hasAttribute("error-ok")) {
            this.showProblem("A command was refused", `line ${i + 1}: ${line}: see the console`);
          }
        }
      }
      this.busy = false;
      this.setControlsEnabled(true);
      this.refresh();
    }

    /** runLine runs one line of a script; false when it was refused. */
    runLine(line, lineNo) {
      if (line.startsWith("#@seek ")) {
        const n = Number(line.slice(7).trim());
        try {
          this.engine.seek(this.id_, n);
        } catch (e) {
          this.addEntry({ cmd: line, lines: ["error: " + e.message], at: this.pos });
          return false;
        }
        this.afterRun();
        return true;
      }
      if (line.startsWith("#@")) {
        this.addEntry({ cmd: line, lines: [`error: unknown widget directive ${line.split(" ")[0]}`], at: this.pos });
        return false;
      }
      return this.execLine(line, false, lineNo);
    }

    /** execLine runs one command until quiet and shows its lines. */
    execLine(line, typed, lineNo) {
      const from = this.currentEvent();
      let lines;
      try {
        lines = this.engine.exec(this.id_, line);
      } catch (e) {
        lines = ["error: " + e.message];
      }
      const refused = lines.length > 0 && lines[0].startsWith("error: ");
      if (refused && lineNo && !/^error: line \d+/.test(lines[0])) {
        lines[0] = lines[0].replace(/^error: /, `error: line ${lineNo}, `);
      }
      this.afterRun();
      const held = !refused && !lines.length && /^submit\s/.test(line);
      this.addEntry({ cmd: line, lines: held ? ["(handed to the node: step to see it run)"] : lines, at: from, to: this.end, typed, note: held });
      return !refused;
    }

    currentEvent() {
      return this.pos;
    }

    afterRun() {
      try {
        this.snap = this.engine.snapshot(this.id_);
      } catch (e) {
        this.showProblem("The simulation stopped", e.message);
        return;
      }
      this.pos = this.snap.events;
      this.end = this.snap.furthest;
    }

    // -------------------------------------------------------------------
    // What the reader does.

    /** act prepares a change that makes new history: after a seek back,
     * the share script must say where the change happened. */
    branchPoint() {
      if (this.pos < this.end) {
        this.extra.push(`#@seek ${this.pos}`);
        for (const e of this.entries) {
          if (e.at >= this.pos && e.cmdEl) {
            e.cmdEl.parentElement.classList.add("dropped");
            e.cmdEl.parentElement.title = "undone: a later command replaced this part of the timeline";
          }
        }
      }
    }

    typed(line) {
      line = line.trim();
      if (!line) {
        return;
      }
      if (this.history[this.history.length - 1] !== line) {
        this.history.push(line);
      }
      this.historyAt = this.history.length;
      this.lastStepWasButton = false;
      this.pause();
      this.branchPoint();
      if (this.stepMode && /^[a-z]+\.[a-z]+(\s|$)/.test(line)) {
        line = `submit ${line}`; // a client command: its frames wait in the socket
      }
      const ok = this.execLine(line, true);
      this.extra.push(line);
      this.refresh();
      this.announce(ok ? `Ran ${line}. ${this.positionText()}` : `Refused: ${line}`);
      this.updateURL();
    }

    stepForward() {
      if (this.busy || !this.id_) {
        return;
      }
      if (this.pos < this.end) {
        this.seekTo(this.pos + 1, true);
        return;
      }
      let ran = 0;
      try {
        ran = this.engine.step(this.id_, 1);
      } catch (e) {
        this.showProblem("Step failed", e.message);
        return;
      }
      if (ran === 0) {
        this.pause();
        this.announce("The node is idle: nothing left to run.");
        setText(this.el.idle, "Idle: nothing left to run. Type a command to go on.");
        return;
      }
      const last = this.extra[this.extra.length - 1];
      const m = last && /^step n=(\d+)$/.exec(last);
      if (m && this.lastStepWasButton) {
        this.extra[this.extra.length - 1] = `step n=${Number(m[1]) + ran}`;
      } else {
        this.extra.push(`step n=${ran}`);
      }
      this.lastStepWasButton = true;
      this.afterRun();
      this.refresh();
      this.announceEvent();
      this.updateURL();
    }

    stepBack() {
      if (this.pos > 0) {
        this.seekTo(this.pos - 1, true);
      }
    }

    /** seekTo shows the state right after event n. */
    seekTo(n, speak) {
      if (!this.id_ || this.busy) {
        return;
      }
      n = Math.max(0, Math.min(n, this.end));
      try {
        this.engine.seek(this.id_, n);
      } catch (e) {
        this.showProblem("Cannot go there", e.message);
        return;
      }
      this.afterRun();
      this.lastStepWasButton = false;
      this.refresh();
      if (speak) {
        this.announceEvent();
      }
      this.updateURL();
    }

    play() {
      if (this.playing || !this.id_) {
        return;
      }
      if (this.pos >= this.end) {
        this.seekTo(0, false);
      }
      this.playing = true;
      this.el.play.setAttribute("aria-pressed", "true");
      setText(this.el.playLabel, "Pause");
      this.el.play.querySelector(".icon").textContent = "❚❚";
      let last = performance.now();
      const tick = () => {
        if (!this.playing) {
          return;
        }
        const now = performance.now();
        const speed = Number(this.el.speed.value);
        const n = Math.max(1, Math.round(((now - last) / 1000) * speed));
        last = now;
        if (this.pos >= this.end) {
          this.pause();
          this.announce(`End of the timeline. ${this.positionText()}`);
          return;
        }
        const t0 = performance.now();
        this.seekTo(Math.min(this.pos + n, this.end), false);
        const cost = performance.now() - t0;
        const interval = Math.max(1000 / Math.min(speed, 30), cost * 1.5);
        this.timer = setTimeout(tick, interval);
      };
      this.timer = setTimeout(tick, 1000 / Math.min(Number(this.el.speed.value), 30));
    }

    pause() {
      if (!this.playing) {
        return;
      }
      this.playing = false;
      clearTimeout(this.timer);
      this.el.play.setAttribute("aria-pressed", "false");
      setText(this.el.playLabel, "Play");
      this.el.play.querySelector(".icon").textContent = "▶";
      this.announceEvent();
    }

    async reset() {
      this.pause();
      if (this.busy) {
        return;
      }
      if (this.engine && this.id_) {
        this.engine.destroy(this.id_);
      }
      this.id_ = 0;
      this.extra = [];
      this.entries = [];
      this.el.log.replaceChildren();
      this.hideProblem();
      this.snap = null;
      await this.runSource(this.source);
      this.announce(`Reset. ${this.positionText()}`);
      this.updateURL();
    }

    setView(v) {
      this.view = v;
      const table = v === "table";
      this.el.diagram.hidden = table;
      this.el.tables.hidden = !table;
      this.el.viewBtn.setAttribute("aria-pressed", String(table));
      if (this.snap) {
        this.render();
      }
    }

    /** shareScript is every line that made the current state. */
    shareScript() {
      const src = this.source.replace(/\n+$/, "");
      return this.extra.length ? `${src}\n${this.extra.join("\n")}` : src;
    }

    async shareURL() {
      const hash = await new ShareState(this.shareScript(), this.pos, this.view === "diagram" ? null : this.view).encode();
      const target = this.fromURL ? new URL(location.href) : new URL(this.getAttribute("share-to") || "playground/", base);
      target.hash = hash;
      return target.href;
    }

    /** updateURL keeps the page address in step with a full-page widget. */
    updateURL() {
      if (!this.fromURL || this.busy) {
        return;
      }
      clearTimeout(this.urlTimer);
      this.urlTimer = setTimeout(async () => {
        try {
          const url = await this.shareURL();
          this.writtenHash = new URL(url).hash;
          history.replaceState(history.state, "", url);
        } catch {
          // the address stays as it was; the share button still works
        }
      }, 300);
    }

    async share() {
      let url;
      try {
        url = await this.shareURL();
      } catch (e) {
        setText(this.el.shareNote, `Cannot make a link: ${e.message}`);
        return;
      }
      this.el.shareBox.hidden = false;
      this.el.shareURL.value = url;
      this.el.shareURL.select();
      let copied = false;
      try {
        await navigator.clipboard.writeText(url);
        copied = true;
      } catch {
        copied = false;
      }
      const msg = copied ? `Link copied (${url.length} characters).` : "Copy the link from the box.";
      setText(this.el.shareNote, msg);
      this.announce(msg);
    }

    // -------------------------------------------------------------------
    // Building the shadow DOM.

    build() {
      const el = (this.el = {});
      const uid = Math.random().toString(36).slice(2, 8);
      el.title = h("h2.title", { id: `t-${uid}`, text: this.titleText || "Scenario" });
      el.clock = h("span.clock", { "data-role": "clock" });
      el.problem = h("div.problem", { role: "alert", hidden: true }, h("strong"), h("span"));
      el.status = h("p.status", { role: "status" });

      // The node, drawn.
      el.sched = h("div.sched", { "data-role": "schedulers" });
      el.memory = h("div.memory", { "data-role": "memory" });
      el.columns = COLUMNS.map((c) =>
        h(`section.col.col-${c.kind}`, { "aria-label": c.title }, h("h3", { text: c.title, title: c.help }), h("div.boxes", { "data-kind": c.kind })),
      );
      el.other = h("section.col.col-other", { "aria-label": "Other processes", hidden: true }, h("h3", { text: "Other" }), h("div.boxes"));
      el.empty = h("p.empty", { text: "No processes yet: type a command below." });
      el.diagram = h(
        "div.diagram",
        { "data-role": "diagram", role: "group", "aria-label": "Node diagram (the table view has the same as text)" },
        h("div.nodebar", null, el.sched, el.memory),
        el.empty,
        h("div.flow", null, el.columns, el.other),
      );
      el.tables = h("div.tables", { "data-role": "tables", hidden: true });

      // Controls.
      const btn = (cls, icon, label, key, on) =>
        h(`button.${cls}`, { type: "button", "aria-keyshortcuts": key || null, title: key ? `${label} (${key})` : label, onclick: on }, h("span.icon", { "aria-hidden": "true", text: icon }), h("span.label", { text: label }));
      el.reset = btn("reset", "⟲", "Reset", "", () => this.reset());
      el.back = btn("back", "◀", "Back", "ArrowLeft", () => this.stepBack());
      el.play = btn("play", "▶", "Play", "Space", () => (this.playing ? this.pause() : this.play()));
      el.play.setAttribute("aria-pressed", "false");
      el.playLabel = el.play.querySelector(".label");
      el.step = btn("step", "▶|", "Step", "ArrowRight", () => this.stepForward());
      el.speed = h(
        "select.speed",
        { id: `s-${uid}`, onchange: () => this.playing && (this.pause(), this.play()) },
        SPEEDS.map((s) => h("option", { value: s, text: `${s} events/s`, selected: s === 10 })),
      );
      const sp = this.getAttribute("speed");
      if (sp && /^\d+$/.test(sp)) {
        const v = Number(sp);
        if (!SPEEDS.includes(v)) {
          el.speed.append(h("option", { value: v, text: `${v} events/s` }));
        }
        el.speed.value = String(v);
      }
      el.timeline = h("input.timeline", {
        type: "range",
        min: 0,
        max: 0,
        value: 0,
        step: 1,
        id: `r-${uid}`,
        "aria-label": "Timeline: event number",
        oninput: () => this.scrub(),
        onchange: () => this.scrub(),
      });
      el.viewBtn = h("button.view", { type: "button", "aria-pressed": "false", onclick: () => this.setView(this.view === "table" ? "diagram" : "table") }, "Table view");
      el.shareBtn = h("button.share", { type: "button", onclick: () => this.share() }, "Share link");
      el.shareURL = h("input.share-url", { type: "text", readonly: true, "aria-label": "Share link", id: `u-${uid}` });
      el.shareNote = h("span.share-note", { "aria-live": "polite" });
      el.shareBox = h("div.sharebox", { hidden: true }, el.shareURL, el.shareNote);
      el.controls = h(
        "div.controls",
        { role: "toolbar", "aria-label": "Simulation controls" },
        h("div.buttons", null, el.reset, el.back, el.play, el.step, h("label.speed-label", { for: `s-${uid}` }, h("span.sr-only", { text: "Speed" }), el.speed)),
        h("div.scrub", null, el.timeline, el.clock),
        h("div.views", null, el.viewBtn, el.shareBtn),
      );

      // What just happened.
      el.events = h("ol.events", { "data-role": "events", "aria-label": "Latest events" });
      el.idle = h("p.idle");

      // The console.
      el.log = h("div.log", { role: "log", "aria-label": "Console output", "data-role": "console", "data-keys": "native", tabindex: "0" });
      el.input = h("input.cmd", {
        type: "text",
        id: `c-${uid}`,
        autocomplete: "off",
        autocapitalize: "off",
        spellcheck: "false",
        "aria-describedby": `ch-${uid}`,
        placeholder: "queue.declare queue=q",
        onkeydown: (e) => this.consoleKey(e),
      });
      el.hint = h("p.hint", { id: `ch-${uid}`, text: "Enter runs the command. Tab completes, ↑ and ↓ go through history." });
      el.stepMode = h("input", { type: "checkbox", id: `m-${uid}`, onchange: () => (this.stepMode = el.stepMode.checked) });
      const consoleEl = h(
        "section.console",
        { "aria-label": "Console" },
        el.log,
        h(
          "form.prompt",
          { onsubmit: (e) => (e.preventDefault(), this.typed(el.input.value), (el.input.value = ""), this.clearCompletion()) },
          h("label.sr-only", { for: `c-${uid}`, text: "Command" }),
          h("span.ps", { "aria-hidden": "true", text: "›" }),
          el.input,
          h("button.run", { type: "submit" }, "Run"),
        ),
        el.hint,
        h("p.mode", null, el.stepMode, h("label", { for: `m-${uid}`, text: " Hand client commands to the node without running them (then step)" })),
      );

      el.live = h("div.sr-only", { "aria-live": "polite", "aria-atomic": "true", "data-role": "announce" });
      el.section = h(
        "section.w",
        { "aria-labelledby": `t-${uid}`, onkeydown: (e) => this.shortcut(e) },
        h("header.head", null, el.title, h("span.keys", { text: "Space plays, ← → step" })),
        el.problem,
        el.status,
        h("div.main", null, h("div.stage", { tabindex: "0", role: "group", "aria-label": "Simulation: Space plays or pauses, arrows step" }, el.diagram, el.tables), h("aside.side", null, h("h3", { text: "Events" }), el.events, el.idle)),
        el.controls,
        el.shareBox,
        consoleEl,
        el.live,
      );
      if (!this.titleText) {
        el.title.classList.add("sr-only");
      }
      this.root.replaceChildren(el.section);
      this.setControlsEnabled(false);
    }

    setControlsEnabled(on) {
      for (const b of [this.el.reset, this.el.back, this.el.play, this.el.step, this.el.timeline, this.el.input, this.el.shareBtn]) {
        b.disabled = !on;
      }
    }

    status(text) {
      setText(this.el.status, text);
      this.el.status.hidden = !text;
    }

    showProblem(title, detail) {
      this.el.problem.hidden = false;
      setText(this.el.problem.firstChild, title + ": ");
      setText(this.el.problem.lastChild, detail);
    }

    hideProblem() {
      this.el.problem.hidden = true;
    }

    fail(what, e) {
      const msg = e && e.message ? e.message : String(e);
      if (this.el) {
        this.showProblem(what, msg);
        this.status("");
      } else {
        this.root.textContent = `${what}: ${msg}`;
      }
      this.resolveReady();
    }

    /** scrub follows the timeline slider: one seek a frame at most, to
     * where the slider is by then (a seek in a long run takes a while). */
    scrub() {
      this.pause();
      if (this.scrubFrame) {
        return;
      }
      this.scrubFrame = requestAnimationFrame(() => {
        this.scrubFrame = 0;
        const n = Number(this.el.timeline.value);
        if (n !== this.pos) {
          this.seekTo(n, false);
        }
        clearTimeout(this.announceTimer);
        this.announceTimer = setTimeout(() => this.announceEvent(), 400);
      });
    }

    shortcut(e) {
      const t = e.composedPath()[0];
      const tag = t && t.tagName;
      if (tag === "INPUT" || tag === "SELECT" || tag === "TEXTAREA" || e.altKey || e.ctrlKey || e.metaKey) {
        return;
      }
      if (t.closest && t.closest("[data-keys=native]") && e.key !== " ") {
        return; // a scrolling region keeps its arrows, Home and End
      }
      if (e.key === " " && tag !== "BUTTON") {
        e.preventDefault();
        this.playing ? this.pause() : this.play();
      } else if (e.key === "ArrowRight") {
        e.preventDefault();
        this.pause();
        this.stepForward();
      } else if (e.key === "ArrowLeft") {
        e.preventDefault();
        this.pause();
        this.stepBack();
      } else if (e.key === "Home") {
        e.preventDefault();
        this.pause();
        this.seekTo(0, true);
      } else if (e.key === "End") {
        e.preventDefault();
        this.pause();
        this.seekTo(this.end, true);
      }
    }

    // -------------------------------------------------------------------
    // The console.

    addEntry(entry) {
      const e = h("div.entry");
      const cmd = h("button.cmdline", { type: "button", title: "Go to the end of this command on the timeline" }, h("span.ps", { "aria-hidden": "true", text: "› " }), entry.cmd);
      if (entry.to !== undefined) {
        cmd.addEventListener("click", () => {
          this.pause();
          this.seekTo(entry.to, true);
        });
      } else {
        cmd.disabled = true;
      }
      entry.cmdEl = cmd;
      e.append(cmd);
      const shown = entry.lines.slice(0, MAX_OUTPUT_LINES);
      for (const l of shown) {
        e.append(h(l.startsWith("error: ") ? "div.out.err" : entry.note ? "div.out.note" : "div.out", { text: l }));
      }
      if (entry.lines.length > shown.length) {
        e.append(h("div.out.more", { text: `… ${entry.lines.length - shown.length} more lines` }));
      }
      this.entries.push(entry);
      this.el.log.append(e);
      while (this.el.log.childElementCount > MAX_CONSOLE_ENTRIES) {
        this.el.log.firstElementChild.remove();
        this.entries.shift();
      }
      this.el.log.scrollTop = this.el.log.scrollHeight;
    }

    consoleKey(e) {
      const input = this.el.input;
      if (e.key === "ArrowUp" && this.history.length) {
        e.preventDefault();
        this.historyAt = Math.max(0, this.historyAt - 1);
        input.value = this.history[this.historyAt];
      } else if (e.key === "ArrowDown" && this.history.length) {
        e.preventDefault();
        this.historyAt = Math.min(this.history.length, this.historyAt + 1);
        input.value = this.historyAt < this.history.length ? this.history[this.historyAt] : "";
      } else if (e.key === "Tab" && !e.shiftKey && input.value.trim() !== "") {
        if (this.complete()) {
          e.preventDefault();
        }
      } else if (e.key === "Escape") {
        this.clearCompletion();
      }
    }

    clearCompletion() {
      setText(this.el.hint, "Enter runs the command. Tab completes, ↑ and ↓ go through history.");
    }

    /** complete extends the word before the cursor; true if it did anything. */
    complete() {
      const input = this.el.input;
      const cur = input.selectionStart ?? input.value.length;
      const before = input.value.slice(0, cur);
      const wordStart = before.search(/\S*$/);
      const word = before.slice(wordStart);
      const words = before.trimStart().split(/\s+/);
      if (words[0] === "submit" && words.length > 1) {
        words.shift(); // complete the command it hands over
      }
      let options;
      if (words.length <= 1) {
        options = this.engine.names;
      } else {
        const u = this.engine.usage(words[0]);
        if (!u) {
          setText(this.el.hint, `Unknown command ${words[0]}: Tab completes command names first.`);
          return true;
        }
        const key = word.split("=")[0];
        if (word.includes("=")) {
          const p = u.params.find((p) => p.key === key);
          const values = p && p.values ? p.values : p && p.kind === "bool" ? ["true", "false"] : [];
          options = values.map((v) => `${key}=${v}`);
          if (!options.length) {
            setText(this.el.hint, p ? `${key}: ${p.kind}. ${u.usage}` : u.usage);
            return true;
          }
        } else {
          const used = new Set(words.slice(1, -1).map((w) => w.split("=")[0]));
          options = u.params.filter((p) => !used.has(p.key)).map((p) => (p.kind === "flag" ? p.key : `${p.key}=`));
          if (u.words) {
            options.push(...u.words.filter((w) => !used.has(w)));
          }
        }
      }
      const matches = options.filter((o) => o.startsWith(word));
      if (!matches.length) {
        const u = words.length > 1 ? this.engine.usage(words[0]) : null;
        setText(this.el.hint, u ? `No match. ${u.usage}` : "No command starts like that.");
        return true;
      }
      let common = matches[0];
      for (const m of matches) {
        while (!m.startsWith(common)) {
          common = common.slice(0, -1);
        }
      }
      let insert = common;
      if (matches.length === 1 && !insert.endsWith("=")) {
        insert += " ";
      }
      input.value = before.slice(0, wordStart) + insert + input.value.slice(cur);
      const at = wordStart + insert.length;
      input.setSelectionRange(at, at);
      if (matches.length > 1) {
        setText(this.el.hint, matches.slice(0, 12).join("  ") + (matches.length > 12 ? "  …" : ""));
      } else {
        const u = this.engine.usage(words.length <= 1 ? matches[0] : words[0]);
        setText(this.el.hint, u ? u.usage : "");
      }
      return true;
    }

    // -------------------------------------------------------------------
    // Drawing.

    refresh() {
      if (!this.id_) {
        return;
      }
      try {
        this.snap = this.engine.snapshot(this.id_);
      } catch (e) {
        this.showProblem("The simulation stopped", e.message);
        return;
      }
      this.pos = this.snap.events;
      this.end = this.snap.furthest;
      this.render();
    }

    positionText() {
      return `Event ${this.pos} of ${this.end}, t=${formatTime(this.snap ? this.snap.time : 0)}.`;
    }

    render() {
      const s = this.snap;
      const el = this.el;
      el.timeline.max = String(this.end);
      el.timeline.value = String(this.pos);
      el.timeline.setAttribute("aria-valuetext", `event ${this.pos} of ${this.end}`);
      setText(el.clock, `event ${this.pos} / ${this.end} · t=${formatTime(s.time)}`);
      el.back.disabled = this.busy || this.pos === 0;
      if (this.pos < this.end || this.playing) {
        setText(el.idle, "");
      }
      for (const e of this.entries) {
        if (e.cmdEl) {
          e.cmdEl.parentElement.classList.toggle("future", e.at >= this.pos && this.pos < this.end);
        }
      }
      this.renderEvents();
      if (this.view === "table") {
        this.renderTables(s);
      } else {
        this.renderDiagram(s);
      }
    }

    renderEvents() {
      let evs = [];
      if (this.pos > 0) {
        try {
          evs = this.engine.events(this.id_, Math.max(1, this.pos - EVENT_LIST + 1), this.pos);
        } catch {
          evs = [];
        }
      }
      this.lastEvent = evs.length ? evs[evs.length - 1].text : "";
      const items = evs.map((e, i) => h(i === evs.length - 1 ? "li.now" : "li", { text: e.text, "aria-current": i === evs.length - 1 ? "step" : null }));
      if (!items.length) {
        items.push(h("li.none", { text: "No events yet." }));
      }
      this.el.events.replaceChildren(...items);
    }

    announceEvent() {
      this.announce(`${this.positionText()} ${this.lastEvent ? this.lastEvent.replace(/^#\d+ t=\S+ /, "") : ""}`);
    }

    announce(text) {
      // Re-setting the same text is not announced again: clear it first.
      this.el.live.textContent = "";
      requestAnimationFrame(() => (this.el.live.textContent = text));
    }

    renderDiagram(s) {
      const el = this.el;
      // The node: schedulers and memory.
      el.sched.replaceChildren(
        h("h3", { text: `Schedulers (${s.schedulers.length})` }),
        ...s.schedulers.map((sc, i) => {
          const p = pct(sc.util, 1);
          const running = sc.running ? this.procName(sc.running) : "idle";
          return h(
            "div.meter-row",
            null,
            h("span.k", { text: `S${i + 1}` }),
            h("div.gauge", { role: "meter", "aria-valuemin": 0, "aria-valuemax": 100, "aria-valuenow": p.toFixed(0), "aria-label": `scheduler ${i + 1} utilisation` }, h("div.fill", { style: `width:${p}%` })),
            h("span.v", { text: `${p.toFixed(1)}% · ${running}` }),
          );
        }),
      );
      const alarm = s.alarms && s.alarms.length;
      const memBits = [h("h3", { text: "Memory" })];
      if (s.watermark > 0) {
        const p = pct(s.memory, s.watermark);
        memBits.push(
          h(
            "div.meter-row",
            null,
            h("div.gauge" + (alarm ? ".alarm" : p > 80 ? ".high" : ""), { role: "meter", "aria-valuemin": 0, "aria-valuemax": s.watermark, "aria-valuenow": s.memory, "aria-label": "memory used against the high watermark" }, h("div.fill", { style: `width:${p}%` })),
            h("span.v", { text: `${formatBytes(s.memory)} of ${formatBytes(s.watermark)} watermark` }),
          ),
        );
      } else {
        memBits.push(h("p.v", { text: `${formatBytes(s.memory)} used · no watermark set` }));
      }
      memBits.push(alarm ? h("p.badge.alarm", { text: `Alarm: ${s.alarms.join(", ")} (publishers blocked)` }) : h("p.badge.ok", { text: "No alarm" }));
      el.memory.replaceChildren(...memBits);

      // The processes, in columns.
      const queues = new Map(s.queues.map((q) => [q.pid, q]));
      const creditFrom = new Map();
      for (const c of s.credit || []) {
        if (!creditFrom.has(c.from)) {
          creditFrom.set(c.from, []);
        }
        creditFrom.get(c.from).push(c);
      }
      const seen = new Set();
      const byColumn = new Map(COLUMNS.map((c) => [c.kind, []]));
      const other = [];
      for (const p of s.processes) {
        seen.add(p.pid);
        const box = this.box(p, queues.get(p.pid), creditFrom.get(p.pid) || []);
        (byColumn.get(p.kind) || other).push(box);
      }
      for (const [pid, box] of this.boxes) {
        if (!seen.has(pid)) {
          box.remove();
          this.boxes.delete(pid);
        }
      }
      for (const k of this.chipBoxes ? this.chipBoxes.keys() : []) {
        if (!seen.has(Number(k.split("/")[0]))) {
          this.chipBoxes.delete(k);
        }
      }
      el.columns.forEach((col, i) => {
        const list = byColumn.get(COLUMNS[i].kind);
        syncChildren(col.querySelector(".boxes"), list);
        col.hidden = list.length === 0;
      });
      syncChildren(el.other.querySelector(".boxes"), other);
      el.other.hidden = other.length === 0;
      el.empty.hidden = s.processes.length > 0;
    }

    /** laneChips keeps one chip container per queue lane (or consumer)
     * across renders. */
    laneChips(pid, key) {
      if (!this.chipBoxes) {
        this.chipBoxes = new Map();
      }
      const k = `${pid}/${key}`;
      let box = this.chipBoxes.get(k);
      if (!box) {
        box = h("div.msgs");
        this.chipBoxes.set(k, box);
      }
      return box;
    }

    procName(pid) {
      const p = this.snap.processes.find((p) => p.pid === pid);
      return p ? p.name : `pid ${pid}`;
    }

    /** box updates (or makes) the drawing of one process. */
    box(p, q, credits) {
      let b = this.boxes.get(p.pid);
      if (!b) {
        b = h(
          `article.proc.kind-${p.kind}`,
          { "data-pid": p.pid, "data-name": p.name },
          h("header", null, h("h4.name"), h("span.state")),
          h("div.mailbox", null, h("span.k", { text: "mailbox" }), h("span.len"), h("div.chips")),
          h("div.socket", { hidden: true }),
          h("div.queue-body"),
          h("div.credits"),
        );
        this.boxes.set(p.pid, b);
      }
      b.className = `proc kind-${p.kind} state-${p.state}${p.blocked ? " blocked" : ""}`;
      setText(b.querySelector(".name"), p.name);
      setText(b.querySelector(".state"), p.blocked ? `${p.state} · flow` : p.state);
      b.querySelector(".state").title = p.blocked ? "flow: the reader is not reading its socket (credit ran out)" : `state: ${p.state}`;
      setText(b.querySelector(".len"), String(p.mailbox));
      b.querySelector(".mailbox").setAttribute("data-len", p.mailbox);
      const chips = (p.head || []).map((k) => ({ cls: "chip", text: k, style: `--h:${kindHue(k)}` }));
      if (p.mailbox > chips.length) {
        chips.push({ cls: "chip more", text: `+${p.mailbox - chips.length}` });
      }
      if (!chips.length) {
        chips.push({ cls: "empty-chips", text: "empty" });
      }
      syncChips(b.querySelector(".chips"), chips);
      const sock = b.querySelector(".socket");
      sock.hidden = !(p.kind === "reader");
      if (p.kind === "reader") {
        setText(sock, p.socket ? `socket: ${p.socket} frames unread${p.blocked ? " (not reading: flow)" : ""}` : "socket: nothing unread");
      }
      const qb = b.querySelector(".queue-body");
      qb.replaceChildren(...(q ? this.queueParts(q) : []));
      qb.hidden = !q;
      const cr = b.querySelector(".credits");
      cr.replaceChildren(
        ...credits.map((c) => {
          const pc = pct(c.credit, c.initial);
          return h(
            "div.credit" + (c.blocked ? ".blocked" : ""),
            { "data-to": this.procName(c.to) },
            h("span.k", { text: `credit → ${this.procName(c.to)}` }),
            h(
              "div.gauge",
              { role: "meter", "aria-valuemin": 0, "aria-valuemax": c.initial, "aria-valuenow": c.credit, "aria-label": `credit towards ${this.procName(c.to)}` },
              h("div.fill", { style: `width:${pc}%` }),
            ),
            h("span.v", { text: `${c.credit}/${c.initial}${c.blocked ? " blocked" : ""}` }),
          );
        }),
      );
      cr.hidden = credits.length === 0;
      return b;
    }

    /** queueParts draws a queue's priority lanes and consumers. */
    queueParts(q) {
      const parts = [];
      parts.push(
        h(
          "p.counts",
          null,
          h("span.ready", { "data-count": q.ready, text: `${q.ready} ready` }),
          " · ",
          h("span.unacked", { text: `${q.unacked} unacked` }),
          " · ",
          h("span", { text: formatBytes(q.bytes) }),
          q.policy ? h("span.policy", { text: ` · policy ${q.policy}` }) : null,
        ),
      );
      // Heads come next-first: the highest non-empty level first, FIFO
      // within a level; give each lane its share.
      const levels = q.levels && q.levels.length ? q.levels : [q.ready];
      const heads = (q.heads || []).slice();
      const lanes = [];
      for (let lvl = levels.length - 1; lvl >= 0; lvl--) {
        const n = levels[lvl];
        const mine = heads.splice(0, Math.min(n, heads.length));
        const label = levels.length > 1 ? `priority ${lvl}` : "messages";
        const chips = mine.map((body) => ({ cls: "msg", text: body.length > 10 ? body.slice(0, 9) + "…" : body, title: body }));
        if (n > mine.length) {
          chips.push({ cls: "msg more", text: `+${n - mine.length}` });
        }
        lanes.push(
          h(
            "div.lane" + (n ? "" : ".empty"),
            { "data-level": lvl },
            h("span.k", { text: label }),
            h("span.n", { text: String(n) }),
            syncChips(this.laneChips(q.pid, lvl), chips),
          ),
        );
      }
      parts.push(h("div.lanes", { "aria-label": "ready messages by priority, next to go first" }, lanes));
      if (q.consumers && q.consumers.length) {
        parts.push(
          h(
            "div.consumers",
            null,
            q.consumers.map((c) => {
              const limit = c.prefetch > 0 ? c.prefetch : null;
              const shown = Math.min(c.unacked, 20);
              const dots = Array.from({ length: shown }, () => ({ cls: "dot", text: "" }));
              if (c.unacked > shown) {
                dots.push({ cls: "dot-more", text: `+${c.unacked - shown}` });
              }
              return h(
                "div.consumer.state-" + c.state,
                { "data-tag": c.tag },
                h("span.k", { text: `consumer ${c.tag}` }),
                h("span.v", { text: `${c.unacked}/${limit ?? "∞"} unacked${c.noAck ? " (no-ack)" : ""} · ${c.state}` }),
                limit
                  ? h(
                      "div.gauge.prefetch",
                      { role: "meter", "aria-valuemin": 0, "aria-valuemax": limit, "aria-valuenow": c.unacked, "aria-label": `unacked of prefetch for ${c.tag}` },
                      h("div.fill", { style: `width:${pct(c.unacked, limit)}%` }),
                    )
                  : null,
                syncChips(this.laneChips(q.pid, "c:" + c.tag), dots, "dots"),
                h("span.via", { text: c.channel }),
              );
            }),
          ),
        );
      }
      return parts;
    }

    renderTables(s) {
      const table = (caption, head, rows) =>
        h(
          "div.table-scroll",
          { tabindex: "0", role: "region", "aria-label": caption, "data-keys": "native" },
          h(
            "table",
            null,
            h("caption", { text: caption }),
            h("thead", null, h("tr", null, head.map((c) => h("th", { scope: "col", text: c })))),
            h(
              "tbody",
              null,
              rows.length
                ? rows.map((r) => h("tr", null, r.map((c, i) => (i === 0 ? h("th", { scope: "row", text: String(c) }) : h("td", { text: String(c) })))))
                : h("tr", null, h("td", { colspan: head.length, text: "none" })),
            ),
          ),
        );
      const name = (pid) => this.procName(pid);
      const consumers = [];
      for (const q of s.queues) {
        for (const c of q.consumers || []) {
          consumers.push([c.tag, q.name, c.channel, `${c.unacked}/${c.prefetch > 0 ? c.prefetch : "unlimited"}`, c.state, c.noAck ? "yes" : "no"]);
        }
      }
      this.el.tables.replaceChildren(
        table(
          "Node",
          ["What", "Value"],
          [
            ["Time", formatTime(s.time)],
            ["Event", `${this.pos} of ${this.end}`],
            ...s.schedulers.map((sc, i) => [`Scheduler ${i + 1}`, `${(sc.util * 100).toFixed(1)}% busy, running ${sc.running ? name(sc.running) : "nothing"}`]),
            ["Memory", s.watermark > 0 ? `${formatBytes(s.memory)} of ${formatBytes(s.watermark)} watermark` : `${formatBytes(s.memory)}, no watermark`],
            ["Alarms", s.alarms && s.alarms.length ? s.alarms.join(", ") : "none"],
          ],
        ),
        table(
          "Processes",
          ["Process", "Kind", "State", "Mailbox", "Next in mailbox", "Socket", "Reductions"],
          s.processes.map((p) => [p.name, p.kind, p.blocked ? `${p.state}, flow (not reading)` : p.state, p.mailbox, (p.head || []).join(", ") || "empty", p.socket, p.reductions]),
        ),
        table(
          "Credit",
          ["From", "To", "Credit", "Blocked"],
          (s.credit || []).map((c) => [name(c.from), name(c.to), `${c.credit} of ${c.initial}`, c.blocked ? "yes" : "no"]),
        ),
        table(
          "Queues",
          ["Queue", "Ready", "Unacked", "By priority (highest first)", "Next messages", "Consumers"],
          s.queues.map((q) => [
            q.name,
            q.ready,
            q.unacked,
            q.levels && q.levels.length > 1 ? q.levels.map((n, l) => `${l}: ${n}`).reverse().join(", ") : "one level",
            (q.heads || []).join(", ") || "none",
            (q.consumers || []).length,
          ]),
        ),
        table("Consumers", ["Tag", "Queue", "Channel", "Unacked / prefetch", "State", "No-ack"], consumers),
      );
    }
  }

  /** syncChips makes the chips of a container match items ({cls, text,
   * title, style}), reusing the chips already there so that only new ones
   * play their entrance. */
  function syncChips(box, items, cls) {
    if (cls) {
      box.className = cls;
    }
    items.forEach((it, i) => {
      let c = box.children[i];
      if (!c) {
        c = box.appendChild(document.createElement("span"));
      }
      if (c.className !== it.cls) {
        c.className = it.cls;
      }
      setText(c, it.text);
      if ((c.getAttribute("title") || "") !== (it.title || it.text || "")) {
        c.title = it.title || it.text || "";
      }
      if ((c.getAttribute("style") || "") !== (it.style || "")) {
        it.style ? c.setAttribute("style", it.style) : c.removeAttribute("style");
      }
    });
    while (box.children.length > items.length) {
      box.lastElementChild.remove();
    }
    return box;
  }

  /** syncChildren makes parent's children exactly list, in order, moving
   * only what is out of place (so that transitions keep running). */
  function syncChildren(parent, list) {
    let i = 0;
    for (const want of list) {
      const at = parent.children[i];
      if (at !== want) {
        parent.insertBefore(want, at || null);
      }
      i++;
    }
    while (parent.children.length > list.length) {
      parent.lastElementChild.remove();
    }
  }

  customElements.define("warren-scenario", WarrenScenario);
})();
