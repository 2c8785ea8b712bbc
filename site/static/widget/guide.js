// guide.js: what guided playback and a block's questions decide, without
// the DOM. In guided mode Play stops where each caption starts, until the
// reader continues; the , and . keys go to the previous and next caption.
// A question asks the reader to predict a moment before the widget shows
// it:
//
//	#@question NAME at=MOMENT   asked where it stands; MOMENT is a mark or when
//	#@ask TEXT                  the question
//	#@choice TEXT               a wrong choice
//	#@correct TEXT              the right one (choices and correct, or answer)
//	#@answer N GOAL             a number; GOAL with {n} for N holds at MOMENT
//	#@why TEXT                  why, shown once the reader has answered
//
// Play stops where an unanswered question stands too.

/** QUESTION_WORDS are the directives of a question. */
export const QUESTION_WORDS = ["#@question", "#@ask", "#@choice", "#@correct", "#@answer", "#@why"];

/** QuestionList reads a block's question directives as its script runs. */
export class QuestionList {
  constructor() {
    this.list = []; // {name, at, reveal, ask, choices: [{text, correct}], answer, why}
  }

  clear() {
    this.list = [];
  }

  /** directive reads one question line run at event at: true if it was
   * one, an error message if it is malformed, false if it is not one. */
  directive(line, at) {
    const t = line.trim();
    const word = t.split(/\s/, 1)[0];
    if (!QUESTION_WORDS.includes(word)) {
      return false;
    }
    const rest = t.slice(word.length).trim();
    if (word === "#@question") {
      const m = /^([a-z0-9][a-z0-9-]*)\s+at=([a-z0-9][a-z0-9-]*)$/.exec(rest);
      if (!m) {
        return `#@question needs a name and at=MOMENT, as in #@question credit-left at=spent; got "${rest}"`;
      }
      if (this.list.some((q) => q.name === m[1])) {
        return `#@question ${m[1]} is asked twice`;
      }
      this.list.push({ name: m[1], at, reveal: m[2], ask: "", choices: [], answer: null, goal: "", why: "" });
      return true;
    }
    const q = this.list[this.list.length - 1];
    if (!q) {
      return `${word} comes before any #@question`;
    }
    if (!rest) {
      return `${word} needs words after it`;
    }
    if (word === "#@ask") {
      q.ask = rest;
    } else if (word === "#@why") {
      q.why = rest;
    } else if (word === "#@choice" || word === "#@correct") {
      q.choices.push({ text: rest, correct: word === "#@correct" });
    } else {
      const m = /^(-?\d+)(?:\s|$)/.exec(rest);
      if (!m) {
        return `#@answer needs a number first, got "${rest}"`;
      }
      q.answer = Number(m[1]);
      q.goal = rest.slice(m[0].length).trim(); // with {n} for the answer
    }
    return true;
  }

  /** stops are the events where Play stops for a question not yet
   * answered (answered: a Set of names). */
  stops(answered) {
    return this.list.filter((q) => !answered.has(q.name)).map((q) => q.at);
  }
}

/** isRight says whether the reader's answer (a choice's index, or the
 * number typed) is the question's. */
export function isRight(q, given) {
  if (q.answer !== null) {
    const n = Number(String(given).trim());
    return String(given).trim() !== "" && n === q.answer;
  }
  const c = q.choices[given];
  return !!(c && c.correct);
}

/** answerField is the field of a number question's goal that holds the
 * answer ({n}): "messages" of "queue=q messages={n}"; "" when none. */
export function answerField(goal) {
  const m = /(?:^|\s)([a-z_-]+)=\{n\}(?:\s|$)/.exec(goal || "");
  return m ? m[1] : "";
}

/** rightAnswer is the answer's words: the number, or the right choice. */
export function rightAnswer(q) {
  if (q.answer !== null) {
    return String(q.answer);
  }
  const c = q.choices.find((x) => x.correct);
  return c ? c.text : "";
}

/** playStop is where a Play tick from pos that would go to target stops:
 * the first stop after pos and at or before target, or target. A stop at
 * pos itself was reached already and lets Play go on. */
export function playStop(stops, pos, target) {
  let to = target;
  for (const s of stops) {
    if (s > pos && s < to) {
      to = s;
    }
  }
  return to;
}

/** captionTarget is the event where the next caption starts (dir 1), or
 * the last caption start before pos (dir -1): from inside a caption's
 * stretch that is its own start, from its start the one before. Null when
 * there is none. */
export function captionTarget(ats, pos, dir) {
  const starts = [...new Set(ats.filter((a) => Number.isFinite(a)))].sort((a, b) => a - b);
  if (dir > 0) {
    const n = starts.find((a) => a > pos);
    return n === undefined ? null : n;
  }
  const before = starts.filter((a) => a < pos);
  if (!before.length) {
    return null;
  }
  return before[before.length - 1];
}

/** guidedOn says whether a widget plays guided: a lesson's widget unless
 * its guided attribute is "off", any other only when it has the
 * attribute (guided, guided="on"). */
export function guidedOn(lesson, attr) {
  if (attr === null || attr === undefined) {
    return !!lesson;
  }
  return attr !== "off" && attr !== "false";
}
