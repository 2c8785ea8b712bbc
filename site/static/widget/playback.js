// playback.js: what the reader does to <warren-scenario> (element.js):
// type a command, step, seek, play, reset, run an edited script, change
// the view. Each goes through the widget's queue (act) and leaves the
// history (history.js) as a share link replays it. These are methods of
// the element (element.js joins them to it): this is the widget.

import { h, setText } from "./dom.js";
import { realTools } from "./realtools.js";

/** STORY_GAP is how far ahead (µs of the node's time) the next event may
 * be for a Step at the end of the timeline to run it at once: past it,
 * the scenario's story has ended (what is left is a timer such as the
 * consumer timeout, half an hour on), and the widget says so first. */
export const STORY_GAP = 60_000_000;

export class Playback {
  /** typed runs a command as if typed in the console. */
  typed(line) {
    line = line.trim();
    if (!line) {
      return Promise.resolve();
    }
    this.console.remember(line);
    this.pause();
    return this.act(async () => {
      this.stopRest(); // the rest of the script is not run after the reader's own
      this.history.moved();
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
      this.history.typed({ line, ok, pos: from, end, cut: this.lastCut });
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
    await this.moreToCome();
    if (this.pos < this.end) {
      await this.doSeek(this.pos + 1, true);
      return;
    }
    if (await this.storyEnds()) {
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
    this.history.stepped(ran);
    await this.refresh();
    // what a step says is part of it: idle waits for it too
    await this.announceEvent();
    this.updateURL();
  }

  /** storyEnds is true when, at the end of the timeline, the node's next
   * event is a timer more than STORY_GAP away: the widget says that the
   * scenario ends here, what comes next and when, and a second Step goes
   * there. */
  async storyEnds() {
    if (this.endSaid === this.pos) {
      this.endSaid = -1;
      return false; // asked again: go on
    }
    let u = null;
    try {
      u = await this.engine.upcoming(this.id_);
    } catch (e) {
      if (e.lost) {
        throw e;
      }
      return false;
    }
    if (!u || !u.timer || u.in < STORY_GAP) {
      return false;
    }
    this.endSaid = this.pos;
    this.pause();
    const text = this.tx("status.storyEnd", { what: u.what, process: u.process, min: Math.round(u.in / 60_000_000) });
    setText(this.el.idle, text);
    this.announce(text);
    return true;
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
    this.history.moved();
    this.endSaid = -1; // back at the end, a Step says where the story ends again
    await this.refresh();
    if (speak) {
      await this.announceEvent();
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
      this.stopRest();
      if (this.id_) {
        this.engine.destroy(this.id_);
      }
      this.id_ = 0;
      this.history.clear();
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
      this.startRest();
    }));
  }

  /** otherNumbers runs the block again with the next draw of its #@vary
   * numbers: its questions ask about them, and the engine works out the
   * answers (solveVariant). */
  otherNumbers() {
    this.variant = ((this.variant || 0) + 1) % Math.max(this.variants || 1, 1);
    this.guide.answered.clear();
    return this.reset(this.tx("announce.otherNumbers"));
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
}
