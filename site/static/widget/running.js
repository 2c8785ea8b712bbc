// running.js: how <warren-scenario> (element.js) runs its script: the
// scenario line by line when it opens or resets, each command with its
// cut, the widget's directives (history.js reads them) handed to the part
// that keeps each, and the rebuild of a simulation its worker lost. These
// are methods of the element (element.js joins them to it): this is the
// widget.

import { withOmitted } from "./bridge-loader.js";
import { errorText } from "./i18n.js";
import { NARRATION, openingKeeps, openingStop, parseDirective, StoppedLines, varied } from "./history.js";
import { answerField } from "./guide.js";

/** WHOLE_COMMAND, given to exec as a command's cut with whole set, lets a
 * lesson's own line run as far as the engine's budget of one command
 * (engine.CommandEvents) whatever the time it takes: the browser's time
 * budget guards scripts from links and the console (a link's #@cut is
 * still under it), and a lesson cut short on a slow computer would teach
 * something else. */
const WHOLE_COMMAND = 3_000_000;

export class Running {
  /** rebuild makes the simulation again in a new worker: the script that
   * made it (a share link's), then a seek to the event it showed. The
   * command that was running when the worker died is left out. */
  rebuild(why) {
    return this.quietly(() => this.rebuildNow(why));
  }

  async rebuildNow() {
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
    if (!this.ran || this.rest || this.restLost) {
      // what was left of the script runs again, from the top
      this.stopRest();
      this.restLost = false;
      await this.startAgain(culprit);
      return;
    }
    await this.replay(cost, at);
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

  /** startAgain runs the scenario from the top, when its worker was lost
   * before it first ran; or says it cannot run here, when it was the
   * culprit. */
  async startAgain(culprit) {
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
  }

  /** replay makes the history again on a new simulation (see
   * History.replay), cost being what it cost before, and shows event at. */
  async replay(cost, at) {
    this.busy = true;
    this.status(this.tx("status.rebuilding"));
    try {
      this.id_ = await this.engine.create(this.options(), cost);
      for (const step of this.history.replay()) {
        if ("seek" in step) {
          await this.engine.seek(this.id_, step.seek);
        } else {
          await this.engine.exec(this.id_, step.line, step.cut || (this.lesson ? WHOLE_COMMAND : 0), this.lesson);
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
  }

  /** runSource runs a script line by line, as share links replay. */
  async runSource(text) {
    // the block's #@vary numbers, as written or as the reader last drew
    const v = varied(text, this.variant || 0);
    this.variants = v.count;
    text = v.text;
    this.busy = true;
    this.setControlsEnabled(false);
    try {
      if (!this.id_) {
        this.id_ = await this.engine.create(this.options());
      }
      await this.parseFirst(text);
      this.rest = await this.runLines(text, this.opensEarly());
      if (this.id_ && !this.rest) {
        await this.resolveWhens();
      }
      if (this.id_ && !this.rest && this.variant) {
        await this.solveVariant();
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

  /** solveVariant works out, with the engine, the answer of each number
   * question for the numbers this variant drew: what its goal finds at
   * the question's moment (the value of its {n} field there). The
   * simulation is left where it was. */
  async solveVariant() {
    const back = (await this.engine.snapshot(this.id_)).events;
    for (const q of this.guide.questions.list) {
      const field = answerField(q.goal);
      const at = this.captions.moment(q.reveal);
      if (q.answer === null || !field || at === null) {
        continue;
      }
      await this.engine.seek(this.id_, at);
      const r = await this.engine.expect(this.id_, `expect ${q.goal.replaceAll("{n}", "0")}`);
      const c = (r.checks || []).find((x) => x.name === field);
      if (c && /^-?\d+$/.test(c.found)) {
        q.answer = Number(c.found);
      }
    }
    await this.engine.seek(this.id_, back);
  }

  /** parseFirst shows the first mistake the engine's parser finds in
   * text's commands, before any runs. */
  async parseFirst(text) {
    try {
      await this.engine.parse(text.split("\n").filter((l) => !parseDirective(l)).join("\n"));
    } catch (e) {
      if (e.lost) {
        throw e;
      }
      this.showProblem(this.tx("problem.mistake"), this.tx("problem.mistakeDetail", { error: errorText(e, this.lang, "parse") }));
    }
  }

  /** resolveWhens finds, once the script ran, the event of each #@when. */
  async resolveWhens() {
    try {
      await this.captions.resolve((whens) => this.engine.firstEvents(this.id_, whens));
    } catch (e) {
      if (e.lost) {
        throw e;
      }
      this.showProblem(this.tx("problem.whenStopped"), this.tx("problem.whenStoppedDetail", { error: errorText(e, this.lang) }));
    }
  }

  /** opensEarly says whether the script may stop where the widget opens
   * and run the rest behind the reader (openingStop): a lesson's own
   * block, opening at its mark (not at an event a link or the event
   * attribute names), on its numbers as written. */
  opensEarly() {
    return this.lesson && !this.variant && !(this.startShare && this.startShare.event !== null) && this.attrEvent() === null;
  }

  /** runLines runs the lines of a script, saying how far it is. With
   * early, a script that may open before its end (openingStop) stops
   * there: what it returns then is the rest, which runRest runs. */
  async runLines(text, early = false) {
    const lines = text.split("\n");
    const run = {
      text,
      lines,
      i: 0,
      stop: early ? openingStop(lines, this.getAttribute("open")) : -1,
      atEnd: false, // the rest: its lines run at the end of the timeline
      stopped: new StoppedLines(),
      refused: 0,
      parseFailed: !this.el.problem.hidden,
      keeps: openingKeeps(lines, this.getAttribute("open")),
    };
    let next;
    while ((next = await this.runNext(run)) === "ran") {}
    if (next === "open") {
      run.atEnd = true;
      return run;
    }
    if (next === "done") {
      this.endLines(run);
    }
    return null;
  }

  /** runNext runs the next line of run (runLines), and says "ran", or
   * "open" where the widget opens before the rest, "done" at the end, or
   * "gone" when the simulation was removed meanwhile. */
  async runNext(run) {
    const { lines } = run;
    for (; run.i < lines.length; run.i++) {
      const i = run.i;
      if (i === run.stop && !run.atEnd) {
        return "open";
      }
      if (run.keeps.has(i) && this.id_ && !run.atEnd) {
        await this.keepHere();
      }
      const line = lines[i].trim();
      const d = parseDirective(line);
      if (!line || (line.startsWith("#") && !d)) {
        continue;
      }
      if (lines.length > 20 && i % 5 === 0 && !run.atEnd) {
        this.status(this.tx("status.running", { i: i + 1, n: lines.length }));
      }
      if (!this.id_) {
        return "gone";
      }
      this.lastCut = 0;
      const ok = await this.runLine(line, i + 1, d, run.atEnd);
      run.stopped.ran(i, d, ok, this.lastCut);
      if (!ok) {
        run.refused++;
        if (run.refused === 1 && !run.parseFailed && !this.hasAttribute("error-ok")) {
          this.showProblem(this.tx("problem.refused"), this.tx("problem.refusedDetail", { i: i + 1, line }));
        }
      }
      run.i++;
      return "ran";
    }
    return "done";
  }

  /** endLines ends a script run (runLines) that reached its last line. */
  endLines(run) {
    if (run.text === this.source) {
      this.history.keepCuts(run.lines, run.stopped.cuts);
    }
  }

  /** startRest runs the rest of a script that opened early behind the
   * reader, unless it already is. */
  startRest() {
    const run = this.rest;
    if (!run || this.resting === run) {
      return;
    }
    this.resting = run;
    // said if it takes a while, not for the many rests that take a moment
    setTimeout(() => this.rest === run && this.status(this.tx("status.rest")), 400);
    this.runRest(run).finally(() => {
      if (this.resting === run) {
        this.resting = null;
      }
    });
  }

  /** runRest runs the rest of run one line at a time at the end of the
   * timeline, the widget staying where the reader is: between two lines,
   * what the reader asked runs first. A reset, a rebuild or a typed
   * command ends it (rest is no longer run). */
  async runRest(run) {
    while (this.rest === run) {
      await this.act(() => this.restLine(run));
    }
  }

  /** restLine runs the next line of the rest; after the last, the script
   * has run (endLines), and the widget shows its whole timeline. */
  async restLine(run) {
    if (this.rest !== run || !this.id_) {
      return;
    }
    let next;
    try {
      next = await this.runNext(run);
    } catch (e) {
      // lost with its worker: the rebuild runs the script from the top
      this.stopRest();
      this.restLost = true;
      throw e;
    }
    if (this.rest !== run) {
      return;
    }
    if (next === "ran") {
      this.player.show(this.pos, this.end, this.snap ? this.snap.time : 0, this.busy);
      return;
    }
    this.stopRest();
    if (next === "done") {
      this.endLines(run);
      await this.refresh();
    }
  }

  /** stopRest ends the running of the rest of the script (runRest): it
   * ran to its end, or the reader's reset or command ends it. */
  stopRest() {
    if (this.rest) {
      this.rest = null;
      this.status("");
    }
  }

  /** moreToCome runs the rest of the script until the timeline goes past
   * the event shown, or the script ends: a Step at the end of what has
   * run so far waits for the next event, not for the whole rest. */
  async moreToCome() {
    const run = this.rest;
    while (this.rest === run && run && this.pos >= this.end) {
      await this.restLine(run);
    }
  }

  /** runLine runs one line of a script, lineNo, read as d (see
   * parseDirective); false when it was refused. */
  async runLine(line, lineNo, d, atEnd = false) {
    if (!d) {
      this.captions.command();
      return this.execLine(line, false, lineNo, atEnd);
    }
    // a line of the rest (runRest) stands at the end of the timeline
    const at = atEnd ? this.end : this.pos;
    if (d.error) {
      return this.refuseDirective(line, lineNo, this.tx(d.error.key, d.error.params));
    }
    if (d.word === "seek") {
      return this.seekLine(line, d.n);
    }
    if (d.word === "cut") {
      this.history.cut = d.n;
      return true;
    }
    if (d.word === "holds") {
      return true; // a caption's claim: the lessons' tests check it
    }
    if (NARRATION.includes(d.word)) {
      return this.captions.directive(line, at);
    }
    const q = this.guide.directive(line, at);
    if (typeof q === "string") {
      return this.refuseDirective(line, lineNo, q);
    }
    return true; // a question's, or an exercise's (read by setGoals)
  }

  /** keepHere has the engine keep the state as it is now (Sim.Keep), at
   * the moment the widget opens at or the command before it, which the
   * script has just reached (openingKeeps): the seek there once the
   * script has run restores it, and a step back from there replays the
   * command before, where both would replay the history from the nearest
   * checkpoint, far back when the states are large. A state the engine
   * cannot keep costs that replay, nothing else. */
  async keepHere() {
    try {
      await this.engine.keep(this.id_);
    } catch (e) {
      if (e.lost) {
        throw e;
      }
    }
  }

  /** refuseDirective shows why the directive on line lineNo is refused
   * (what), and is false. */
  refuseDirective(line, lineNo, what) {
    // what is in the reader's language already; the line around it is
    // said as the engine's refusals are (con.error, con.line)
    const text = `error: line ${lineNo}, ${what}`;
    const lines = withOmitted({ lines: [text], said: [[0, { text, key: "con.error", args: [{ key: "con.line", args: [String(lineNo), what] }] }]] });
    this.console.add({ cmd: line, lines, at: this.pos });
    return false;
  }

  /** seekLine goes back to event n for the next command; false when the
   * engine cannot. */
  async seekLine(line, n) {
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

  /** execLine runs one command until quiet and shows its lines. */
  async execLine(line, typed, lineNo, atEnd = false) {
    const from = atEnd ? this.end : this.pos;
    const cut = this.history.takeCut();
    this.lastCut = 0;
    let lines;
    try {
      lines = await this.engine.exec(this.id_, line, cut || (this.lesson && !typed ? WHOLE_COMMAND : undefined), this.lesson && !typed, atEnd);
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
    // a refusal says the line of the script it stands on, unless the
    // engine's sentence names a line already
    const s = refused && lines.said ? lines.said.get(0) : null;
    const named = s ? s.key === "con.error" && !!s.args[0] && s.args[0].key === "con.line" : refused && lines[0].startsWith("error: line ");
    if (refused && lineNo && !named) {
      lines[0] = `error: line ${lineNo}, ${lines[0].slice("error: ".length)}`;
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
}
