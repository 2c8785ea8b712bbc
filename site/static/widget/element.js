// element.js: <warren-scenario>, a live view of a simulated RabbitMQ node
// running a scenario script, with step, play, a timeline to scrub, a
// console in the command language and a link that reproduces the exact
// state. widget.js (the page's one script tag) imports this module and
// calls define with the base address of the widget's files.
//
// The element owns the history: the scenario as given (source), the lines
// the reader added since (extra, which a share link carries) and where on
// the timeline it is. Its parts draw and take input: Diagram, Rates and
// the tables show the node, Player and EventList the timeline, Console
// the commands, ShareBox the link.
//
// The engine runs in the page's one Web Worker (bridge-loader.js): every
// call to it is a message and a promise, so what the reader does goes
// through one queue per widget (act), in order, and idle() settles when
// the queue is empty. A widget runs its scenario when it comes near the
// viewport, or as soon as something asks for ready. When the worker dies
// the widget rebuilds its simulation from its script, at the event it was
// showing.
//
// A line "#@seek N" in a share script is the widget's own: the next
// command ran after seeking back to event N. "#@goal LINE" and
// "#@solution LINE" carry an exercise's goals and solution in a share link,
// "#@hint TEXT" its hints. "#@cut N": the next command stops after N
// events, where the time budget of one command in the browser stopped it
// when it first ran (how far a tab gets in that time depends on the
// computer; the cut does not). To the engine they are comments.

import { loadEngine, withOmitted } from "./bridge-loader.js";
import { Captions } from "./captions.js";
import { changes, mark, NONE } from "./changes.js";
import { clip, Console } from "./console.js";
import { Diagram } from "./diagram.js";
import { Editor } from "./editor.js";
import { h, setText } from "./dom.js";
import { formatTime } from "./format.js";
import { typedEntries, withCuts } from "./history.js";
import { Rates } from "./rates.js";
import { realTools } from "./realtools.js";
import { SampleSeries } from "./samples.js";
import { LinkError, said, ShareBox, ShareState, shareTarget, VIEWS } from "./share.js";
import { Markers } from "./markers.js";
import { markDone, showLessonProgress } from "./progress.js";
import { loadSheets } from "./sheet.js";
import { FilesView } from "./files.js";
import { Goals } from "./goals.js";
import { engineSays, errorText, langOf, translator } from "./i18n.js";
import { readSource } from "./source.js";
import { renderTables } from "./tables.js";
import { Terms } from "./terms.js";
import { watchScheme } from "./theme.js";
import { adviceFor } from "./policy.js";
import { Guide } from "./guided.js";
import { EventList, Player } from "./timeline.js";

/** WHOLE_COMMAND, given to exec as a command's cut with whole set, lets a
 * lesson's own line run as far as the engine's budget of one command
 * (engine.CommandEvents) whatever the time it takes: the browser's time
 * budget guards scripts from links and the console (a link's #@cut is
 * still under it), and a lesson cut short on a slow computer would teach
 * something else. */
const WHOLE_COMMAND = 3_000_000;

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
    this.source = ""; // the scenario as given
    this.extra = []; // lines added by what the reader did since
    this.cut = 0; // the next command's #@cut, if any
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

  async start() {
    // A title attribute would be a tooltip over the whole widget: keep
    // its text for the heading instead.
    this.titleText = this.getAttribute("title") || "";
    this.lang = langOf(this);
    this.tr = translator(this.lang);
    if (this.titleText) {
      this.removeAttribute("title");
      this.setAttribute("aria-label", this.titleText);
    }
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
      return;
    }
    await this.near;
    this.engine = await engine;
    this.watchRestarts();
    this.source = source;
    // a block of the site's own lessons, not a link's script: its lines
    // are not cut by the time budget (see WHOLE_COMMAND)
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
  }

  /** watchRestarts rebuilds the simulation when it was lost: its worker
   * died, or it waited behind another simulation's long command and was
   * moved to a new worker. */
  watchRestarts() {
    if (!this.unwatch) {
      this.unwatch = this.engine.onRestart((why) => this.act(() => this.rebuild(why)));
    }
  }

  /** rebuild makes the simulation again in a new worker: the script that
   * made it (a share link's), then a seek to the event it showed. The
   * command that was running when the worker died is left out. */
  rebuild(why) {
    return this.quietly(() => this.rebuildNow(why));
  }

  async rebuildNow(why) {
    if (!this.engine || (!(this.id_ && this.engine.isLost(this.id_)) && !this.hadLost)) {
      return; // this simulation is where it was
    }
    this.hadLost = false;
    const culprit = this.lostCommand;
    this.lostCommand = "";
    if (!this.isConnected) {
      return;
    }
    const wasRunning = this.player.playing;
    this.pause();
    const at = this.pos;
    // what replaying the history costs, and the old simulation forgotten
    // (if it is still in a worker, it is destroyed there)
    const cost = this.id_ ? this.engine.costOf(this.id_) : 0;
    if (this.id_) {
      this.engine.destroy(this.id_);
    }
    this.id_ = 0;
    this.snap = null;
    if (!this.ran) {
      if (culprit) {
        this.showProblem(this.tx("problem.stopped"), this.tx("problem.cannotRunHere", { culprit }));
        this.status("");
        this.resolveReady();
        return;
      }
      this.console.clear();
      this.hideProblem();
      this.captions.clear();
      this.guide.clear();
      await this.runSource(this.source);
      await this.openWhereAsked();
      this.started_();
      return;
    }
    this.busy = true;
    this.status(this.tx("status.rebuilding"));
    try {
      this.id_ = await this.engine.create(this.options(), cost);
      let cut = 0;
      for (const line of this.shareScript().split("\n").map((l) => l.trim())) {
        if (!line || (line.startsWith("#") && !line.startsWith("#@seek ") && !line.startsWith("#@cut "))) {
          continue;
        }
        if (line.startsWith("#@seek ")) {
          await this.engine.seek(this.id_, Number(line.slice(7).trim()));
        } else if (line.startsWith("#@cut ")) {
          cut = Number(line.slice(6).trim());
        } else {
          await this.engine.exec(this.id_, line, cut || (this.lesson ? WHOLE_COMMAND : 0), this.lesson);
          cut = 0;
        }
      }
      await this.position();
      await this.engine.seek(this.id_, Math.min(at, this.end));
    } finally {
      this.busy = false;
      this.status("");
    }
    this.setControlsEnabled(true);
    await this.refresh();
    if (culprit) {
      this.showProblem(this.tx("problem.stopped"), this.tx("problem.restarted", { culprit, pos: this.pos }));
    }
    const again = this.retries;
    this.retries = [];
    if (!culprit) {
      for (const fn of again) {
        await fn();
      }
    }
    if (wasRunning && !culprit) {
      this.play();
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
    const directive = (name) =>
      this.source
        .split("\n")
        .map((l) => l.trim())
        .filter((l) => l.startsWith(`#@${name} `))
        .map((l) => l.slice(name.length + 3).trim());
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

  /** runSource runs a script line by line, as share links replay. */
  async runSource(text) {
    this.busy = true;
    this.setControlsEnabled(false);
    try {
      if (!this.id_) {
        this.id_ = await this.engine.create(this.options());
      }
      try {
        await this.engine.parse(text.split("\n").filter((l) => !l.trimStart().startsWith("#@")).join("\n"));
      } catch (e) {
        if (e.lost) {
          throw e;
        }
        this.showProblem(this.tx("problem.mistake"), this.tx("problem.mistakeDetail", { error: errorText(e, this.lang, "parse") }));
      }
      await this.runLines(text);
      if (this.id_) {
        try {
          await this.captions.resolve((goal, from) => this.engine.firstEvent(this.id_, goal, from));
        } catch (e) {
          if (e.lost) {
            throw e;
          }
          this.showProblem(this.tx("problem.whenStopped"), this.tx("problem.whenStoppedDetail", { error: errorText(e, this.lang) }));
        }
      }
    } finally {
      this.busy = false;
      this.status("");
    }
    this.setControlsEnabled(true);
    await this.refresh();
    // only now: an action the engine's restarting interrupts once the
    // scenario has run is done again after the rebuild, which has run the
    // script itself; a first run interrupted in its refresh must not be
    // run a second time on the rebuilt simulation
    this.ran = true;
  }

  /** runLines runs the lines of a script, saying how far it is. */
  async runLines(text) {
    const lines = text.split("\n");
    const cuts = []; // [line index, events]: lines the time budget stopped
    let cutAt = -1; // the line of the #@cut the next command runs with
    let refused = 0;
    const parseFailed = !this.el.problem.hidden;
    for (let i = 0; i < lines.length; i++) {
      const line = lines[i].trim();
      if (!line || (line.startsWith("#") && !line.startsWith("#@"))) {
        continue;
      }
      if (lines.length > 20 && i % 5 === 0) {
        this.status(this.tx("status.running", { i: i + 1, n: lines.length }));
      }
      if (!this.id_) {
        return; // removed meanwhile
      }
      this.lastCut = 0;
      const ok = await this.runLine(line, i + 1);
      if (line.startsWith("#@cut ")) {
        cutAt = ok ? i : -1;
      } else if (!line.startsWith("#@")) {
        if (this.lastCut) {
          cuts.push([cutAt >= 0 ? cutAt : i, this.lastCut, cutAt >= 0]);
        }
        cutAt = -1;
      }
      if (!ok) {
        refused++;
        if (refused === 1 && !parseFailed && !this.hasAttribute("error-ok")) {
          this.showProblem(this.tx("problem.refused"), this.tx("problem.refusedDetail", { i: i + 1, line }));
        }
      }
    }
    if (cuts.length && text === this.source) {
      // the source carries its cuts, so that a share link replays them
      this.source = withCuts(lines, cuts).join("\n");
    }
  }

  /** runLine runs one line of a script; false when it was refused. */
  async runLine(line, lineNo) {
    if (line.startsWith("#@seek ")) {
      const n = Number(line.slice(7).trim());
      try {
        await this.engine.seek(this.id_, n);
      } catch (e) {
        if (e.lost) {
          throw e;
        }
        this.console.add({ cmd: line, lines: ["error: " + e.message], at: this.pos });
        return false;
      }
      await this.position();
      return true;
    }
    if (line.startsWith("#@cut ")) {
      const n = Number(line.slice(6).trim());
      if (!Number.isSafeInteger(n) || n < 1) {
        this.console.add({ cmd: line, lines: [`error: #@cut takes a number of events, not ${line.slice(6).trim()}`], at: this.pos });
        return false;
      }
      this.cut = n;
      return true;
    }
    if (line.startsWith("#@goal ") || line.startsWith("#@solution ") || line.startsWith("#@hint ")) {
      return true; // read by setGoals
    }
    const q = this.guide.directive(line, this.pos);
    if (typeof q === "string") {
      this.console.add({ cmd: line, lines: [`error: ${q}`], at: this.pos });
      return false;
    }
    if (q || this.captions.directive(line, this.pos)) {
      return true;
    }
    if (line.startsWith("#@")) {
      this.console.add({ cmd: line, lines: [`error: ${this.tx("console.unknownDirective", { name: line.split(" ")[0] })}`], at: this.pos });
      return false;
    }
    this.captions.command();
    return this.execLine(line, false, lineNo);
  }

  /** execLine runs one command until quiet and shows its lines. */
  async execLine(line, typed, lineNo) {
    const from = this.pos;
    const cut = this.cut;
    this.cut = 0;
    this.lastCut = 0;
    let lines;
    try {
      lines = await this.engine.exec(this.id_, line, cut || (this.lesson && !typed ? WHOLE_COMMAND : undefined), this.lesson && !typed);
    } catch (e) {
      if (e.lost) {
        this.console.add({ cmd: line, lines: ["error: " + e.message], at: from, typed });
        throw e;
      }
      lines = withOmitted({ lines: ["error: " + e.message], said: e.said ? [[0, { text: "error: " + e.message, key: "con.error", args: [e.said] }]] : [] });
    }
    const refused = lines.length > 0 && lines[0].startsWith("error: ");
    if (lines.cut && (!cut || lines.cut < cut)) {
      // the time budget stopped it, before the cut if it had one
      this.lastCut = lines.cut;
    }
    if (refused && lineNo && !/^error: line \d+/.test(lines[0])) {
      lines[0] = lines[0].replace(/^error: /, `error: line ${lineNo}, `);
      const s = lines.said && lines.said.get(0);
      if (s && s.key === "con.error") {
        lines.said.set(0, { text: lines[0], key: "con.error", args: [{ key: "con.line", args: [String(lineNo), s.args[0]] }] });
      }
    }
    await this.position();
    const held = !refused && !lines.length && /^submit\s/.test(line);
    this.console.add({ cmd: line, lines: held ? [this.tx("console.held")] : lines, at: from, to: this.end, typed, note: held });
    return !refused;
  }

  /** position reads where the simulation is: pos and end. */
  async position() {
    const snap = await this.engine.snapshot(this.id_);
    this.snap = snap;
    this.pos = snap.events;
    this.end = snap.furthest;
  }

  // -------------------------------------------------------------------
  // What the reader does.

  /** typed runs a command as if typed in the console. */
  typed(line) {
    line = line.trim();
    if (!line) {
      return Promise.resolve();
    }
    this.console.remember(line);
    this.pause();
    return this.act(async () => {
      this.lastStepWasButton = false;
      const from = this.pos;
      const end = this.end;
      // what a new history strikes out: the entries before this one's
      const earlier = [...this.console.entries];
      if (this.console.stepMode && /^[a-z]+\.[a-z]+(\s|$)/.test(line)) {
        line = `submit ${line}`; // a client command: its frames wait in the socket
      }
      // NB: a lost command (it throws) and a refused one change neither
      // the history nor the console's marks: the engine kept its history
      const ok = await this.execLine(line, true);
      if (ok && from < end) {
        this.console.markDropped(from, earlier);
      }
      this.extra.push(...typedEntries({ line, ok, pos: from, end, cut: this.lastCut }));
      await this.refresh();
      this.announce(ok ? this.tx("announce.ran", { line, where: this.positionText() }) : this.tx("announce.refused", { line }));
      this.updateURL();
    });
  }

  stepForward() {
    return this.act(() => this.doStep());
  }

  async doStep() {
    if (this.busy || !this.id_) {
      return;
    }
    if (this.pos < this.end) {
      await this.doSeek(this.pos + 1, true);
      return;
    }
    let ran = 0;
    try {
      ran = await this.engine.step(this.id_, 1);
    } catch (e) {
      if (e.lost) {
        throw e;
      }
      this.showProblem(this.tx("problem.stepFailed"), e);
      return;
    }
    if (ran === 0) {
      this.pause();
      this.announce(this.tx("announce.idle"));
      setText(this.el.idle, this.tx("status.idle"));
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
    await this.refresh();
    this.announceEvent();
    this.updateURL();
  }

  stepBack() {
    return this.act(async () => {
      if (this.pos > 0) {
        await this.doSeek(this.pos - 1, true);
      }
    });
  }

  /** seekTo shows the state right after event n. */
  seekTo(n, speak) {
    return this.act(() => this.doSeek(n, speak));
  }

  async doSeek(n, speak) {
    if (!this.id_ || this.busy) {
      return;
    }
    n = Math.max(0, Math.min(n, this.end));
    try {
      await this.engine.seek(this.id_, n);
    } catch (e) {
      if (e.lost) {
        throw e;
      }
      this.showProblem(this.tx("problem.cannotGo"), e);
      // a seek its budget stopped is at the event it reached
      await this.refresh();
      this.updateURL();
      return;
    }
    this.lastStepWasButton = false;
    await this.refresh();
    if (speak) {
      this.announceEvent();
    }
    this.updateURL();
  }

  play() {
    this.player.play();
  }

  pause() {
    if (this.player) {
      this.player.pause();
    }
  }

  /** reset runs the scenario again on a fresh node; said is what the
   * live region says then, before the position. */
  reset(said = null) {
    this.pause();
    return this.act(() => this.quietly(async () => {
      if (this.busy || !this.engine) {
        return;
      }
      if (this.id_) {
        this.engine.destroy(this.id_);
      }
      this.id_ = 0;
      this.extra = [];
      this.console.clear();
      this.hideProblem();
      this.snap = null;
      this.captions.clear();
      this.guide.clear();
      await this.runSource(this.source);
      const open = await this.openMoment();
      if (open !== null) {
        await this.doSeek(open, false);
      }
      this.announce(said ? `${said} ${this.positionText()}` : this.tx("announce.reset", { where: this.positionText() }));
      this.updateURL();
    }));
  }

  /** runScript runs a whole script from the top on a fresh node, as the
   * widget's scenario from now on (the editor's Run). */
  runScript(text) {
    this.source = text;
    this.lesson = false;
    this.setGoals();
    return this.reset(this.tr("editor.ran"));
  }

  /** typedLines runs a block of lines (pasted into the console) one by
   * one, as if each was typed. */
  async typedLines(lines) {
    for (const line of lines) {
      await this.typed(line);
    }
  }

  /** setView shows the diagram, the rates, the files or the tables. */
  setView(v) {
    this.view = v;
    if (v !== "table") {
      this.graphic = v;
    }
    this.diagram.el.hidden = v !== "diagram";
    this.rates.el.hidden = v !== "rates";
    this.files.el.hidden = v !== "files";
    this.el.tables.hidden = v !== "table";
    this.el.viewBtn.setAttribute("aria-pressed", String(v === "table"));
    this.el.ratesBtn.setAttribute("aria-pressed", String(v === "rates"));
    this.el.filesBtn.setAttribute("aria-pressed", String(v === "files"));
    this.showRealTools(v);
    if (this.snap) {
      return this.act(() => this.render());
    }
    return Promise.resolve();
  }

  /** showRealTools says what shows view v on a real node. */
  showRealTools(v) {
    const { commands, key } = realTools(v);
    const list = [];
    commands.forEach((c, i) => list.push(...(i ? [", "] : []), h("code", { text: c })));
    this.el.real.hidden = !commands.length;
    this.el.realText.replaceChildren(...list, " — ", this.tx(key));
  }

  /** shareScript is every line that made the current state, after an
   * exercise's goals and solution when they are not in it already. */
  shareScript() {
    let src = this.source.replace(/\n+$/, "");
    if (this.goals.goals.length && !/^\s*#@goal /m.test(src)) {
      const carried = [...this.goals.goals.map((g) => `#@goal ${g}`), ...this.goals.hints.map((x) => `#@hint ${x}`), ...this.goals.solution.map((c) => `#@solution ${c}`)];
      src = `${carried.join("\n")}\n${src}`;
    }
    return this.extra.length ? `${src}\n${this.extra.join("\n")}` : src;
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

  // -------------------------------------------------------------------
  // Building the shadow DOM.

  build() {
    const el = (this.el = {});
    const uid = Math.random().toString(36).slice(2, 8);
    el.title = h("h2.title", { id: `t-${uid}`, text: this.label });
    el.problem = h("div.problem", { role: "alert", hidden: true }, h("strong"), h("span"));
    el.status = h("p.status", { role: "status" });

    // The node, drawn, charted and as text.
    this.terms = new Terms(uid, this.tr);
    this.diagram = new Diagram(this.tr, this.terms);
    this.rates = new Rates(this.tr);
    this.rates.el.hidden = true;
    this.files = new FilesView(
      this.tr,
      (fn) => this.act(fn),
      (script) => this.runScript(script),
    );
    el.tables = h("div.tables", { "data-role": "tables", hidden: true });

    // Controls.
    this.markers = new Markers(this);
    this.player = new Player(uid, this, this.getAttribute("speed"));
    this.guide = new Guide(uid, this);
    el.ratesBtn = h("button.view-rates", { type: "button", "aria-pressed": "false", title: this.tx("view.ratesTitle"), onclick: () => this.setView(this.view === "rates" ? "diagram" : "rates") }, this.tx("view.rates"));
    el.filesBtn = h("button.view-files", { type: "button", "aria-pressed": "false", title: this.tx("view.filesTitle"), onclick: () => this.setView(this.view === "files" ? "diagram" : "files") }, this.tx("view.files"));
    el.viewBtn = h("button.view", { type: "button", "aria-pressed": "false", onclick: () => this.setView(this.view === "table" ? this.graphic : "table") }, this.tx("view.table"));
    this.shareBox = new ShareBox(uid, () => this.shareURL(), (text) => this.announce(text), this.tr);
    el.controls = h(
      "div.controls",
      { role: "toolbar", "aria-label": this.tx("widget.controls") },
      this.player.buttons,
      this.player.scrubber,
      this.markers.el,
      this.guide.nav,
      h("div.views", null, el.ratesBtn, el.filesBtn, el.viewBtn, this.shareBox.button),
    );

    // What just happened.
    this.events = new EventList(this.tr);
    this.captions = new Captions();
    el.idle = h("p.idle");
    el.realText = h("p");
    el.real = h("details.real", null, h("summary", { text: this.tx("real.title") }), el.realText);

    this.console = new Console(uid, this);
    this.editor = this.hasAttribute("editor") || this.getAttribute("layout") === "full" ? new Editor(uid, this) : null;
    this.goals = new Goals(uid, this.lang);

    el.live = h("div.sr-only", { "aria-live": "polite", "aria-atomic": "true", "data-role": "announce" });
    el.section = h(
      "section.w",
      { "aria-labelledby": `t-${uid}`, onkeydown: (e) => this.markers.shortcut(e) || this.guide.shortcut(e) || this.player.shortcut(e) },
      h("header.head", null, el.title, h("span.keys", { text: this.tx("widget.keys") })),
      el.problem,
      el.status,
      h(
        "div.main",
        null,
        h("div.stage", { tabindex: "0", role: "group", "aria-label": this.tx("widget.stage") }, this.diagram.el, this.rates.el, this.files.el, el.tables),
        h("aside.side", null, this.captions.el, this.guide.held, this.guide.panel, h("h3", { text: this.tx("events.title") }), this.events.el, el.idle),
      ),
      el.controls,
      el.real,
      this.shareBox.box,
      this.goals.el,
      this.editor ? h("div.workbench", null, this.console.el, this.editor.el) : this.console.el,
      el.live,
      this.terms.el,
    );
    this.terms.watch(el.section);
    if (!this.titleText) {
      el.title.classList.add("sr-only");
    }
    this.showRealTools(this.view);
    this.root.replaceChildren(el.section);
    this.setControlsEnabled(false);
  }

  setControlsEnabled(on) {
    this.player.setEnabled(on);
    this.console.setEnabled(on);
    if (this.editor) {
      this.editor.setEnabled(on);
    }
    this.shareBox.button.disabled = !on;
  }

  status(text) {
    setText(this.el.status, text);
    this.el.status.hidden = !text;
  }

  /** showProblem shows title and detail, a text or an error (said in the
   * reader's language when the engine gave it as data). */
  showProblem(title, detail) {
    this.el.problem.hidden = false;
    // cut as console lines are: a refused line quoted whole may be a
    // megabyte, which the page would take seconds to lay out
    const tr = this.tr || translator("en");
    setText(this.el.problem.firstChild, clip(title, tr) + ": ");
    setText(this.el.problem.lastChild, clip(errorText(detail, this.lang), tr)); // the engine's words too
  }

  hideProblem() {
    this.el.problem.hidden = true;
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

  // -------------------------------------------------------------------
  // Drawing.

  async refresh() {
    if (!this.id_) {
      return;
    }
    try {
      await this.position();
    } catch (e) {
      if (e.lost) {
        throw e;
      }
      this.showProblem(this.tx("problem.stopped"), e);
      return;
    }
    await this.render();
    if (this.editor) {
      this.editor.show(this.shareScript());
    }
    const said = await this.goals.check(this.engine, this.id_, this.extra);
    if (said && this.goals.allMet && /^(\/zh)?\/lessons\//.test(location.pathname) && this.titleText) {
      markDone(location.pathname, this.titleText);
    }
    if (said) {
      this.announce(said);
    }
  }

  positionText() {
    return this.tx("announce.position", { pos: this.pos, end: this.end, time: formatTime(this.snap ? this.snap.time : 0) });
  }

  /** render draws the state read last: what it needs besides the
   * snapshot (the latest events, the samples) it asks for first. */
  async render() {
    const s = this.snap;
    const evs = await this.events.fetch(this.engine, this.id_, this.pos);
    const samples = this.view === "table" || this.view === "rates" ? await this.samplesNow() : null;
    if (s !== this.snap) {
      return; // a newer state is being drawn
    }
    this.player.show(this.pos, this.end, s.time, this.busy);
    if (this.pos < this.end || this.player.playing) {
      setText(this.el.idle, "");
    }
    this.console.markFuture(this.pos, this.end);
    this.caption = this.captions.render(this.pos);
    this.guide.render(this.pos, this.player.playing);
    if (this.caption && this.player.playing) {
      this.announce(this.caption);
    }
    this.events.render(evs);
    this.markers.update(this.engine, this.id_, this.pos, this.end);
    if (s !== this.drawn) {
      this.changed = this.quiet || !this.drawn ? NONE : changes(this.drawn, s);
      this.drawn = s;
      this.gen++;
    }
    if (this.view === "table") {
      renderTables(this.el.tables, s, this.pos, this.end, samples, this.changed, this.tr, this.terms);
    } else if (this.view === "rates") {
      this.rates.render(s, samples);
    } else if (this.view === "files") {
      await this.files.render(s, this.engine, this.id_);
      this.markFiles();
    } else {
      this.diagram.render(s, this.changed, this.gen);
    }
  }

  /** markFiles marks the files, and the entries in them, that changed. */
  markFiles() {
    for (const li of this.files.el.querySelectorAll("li.file[data-path]")) {
      const path = li.getAttribute("data-path");
      mark(li, this.changed.files.has(path), this.gen);
      li.querySelectorAll(".strip .mark").forEach((m, i) => mark(m, this.changed.entries.has(`${path}#${i}`), this.gen));
    }
  }

  /** samplesNow is the metrics series up to the current virtual time:
   * after a seek back, none from later. */
  async samplesNow() {
    const t = this.snap.time;
    await this.samples.update(this.engine, this.id_);
    return this.samples.upTo(t);
  }

  /** announceEvent says the event shown in plain words (the event line
   * stays in the events list), with the caption that starts there. */
  async announceEvent() {
    const caption = this.caption ? ` ${this.caption}` : "";
    const where = this.positionText();
    let words = "";
    if (this.pos > 0 && this.engine && this.id_) {
      try {
        words = engineSays(await this.engine.narrate(this.id_), this.lang);
      } catch {
        words = "";
      }
    }
    this.announce(`${where}${words ? ` ${this.tx("announce.sentence", { s: words[0].toUpperCase() + words.slice(1) })}` : ""}${caption}`);
  }

  announce(text) {
    // What is said in one frame is said together.
    this.said = this.said ? `${this.said} ${text}` : text;
    if (this.saying) {
      return;
    }
    this.saying = true;
    // Re-setting the same text is not announced again: clear it first.
    this.el.live.textContent = "";
    requestAnimationFrame(() => {
      this.el.live.textContent = this.said;
      this.said = "";
      this.saying = false;
    });
  }
}
