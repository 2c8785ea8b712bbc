// history.js: a widget's history, without the DOM, so that node:test
// checks it (site/widgettest/history.test.mjs). The history is the
// scenario as given (source), the lines the reader added since (extra,
// which a share link carries after the source), the #@cut the next command
// runs with, and whether the last line added was the step button's. The
// element runs what it says and reads the engine's position itself.
//
// A line that starts with #@ is the widget's own (a directive); to the
// engine it is a comment. parseDirective reads one, and DIRECTIVES says
// what each takes:
//
//	#@seek N          the next command runs after seeking back to event N
//	#@cut N           the next command stops after N events, where the
//	                  browser's time budget stopped it when it first ran
//	                  (how far a tab gets in that time depends on the
//	                  computer; the cut does not)
//	#@goal LINE       an exercise's goal, an expect line
//	#@solution LINE   a command of the exercise's solution
//	#@hint TEXT       a hint of the exercise
//	#@mark, #@caption, #@when      the narration (captions.js)
//	#@holds GOAL      a claim of the caption before it, which the lessons'
//	                  tests check (the widget has nothing to do with it)
//	#@vary NAME V0 V1 ...
//	                  a number of the block that can vary: {NAME} in its
//	                  lines is V0 as written, or another value for a
//	                  reader who asks for other numbers (varied)
//	#@question, #@ask, #@choice, #@correct, #@answer, #@why
//	                  a block's questions (guide.js)

import { QUESTION_WORDS } from "./guide.js";

/** DIRECTIVES are the widget's directives, each with what it takes: an
 * event (a whole number, 0 or more), events (a whole number, 1 or more),
 * or words, which the part that reads the directive reads further. */
export const DIRECTIVES = {
  seek: "event",
  cut: "events",
  goal: "words",
  solution: "words",
  hint: "words",
  mark: "words",
  caption: "words",
  when: "words",
  holds: "words",
  vary: "words",
  ...Object.fromEntries(QUESTION_WORDS.map((w) => [w.slice(2), "words"])),
};

/** NARRATION are the directives captions.js reads; the rest of the words
 * a question's (guide.js) or an exercise's. */
export const NARRATION = ["mark", "caption", "when"];

/** parseDirective reads line (trimmed) as a directive: null when it is
 * not one, else {word, arg} with n, the number, for a #@seek or a #@cut,
 * or {word, error} when it is unknown or lacks its number; error is a key
 * of the widget's catalogs and its parameters, {key, params}. */
export function parseDirective(line) {
  const t = line.trim();
  if (!t.startsWith("#@")) {
    return null;
  }
  const word = t.slice(2).split(/\s/, 1)[0];
  const arg = t.slice(2 + word.length).trim();
  const takes = Object.hasOwn(DIRECTIVES, word) ? DIRECTIVES[word] : null;
  if (!takes) {
    return { word, error: { key: "console.unknownDirective", params: { name: `#@${word}` } } };
  }
  if (takes === "words") {
    return { word, arg };
  }
  const n = /^\d+$/.test(arg) ? Number(arg) : NaN;
  if (!Number.isSafeInteger(n) || (takes === "events" && n < 1)) {
    return { word, error: { key: `console.${word}Number`, params: { a: arg } } };
  }
  return { word, arg, n };
}

/** openingKeeps is where, in a script's lines, the widget has the engine
 * keep the state as the script runs (before the line of each index), for
 * a widget that opens at a mark (open, the attribute): at the mark, and
 * before the last command ahead of it, so that the seek to where it
 * opens and a step back from there start from a kept state. Empty for
 * any other opening, or a mark the script does not set. */
export function openingKeeps(lines, open) {
  const keeps = new Set();
  if (!open) {
    return keeps;
  }
  const m = lines.findIndex((l) => {
    const d = parseDirective(l);
    return d && d.word === "mark" && d.arg === open;
  });
  if (m < 0) {
    return keeps;
  }
  keeps.add(m);
  for (let i = m - 1; i >= 0; i--) {
    const t = lines[i].trim();
    if (t && !t.startsWith("#")) {
      keeps.add(i);
      break;
    }
  }
  return keeps;
}

/** openingStop is where a widget that opens at mark open may stop running
 * its script and open, running the rest behind the reader (the index of
 * the first line past the mark that is a command other than show or
 * expect, which only look), or -1 when it must run it all first: no such
 * mark or command, or a #@when, #@vary, #@seek or #@cut anywhere, which
 * need the whole timeline or change how the lines run. */
export function openingStop(lines, open) {
  if (!open || open === "start" || open === "end") {
    return -1;
  }
  let mark = -1;
  for (const [i, l] of lines.entries()) {
    const d = parseDirective(l);
    if (d && ["when", "vary", "seek", "cut"].includes(d.word)) {
      return -1;
    }
    if (mark < 0 && d && d.word === "mark" && d.arg === open) {
      mark = i;
    }
  }
  if (mark < 0) {
    return -1;
  }
  for (let i = mark + 1; i < lines.length; i++) {
    const t = lines[i].trim();
    if (t && !t.startsWith("#") && !/^(show|expect)(\s|$)/.test(t)) {
      return i;
    }
  }
  return -1;
}

/** varied is source with each {NAME} of its #@vary lines filled in: with
 * the values at index k of their lists (0: the values as written; a list
 * shorter than k + 1 starts again). count is how many variants there are
 * (the longest list; 1 with no #@vary), vars the names and values. A
 * #@vary line that is not NAME and two or more whole numbers varies
 * nothing (the lessons' tests refuse it). */
export function varied(source, k = 0) {
  const vars = [];
  for (const line of source.split("\n")) {
    const m = /^#@vary\s+([a-z][a-z0-9-]*)((?:\s+\d+){2,})\s*$/.exec(line.trim());
    if (m && m[1] !== "i" && m[1] !== "n") {
      vars.push({ name: m[1], values: m[2].trim().split(/\s+/) });
    }
  }
  if (vars.length === 0) {
    return { text: source, count: 1, vars };
  }
  const count = Math.max(...vars.map((v) => v.values.length));
  const text = source
    .split("\n")
    .map((line) => (line.trim().startsWith("#@vary") ? line : vars.reduce((l, v) => l.replaceAll(`{${v.name}}`, v.values[k % v.values.length]), line)))
    .join("\n");
  return { text, count, vars };
}

/** typedEntries are the lines a command typed into the console adds to
 * the share script: none when the engine refused it (a refused command
 * changes nothing, so a link has nothing of it to replay, and its reader
 * would open a scenario with a mistake); otherwise a `#@seek` when it was
 * typed after a seek back (pos before end: new history starts there), the
 * `#@cut` the time budget stopped it at, if it did, and the line. */
export function typedEntries({ line, ok, pos, end, cut }) {
  if (!ok) {
    return [];
  }
  const out = [];
  if (pos < end) {
    out.push(`#@seek ${pos}`);
  }
  if (cut) {
    out.push(`#@cut ${cut}`);
  }
  out.push(line);
  return out;
}

/** withCuts puts into a script's lines the cuts of the commands the time
 * budget stopped: each [i, n, replace] puts `#@cut n` before line i, or in
 * place of line i when replace (a `#@cut` the time budget stopped sooner
 * says where it stopped). It returns the new lines. */
export function withCuts(lines, cuts) {
  const out = [...lines];
  for (const [i, n, replace] of [...cuts].sort((a, b) => b[0] - a[0])) {
    out.splice(i, replace ? 1 : 0, `#@cut ${n}`);
  }
  return out;
}

/** StoppedLines collects, as a script runs, the commands the time budget
 * stopped, as withCuts takes them: cuts, each [i, n, replace], is the
 * line of the #@cut the command ran with (replace) or else its own (i)
 * and the events it stopped at (n). */
export class StoppedLines {
  constructor() {
    this.cuts = [];
    this.cutAt = -1; // the line of the #@cut the next command runs with
  }

  /** ran says line i ran: d is its directive (null for a command), ok
   * whether it ran, stopped the events the time budget stopped it at (0
   * when it did not). */
  ran(i, d, ok, stopped) {
    if (d?.word === "cut") {
      this.cutAt = ok ? i : this.cutAt; // a refused #@cut leaves the one before
    } else if (!d) {
      if (stopped) {
        this.cuts.push([this.cutAt >= 0 ? this.cutAt : i, stopped, this.cutAt >= 0]);
      }
      this.cutAt = -1;
    }
  }
}

/** History is what made a widget's state: the scenario's source and the
 * lines the reader added since. */
export class History {
  constructor(source = "") {
    this.source = source; // the scenario as given
    this.extra = []; // lines added by what the reader did since
    this.cut = 0; // the next command's #@cut, if any
    this.stepping = false; // the last line added is the step button's
  }

  /** clear forgets what the reader added (a reset): the source stays. */
  clear() {
    this.extra = [];
    this.cut = 0;
    this.stepping = false;
  }

  /** takeCut is the #@cut the next command runs with, used up. */
  takeCut() {
    const cut = this.cut;
    this.cut = 0;
    return cut;
  }

  /** typed adds a command the reader typed (see typedEntries). */
  typed(entry) {
    this.extra.push(...typedEntries(entry));
    this.stepping = false;
  }

  /** stepped adds ran events of the step button: one step line for the
   * presses in a row. */
  stepped(ran) {
    const last = this.extra[this.extra.length - 1];
    const m = last && /^step n=(\d+)$/.exec(last);
    if (m && this.stepping) {
      this.extra[this.extra.length - 1] = `step n=${Number(m[1]) + ran}`;
    } else {
      this.extra.push(`step n=${ran}`);
    }
    this.stepping = true;
  }

  /** moved says the reader went elsewhere on the timeline: a step after
   * it is a step line of its own. */
  moved() {
    this.stepping = false;
  }

  /** keepCuts makes the source carry the cuts of its commands the time
   * budget stopped when it ran (see withCuts), so that a share link
   * replays them; lines are the source's. */
  keepCuts(lines, cuts) {
    if (cuts.length) {
      this.source = withCuts(lines, cuts).join("\n");
    }
  }

  /** directive is the words of each #@name line of the source (goal,
   * solution, hint), in order. */
  directive(name) {
    const out = [];
    for (const line of this.source.split("\n")) {
      const d = parseDirective(line);
      if (d && d.word === name && d.arg) {
        out.push(d.arg);
      }
    }
    return out;
  }

  /** script is every line that made the state: the source, after carried
   * (an exercise's #@goal, #@hint and #@solution lines) when it has no
   * #@goal of its own, then what the reader added. */
  script(carried = []) {
    let src = this.source.replace(/\n+$/, "");
    if (carried.length && !this.directive("goal").length) {
      src = `${carried.join("\n")}\n${src}`;
    }
    return this.extra.length ? `${src}\n${this.extra.join("\n")}` : src;
  }

  /** replay is what remakes the state on a new simulation, in order:
   * {seek: n} for a #@seek, {line, cut} for a command with the #@cut
   * before it (0 for none). Comments, the other directives and those the
   * first run refused do nothing to the engine, and are left out. */
  replay() {
    const out = [];
    let cut = 0;
    for (const raw of this.script().split("\n")) {
      const line = raw.trim();
      const d = parseDirective(line);
      if (!line || d?.error || (line.startsWith("#") && !d)) {
        continue;
      }
      if (d?.word === "seek") {
        out.push({ seek: d.n });
      } else if (d?.word === "cut") {
        cut = d.n;
      } else if (!d) {
        out.push({ line, cut });
        cut = 0;
      }
    }
    return out;
  }
}
