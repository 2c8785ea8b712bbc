// goals.js: an exercise's goals. A widget whose element has a goals
// attribute (one `expect` line each) lists them above its console and
// checks each against the simulation after every change: met, or not yet
// with what the engine found. A solution attribute adds a button that
// shows one way to meet them. A share link carries both as #@goal and
// #@solution lines of its script. A hints attribute (one a line, up to
// three) adds a button that reveals them one at a time; the solution is
// offered once every hint is out. Each goal reads as a sentence
// (goalwords.js); its expect line is behind a disclosure. A goal that
// compares values (a queue's columns, a process, a credit link, a file)
// draws each one, wanted beside what the node has now, and an exercise
// with a solution counts the reader's commands against the solution's.

import { h, setStyle, setText } from "./dom.js";
import { goalWords } from "./goalwords.js";
import { engineSays, translator } from "./i18n.js";

export class Goals {
  constructor(uid, lang) {
    const tr = (this.tr = translator(lang));
    this.lang = lang;
    this.goals = [];
    this.solution = [];
    this.met = null; // how many were met at the last check
    this.list = h("ol.goal-list");
    this.done = h("p.badge.ok.goals-done", { hidden: true, text: tr("goals.allMet") });
    this.count = h("p.goal-count", { hidden: true });
    this.hints = [];
    this.shownHints = 0;
    this.hintList = h("ol.hint-list", { id: `hints-${uid}`, "aria-live": "polite" });
    this.hintBtn = h("button.show-hint", { type: "button", "aria-controls": `hints-${uid}`, onclick: () => this.nextHint() }, tr("goals.showHint"));
    this.solutionBox = h("pre.solution", { id: `solution-${uid}`, hidden: true });
    this.solutionBtn = h(
      "button.show-solution",
      { type: "button", "aria-expanded": "false", "aria-controls": `solution-${uid}`, onclick: () => this.toggleSolution() },
      tr("goals.showSolution"),
    );
    this.el = h(
      "section.goals",
      { "aria-labelledby": `goals-${uid}`, hidden: true },
      h("h3", { id: `goals-${uid}`, text: tr("goals.title") }),
      h("p.goals-help", { text: tr("goals.help") }),
      this.list,
      this.done,
      this.count,
      this.hintList,
      this.hintBtn,
      this.solutionBtn,
      this.solutionBox,
    );
  }

  /** set takes the goal lines and the solution lines (either may be empty). */
  set(goals, solution, hints = []) {
    this.goals = goals;
    this.solution = solution;
    this.hints = hints.slice(0, 3);
    this.shownHints = 0;
    this.hintList.replaceChildren();
    this.showHintState();
    this.met = null;
    this.el.hidden = goals.length === 0;
    setText(this.solutionBox, solution.join("\n"));
    this.list.replaceChildren(
      ...goals.map((g) =>
        h(
          "li.goal",
          null,
          h("span.goal-mark", { "aria-hidden": "true" }),
          h("span.goal-words", { text: goalWords(g, this.lang) }),
          h("span.goal-state"),
          h("table.goal-draw", { hidden: true }),
          h("details.goal-expect", null, h("summary", { text: this.tr("goals.expectLine") }), h("code.goal-line", { text: g })),
        ),
      ),
    );
  }

  /** nextHint reveals the next hint. */
  nextHint() {
    if (this.shownHints >= this.hints.length) {
      return;
    }
    const n = this.shownHints++;
    this.hintList.append(h("li.hint", { text: this.hints[n] }));
    this.showHintState();
  }

  /** showHintState offers the next hint, or the solution once every hint
   * is out. */
  showHintState() {
    const left = this.hints.length - this.shownHints;
    this.hintBtn.hidden = left === 0;
    setText(this.hintBtn, this.shownHints === 0 ? this.tr("goals.showHintCount", { n: this.hints.length }) : this.tr("goals.showHintNext", { i: this.shownHints + 1, n: this.hints.length }));
    this.solutionBtn.hidden = this.solution.length === 0 || left > 0;
  }

  toggleSolution() {
    const show = this.solutionBox.hidden;
    this.solutionBox.hidden = !show;
    this.solutionBtn.setAttribute("aria-expanded", String(show));
    setText(this.solutionBtn, this.tr(show ? "goals.hideSolution" : "goals.showSolution"));
  }

  /** check evaluates every goal now; it returns a sentence to announce
   * when the number met changed, or "". engine.batch asks the engine
   * about every goal in one message. */
  async check(engine, id, typed = []) {
    if (this.goals.length === 0) {
      return "";
    }
    this.showCount(typed);
    const answers = await engine.batch(this.goals.map((g) => ["expect", id, g]));
    let met = 0;
    this.goals.forEach((g, i) => {
      const li = this.list.children[i];
      const r = answers[i];
      let ok = false;
      let text;
      if ("error" in r) {
        text = this.tr("goals.cannotCheck", { error: r.error });
      } else {
        ok = r.value.met;
        text = ok ? this.tr("goals.met") : this.tr("goals.notYet", { found: engineSays(r.value.said, this.lang) });
      }
      if (ok) {
        met++;
      }
      li.classList.toggle("met", ok);
      setText(li.querySelector(".goal-state"), text);
      this.draw(li.querySelector(".goal-draw"), "value" in r ? r.value.checks || [] : []);
    });
    this.done.hidden = met < this.goals.length;
    const before = this.met;
    this.met = met;
    if (before === null || before === met) {
      return "";
    }
    this.allMet = met === this.goals.length;
    return this.allMet ? this.tr("goals.allMet") : this.tr("goals.someMet", { met, n: this.goals.length });
  }

  /** draw shows a goal's values, each wanted beside what the node has
   * now, a number with a bar on one scale (the most it can be, or the
   * larger of the two). */
  draw(table, checks) {
    table.hidden = checks.length === 0;
    if (table.hidden) {
      return;
    }
    const tr = this.tr;
    const cell = (value, max) => {
      const n = Number(value);
      let bar = null;
      if (max > 0 && value !== "" && Number.isFinite(n)) {
        bar = h("span.goal-bar", { "aria-hidden": "true" });
        setStyle(bar, "--w", `${Math.min(100, (100 * n) / max)}%`); // not a style attribute: pages' CSP may refuse those
      }
      return h("td", null, h("span.goal-value", { text: value === "" ? "–" : value }), bar);
    };
    table.replaceChildren(
      h("tr", null, h("th", { scope: "col", text: tr("goals.col.value") }), h("th", { scope: "col", text: tr("goals.col.want") }), h("th", { scope: "col", text: tr("goals.col.now") })),
      ...checks.map((c) => {
        const max = c.of || Math.max(Number(c.want) || 0, Number(c.found) || 0);
        return h(`tr${c.want === c.found ? ".same" : ".off"}`, null, h("th", { scope: "row", text: c.name }), cell(c.want, max), cell(c.found, max));
      }),
    );
  }

  /** showCount counts the commands the reader ran (typed: the lines the
   * widget added to its scenario) against the solution's. */
  showCount(typed) {
    this.count.hidden = this.solution.length === 0;
    if (!this.count.hidden) {
      setText(this.count, this.tr("goals.count", { n: commandsIn(typed), m: commandsIn(this.solution) }));
    }
  }
}

/** commandsIn counts the commands among a script's lines: not a comment
 * or directive (#), not a blank, not the widget's own step lines. */
export function commandsIn(lines) {
  return lines.filter((l) => {
    const t = l.trim();
    return t !== "" && !t.startsWith("#") && !/^step(\s|$)/.test(t);
  }).length;
}
