// element.js: <warren-scenario>, a live view of a simulated RabbitMQ node
// running a scenario script, with step, play, a timeline to scrub, a
// console in the command language and a link that reproduces the exact
// state. widget.js (the page's one script tag) imports this module and
// calls define with the base address of the widget's files.
//
// The element owns the history (history.js): the scenario as given, the
// lines the reader added since (which a share link carries), and the
// widget's #@ directives among them; it reads where on the timeline it is
// from the engine. Its parts draw and take input: Diagram, Rates and the
// tables show the node, Player and EventList the timeline, Console the
// commands, ShareBox the link. This file starts the element and keeps it
// in step with the page and the link; running.js runs its script,
// playback.js does what the reader asks, drawing.js builds and draws the
// parts: their methods are the element's.
//
// The engine runs in the page's one Web Worker (bridge-loader.js): every
// call to it is a message and a promise, so what the reader does goes
// through one queue per widget (act), in order, and idle() settles when
// the queue is empty. A widget runs its scenario when it comes near the
// viewport, or as soon as something asks for ready. When the worker dies
// the widget rebuilds its simulation from its history, at the event it
// was showing.

import { loadEngine } from "./bridge-loader.js";
import { Drawing } from "./drawing.js";
import { h } from "./dom.js";
import { History } from "./history.js";
import { langOf, translator } from "./i18n.js";
import { Playback } from "./playback.js";
import { adviceFor } from "./policy.js";
import { showLessonProgress } from "./progress.js";
import { Running } from "./running.js";
import { SampleSeries } from "./samples.js";
import { LinkError, said, ShareState, shareTarget, VIEWS } from "./share.js";
import { loadSheets } from "./sheet.js";
import { readSource } from "./source.js";
import { watchScheme } from "./theme.js";
import { NONE } from "./changes.js";

/** base is where the site is (the scenarios, the playground), ending in
 * "/". */
let base = "/";

/** files is where the widget's own files are (warren.wasm, wasm_exec.js,
 * widget.css): base, or the built site's versioned folder (v/<hash>/),
 * ending in "/". */
let files = "/";

/** define registers <warren-scenario>; scenarios come from base, the
 * engine and style sheets from own (base when not given). */
export function define(from, own = from) {
  base = from;
  files = own;
  if (!customElements.get("warren-scenario")) {
    customElements.define("warren-scenario", WarrenScenario);
  }
  showLessonProgress(document);
}

class WarrenScenario extends HTMLElement {
  constructor() {
    super();
    this.root = this.attachShadow({ mode: "open" });
    this.started = false;
    this.id_ = 0; // the simulation's handle
    this.engine = null;
    this.history = new History();
    this.lastCut = 0; // the events of the last command the time budget stopped
    this.snap = null;
    this.pos = 0;
    this.end = 0;
    this.view = "diagram";
    this.graphic = "diagram"; // the drawn view the table view returns to
    this.samples = new SampleSeries();
    this.drawn = null; // the snapshot drawn last
    this.changed = NONE; // what changed since the one drawn before it
    this.gen = 0; // renders of a new state
    this.quiet = false; // opening or resetting: nothing is marked
    this.busy = false;
    this.ran = false; // the scenario has run once
    this.chain = Promise.resolve(); // what the reader asked for, in order
    this.retries = []; // what was asked while the simulation was being lost
    let resolve;
    this.readyPromise = new Promise((r) => (resolve = r));
    // NB: data-drawn ends the room widget.css keeps for the widget while
    // it starts, and shows what it drew meanwhile: nothing of the page or
    // of the widget moves under the reader until then.
    this.resolveReady = () => (this.setAttribute("data-drawn", ""), resolve());
    let wanted;
    this.near = new Promise((r) => (wanted = r));
    this.wanted = wanted;
  }

  /** ready settles when the scenario has run (or failed to). Asking for
   * it runs the scenario now, even far below the viewport. */
  get ready() {
    this.wanted();
    return this.readyPromise;
  }

  /** idle settles when everything asked of the widget so far is done. */
  async idle() {
    let p;
    let r;
    do {
      r = this.engine ? this.engine.restarting : null;
      if (this.engine) {
        await this.engine.settled(); // a restart queues a rebuild
      }
      p = this.chain;
      await p;
      // a worker that died under what was asked queues the rebuild once
      // the page has a worker again: wait for that too
    } while (p !== this.chain || (this.engine && this.engine.restarting !== r));
  }

  /** act queues fn after what was asked before; it settles with fn. An
   * error that is not the engine's restarting shows as a problem. */
  act(fn) {
    const p = this.chain.then(fn).catch((e) => {
      if (e && e.lost && !e.culprit && this.ran) {
        this.retries.push(fn); // done again once the simulation is rebuilt
      }
      return this.actionFailed(e);
    });
    this.chain = p;
    return p;
  }

  actionFailed(e) {
    if (e && e.lost) {
      this.hadLost = true; // the rebuild is this widget's
    }
    if (e && e.lost && !e.culprit) {
      return; // the engine restarted under it; the rebuild shows the state
    }
    if (e && e.culprit) {
      this.lostCommand = e.message;
      return; // the rebuild says what was lost
    }
    this.showProblem(this.tx("problem.stopped"), e && e.message ? e : String(e));
  }

  /** turn waits for a task of the widget's own in which to build its
   * parts: at once when it is near the viewport, else when the page is
   * idle. Every widget of a page gets its style sheets at the same moment:
   * building them all then would hold the main thread. */
  turn() {
    return new Promise((resolve) => {
      const go = () => setTimeout(resolve, 0);
      if (typeof requestIdleCallback !== "function") {
        go();
        return;
      }
      const idle = requestIdleCallback(resolve, { timeout: 2000 });
      this.near.then(() => {
        cancelIdleCallback(idle);
        go();
      });
    });
  }

  /** watchViewport resolves near when the widget comes within a screen
   * of the viewport. */
  watchViewport() {
    if (typeof IntersectionObserver !== "function") {
      this.wanted();
      return;
    }
    const io = new IntersectionObserver(
      (entries) => {
        if (entries.some((e) => e.isIntersecting)) {
          io.disconnect();
          this.wanted();
        }
      },
      { rootMargin: "100% 0px 100% 0px" },
    );
    io.observe(this);
    this.near.then(() => io.disconnect());
  }

  connectedCallback() {
    this.unscheme ||= watchScheme(this);
    if (this.id_ && this.engine) {
      return; // moved within the page
    }
    if (this.started && this.engine && !this.busy) {
      this.reset(); // removed, then put back
      return;
    }
    if (!this.started) {
      this.started = true;
      this.watchViewport();
      this.start().catch((e) => this.fail(this.tx("problem.cannotStart"), e));
    }
  }

  disconnectedCallback() {
    queueMicrotask(() => {
      if (!this.isConnected) {
        this.unscheme?.();
        this.unscheme = null;
        this.pause();
        if (this.engine && this.id_) {
          this.engine.destroy(this.id_);
          this.id_ = 0;
        }
        if (this.unwatch) {
          this.unwatch();
          this.unwatch = null;
        }
      }
    });
  }

  /** source is the scenario as given (history.source). */
  get source() {
    return this.history.source;
  }

  set source(text) {
    this.history.source = text;
  }

  /** fromURL: this widget reads its scenario from the page address. */
  get fromURL() {
    return this.hasAttribute("from-url") || this.getAttribute("layout") === "full";
  }

  /** tx is the text of key in the widget's language (English until the
   * widget knows it). */
  tx(key, params) {
    return (this.tr || translator(langOf(this)))(key, params);
  }

  get label() {
    return this.titleText || this.tx("widget.label");
  }

  /** start builds the widget, reads its script and runs it once. */
  async start() {
    this.takeAttributes();
    this.root.adoptedStyleSheets = await loadSheets(files);
    if (this.getAttribute("load") === "click") {
      await this.clickToLoad();
    }
    await this.turn();
    this.build();
    this.status(this.tx("status.loading"));
    if (this.fromURL) {
      addEventListener("hashchange", () => this.onHashChange());
    }
    const engine = loadEngine(files); // the first widget starts the worker
    engine.catch(() => {});
    let share = null;
    let source;
    try {
      ({ share, source } = await readSource(this, base));
    } catch (e) {
      await this.startEmpty(e, engine);
      return;
    }
    await this.near;
    this.engine = await engine;
    this.watchRestarts();
    this.source = source;
    // a block of the site's own lessons, not a link's script: its lines
    // are not cut by the time budget (see WHOLE_COMMAND, running.js)
    this.lesson = !share && this.hasAttribute("data-lesson");
    this.guide.setMode(this.lesson, this.getAttribute("guided"));
    this.setGoals();
    if (share && share.view) {
      this.setView(share.view);
    } else if (VIEWS.includes(this.getAttribute("view"))) {
      this.setView(this.getAttribute("view"));
    }
    this.startShare = share;
    await this.act(() => this.quietly(async () => {
      await this.runSource(source);
      await this.openWhereAsked();
    }));
    if (!this.ran) {
      return; // the engine restarted under the first run: the rebuild finishes it
    }
    this.started_();
  }

  /** takeAttributes reads the widget's language, and its title, which as
   * an attribute would be a tooltip over the whole widget: its text is
   * the heading's instead. */
  takeAttributes() {
    this.titleText = this.getAttribute("title") || "";
    this.lang = langOf(this);
    this.tr = translator(this.lang);
    if (this.titleText) {
      this.removeAttribute("title");
      this.setAttribute("aria-label", this.titleText);
    }
  }

  /** startEmpty says why the script could not be read (e), and starts
   * the widget on an empty node, where the reader may still type, when
   * the engine (a promise of it) loads. */
  async startEmpty(e, engine) {
    this.engine = await engine.catch(() => null);
    const title = e instanceof LinkError ? "problem.linkDamaged" : e && e.arrival ? "problem.changedOnArrival" : "problem.cannotLoad";
    this.showProblem(this.tx(title), said(e, this.tr));
    this.source = "";
    if (this.engine) {
      this.watchRestarts();
      await this.act(async () => {
        this.id_ = await this.engine.create(this.options());
        this.ran = true;
        await this.refresh();
      });
    }
    this.setControlsEnabled(!!this.engine);
    this.status("");
    this.resolveReady();
  }

  /** clickToLoad (load="click") shows the script and a Run button, and
   * settles when the reader presses it: nothing of the engine loads
   * before. */
  clickToLoad() {
    const from = this.querySelector(':scope > pre, :scope > script[type="text/warren"]') || this;
    return new Promise((resolve) => {
      const box = h(
        "div.click-to-load",
        null,
        h("pre.unrun", null, from.textContent.trim()),
        h("button.run-now", { type: "button", onclick: () => (box.remove(), this.wanted(), resolve()) }, this.tx("load.run")),
      );
      this.root.append(box);
    });
  }

  /** openWhereAsked goes, after the first run, to the event the share
   * link, the event attribute or the open attribute names. */
  async openWhereAsked() {
    const share = this.startShare;
    const at = share && share.event !== null ? share.event : this.attrEvent() ?? (await this.openMoment());
    if (at !== null) {
      await this.doSeek(Math.min(at, this.end), false);
      if (at > this.end) {
        this.showProblem(this.tx("problem.pastEnd"), this.tx("problem.pastEndDetail", { at, end: this.end }));
      }
    }
  }

  /** quietly runs fn with nothing marked as changed: the widget opens,
   * resets or is rebuilt, and shows a state as it is. */
  async quietly(fn) {
    this.quiet = true;
    try {
      return await fn();
    } finally {
      this.quiet = false;
    }
  }

  /** started_ ends the first run: autoplay, and ready. */
  started_() {
    if (this.attrEvent() === null && this.hasAttribute("autoplay") && !matchMedia("(prefers-reduced-motion: reduce)").matches && !/[#&]e=/.test(this.fromURL ? location.hash : "")) {
      this.act(() => this.doSeek(0, false)).then(() => this.play());
    }
    this.status("");
    this.resolveReady();
    this.startRest();
  }

  /** watchRestarts rebuilds the simulation when it was lost: its worker
   * died, or it waited behind another simulation's long command and was
   * moved to a new worker. */
  watchRestarts() {
    if (!this.unwatch) {
      this.unwatch = this.engine.onRestart((why) => this.act(() => this.rebuild(why)));
    }
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
      this.showProblem(this.tx("problem.linkDamaged"), said(e, this.tr));
      return;
    }
    if (!share) {
      return;
    }
    this.source = share.script;
    this.lesson = false;
    this.setGoals();
    await this.reset();
    await this.setView(share.view || "diagram");
    if (share.event !== null) {
      await this.seekTo(Math.min(share.event, this.end), true);
    }
  }

  /** setGoals makes the widget an exercise when its goals attribute, or
   * the #@goal lines of its scenario (a share link's), name goals. */
  setGoals() {
    const attr = (name) => (this.getAttribute(name) || "").split("\n").map((l) => l.trim()).filter((l) => l);
    const directive = (name) => this.history.directive(name);
    const fromAttr = attr("goals").length > 0;
    this.goals.set(fromAttr ? attr("goals") : directive("goal"), fromAttr ? attr("solution") : directive("solution"), fromAttr ? attr("hints") : directive("hint"));
  }

  /** openMoment is the event the open attribute names: start, a mark of
   * the script, the first event a #@when's goal holds at (found once the
   * script ran), or null for the end. */
  async openMoment() {
    const m = this.captions.moment(this.getAttribute("open") || "end");
    return m === null || m >= this.end ? null : m;
  }

  attrEvent() {
    const e = this.getAttribute("event");
    return e !== null && /^\d+$/.test(e) ? Number(e) : null;
  }

  options() {
    return {};
  }

  fail(what, e) {
    let msg = e && e.message ? e.message : String(e);
    // what the host's policy blocked, in the worker and in the page
    const blocked = [...((e && e.violations) || []), ...(globalThis[Symbol.for("warren.violations")] || [])];
    const more = adviceFor(blocked, new URL(base, location.href).origin, this.tr || translator(this.lang));
    if (more) {
      msg += `: ${more}`;
    }
    if (this.el) {
      this.showProblem(what, msg);
      this.status("");
    } else {
      this.root.textContent = `${what}: ${msg}`;
    }
    // the script as text, for the reader of a widget that cannot run it
    const script = this.source || this.textContent.trim();
    if (script && !this.root.querySelector("pre.unrun")) {
      this.root.append(h("pre.unrun", null, script));
    }
    this.resolveReady();
  }


  /** shareScript is every line that made the current state, after an
   * exercise's goals and solution when they are not in it already. */
  shareScript() {
    const g = this.goals;
    return this.history.script([...g.goals.map((x) => `#@goal ${x}`), ...g.hints.map((x) => `#@hint ${x}`), ...g.solution.map((x) => `#@solution ${x}`)]);
  }

  async shareURL() {
    const hash = await new ShareState(this.shareScript(), this.pos, this.view === "diagram" ? null : this.view).encode();
    const target = this.fromURL ? new URL(location.href) : shareTarget(this.getAttribute("share-to"), base, this.lang);
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

  share() {
    return this.shareBox.share();
  }
}

// The element's methods by idea, each part's file its own.
for (const part of [Running, Playback, Drawing]) {
  for (const [name, d] of Object.entries(Object.getOwnPropertyDescriptors(part.prototype))) {
    if (name !== "constructor") {
      Object.defineProperty(WarrenScenario.prototype, name, d);
    }
  }
}
