// drawing.js: what <warren-scenario> (element.js) shows: its parts built
// into the shadow root, the state drawn in the view the reader chose, the
// problem box and status line, and what the live region says. These are
// methods of the element (element.js joins them to it): this is the
// widget.

import { Captions } from "./captions.js";
import { changes, mark, NONE } from "./changes.js";
import { clip, Console } from "./console.js";
import { Diagram } from "./diagram.js";
import { Editor } from "./editor.js";
import { h, setText } from "./dom.js";
import { formatTime } from "./format.js";
import { Rates } from "./rates.js";
import { ShareBox } from "./share.js";
import { Markers } from "./markers.js";
import { markDone } from "./progress.js";
import { FilesView } from "./files.js";
import { Goals } from "./goals.js";
import { engineSays, errorText, translator } from "./i18n.js";
import { renderTables } from "./tables.js";
import { Terms } from "./terms.js";
import { Guide } from "./guided.js";
import { EventList, Player } from "./timeline.js";

export class Drawing {
  /** build makes the widget's parts and puts them in the shadow root. */
  build() {
    const el = (this.el = {});
    const uid = Math.random().toString(36).slice(2, 8);
    el.title = h("h2.title", { id: `t-${uid}`, text: this.label });
    el.problem = h("div.problem", { role: "alert", hidden: true }, h("strong"), h("span"));
    el.status = h("p.status", { role: "status" });
    this.buildViews(uid);
    this.buildControls(uid);

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

  /** buildViews makes the views of the node: drawn, charted, its files
   * and as tables. */
  buildViews(uid) {
    this.terms = new Terms(uid, this.tr);
    this.diagram = new Diagram(this.tr, this.terms);
    this.rates = new Rates(this.tr);
    this.rates.el.hidden = true;
    this.files = new FilesView(
      this.tr,
      (fn) => this.act(fn),
      (script) => this.runScript(script),
    );
    this.el.tables = h("div.tables", { "data-role": "tables", hidden: true });
  }

  /** buildControls makes the toolbar: the player's buttons and scrubber,
   * the markers, guided playback, the views' buttons and Share. */
  buildControls(uid) {
    const el = this.el;
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
    const said = await this.goals.check(this.engine, this.id_, this.history.extra);
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
      await this.files.render(s, this.engine, this.id_, this.changed.entries, this.gen);
      this.markFiles();
    } else {
      this.diagram.render(s, this.changed, this.gen);
      this.travelled(evs);
    }
    this.drawnPos = this.pos;
  }

  /** travelled moves a token from sender to handler when the reader went
   * one event on (a step, or playing at 10 events a second or fewer): a
   * message seen going from the reader to the channel, the queue, the
   * writer. */
  travelled(evs) {
    const ev = evs[evs.length - 1];
    const slow = !this.player.playing || Number(this.player.speed.value) <= 10;
    if (!this.quiet && ev && ev.from && this.pos === this.drawnPos + 1 && ev.n === this.pos && slow) {
      this.diagram.travel(ev.from, ev.pid);
    }
  }

  /** markFiles marks the files that changed (the view marks the entries
   * as it draws them). */
  markFiles() {
    for (const li of this.files.el.querySelectorAll("li.file[data-path]")) {
      mark(li, this.changed.files.has(li.getAttribute("data-path")), this.gen);
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
