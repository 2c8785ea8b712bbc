// guided.js: guided playback and predict-then-see questions in the widget
// (what they decide is in guide.js). The Previous and Next caption buttons
// and the , and . keys move from caption to caption; in guided mode Play
// stops where each caption starts and the live region reads it; a
// question asked where Play stops takes the reader's answer, then shows
// the right one and why, and counts in the lesson's progress.

import { h, setText } from "./dom.js";
import { captionTarget, guidedOn, isRight, playStop, QuestionList, rightAnswer } from "./guide.js";
import { markDone } from "./progress.js";

/** questionKey is a question's name in the progress, beside the
 * exercises' titles. */
export function questionKey(name) {
  return `question:${name}`;
}

/** Guide is one widget's guided playback and questions. The host is the
 * element: tr, pos, captions, act(fn), doSeek(n, speak), pause() and
 * announce(text). */
export class Guide {
  constructor(uid, host) {
    this.host = host;
    const tr = (this.tr = host.tr);
    this.guided = false;
    this.questions = new QuestionList();
    this.answered = new Map(); // name -> {given, right}
    this.prevBtn = h("button.caption-prev", { type: "button", "aria-keyshortcuts": ",", title: tr("guide.prevTitle"), onclick: () => this.jump(-1) }, h("span.icon", { "aria-hidden": "true", text: "❮" }), h("span.label", { text: tr("guide.prev") }));
    this.nextBtn = h("button.caption-next", { type: "button", "aria-keyshortcuts": ".", title: tr("guide.nextTitle"), onclick: () => this.jump(1) }, h("span.label", { text: tr("guide.next") }), h("span.icon", { "aria-hidden": "true", text: "❯" }));
    this.nav = h("div.caption-nav", { "data-role": "caption-nav", hidden: true }, this.prevBtn, this.nextBtn);
    this.held = h("p.guided-held", { "data-role": "guided-held", hidden: true, text: tr("guide.held") });
    this.panel = h("section.question", { "data-role": "question", "aria-labelledby": `q-${uid}`, hidden: true });
    this.uid = uid;
    this.shown = "";
    this.heldAt = -1;
    this.heldAt = -1;
  }

  /** setMode turns guided playback on for a lesson's widget, unless its
   * guided attribute says otherwise. */
  setMode(lesson, attr) {
    this.guided = guidedOn(lesson, attr);
  }

  clear() {
    this.questions.clear();
    this.shown = "";
  }

  /** directive reads a question line; see QuestionList.directive. */
  directive(line, at) {
    return this.questions.directive(line, at);
  }

  /** stops are the events Play stops at: each caption's start in guided
   * mode, and each unanswered question. */
  stops() {
    const out = this.questions.stops(new Set(this.answered.keys()));
    if (this.guided) {
      for (const c of this.host.captions.list) {
        out.push(c.at);
      }
    }
    return out;
  }

  /** playTo is where a Play tick from pos to target goes. */
  playTo(pos, target) {
    return playStop(this.stops(), pos, target);
  }

  /** holds says whether Play stops at event n. */
  holds(n) {
    return this.stops().includes(n);
  }

  /** hold says why Play stopped at n: the question asked there, or the
   * caption that starts there. */
  hold(n) {
    this.heldAt = n;
    this.held.hidden = false;
    const q = this.questionAt(n);
    if (q) {
      // NB: focus stays where it was: on a choice, the Space that continues
      // would answer it
      this.host.announce(this.tr("guide.asked", { text: q.ask }));
      return;
    }
    const i = this.host.captions.at(n);
    const c = i >= 0 ? this.host.captions.list[i] : null;
    this.host.announce(this.tr("guide.heldAt", { text: c ? c.text : "" }));
  }

  /** questionAt is the unanswered question asked at event n. */
  questionAt(n) {
    return this.questions.list.find((q) => q.at === n && !this.answered.has(q.name)) || null;
  }

  /** jump goes to the next (dir 1) or previous (dir -1) caption. */
  jump(dir) {
    const host = this.host;
    host.pause();
    return host.act(async () => {
      const n = captionTarget(host.captions.list.map((c) => c.at), host.pos, dir);
      if (n === null) {
        host.announce(this.tr(dir > 0 ? "guide.noneAfter" : "guide.noneBefore"));
        return;
      }
      await host.doSeek(n, false);
      const i = host.captions.at(n);
      host.announce(this.tr("guide.at", { event: n, text: i >= 0 ? host.captions.list[i].text : "" }));
    });
  }

  /** shortcut handles , and .; true when it took the key. */
  shortcut(e) {
    const t = e.composedPath()[0];
    const tag = t && t.tagName;
    if (tag === "INPUT" || tag === "SELECT" || tag === "TEXTAREA" || e.altKey || e.ctrlKey || e.metaKey) {
      return false;
    }
    if (e.key === "." || e.key === ",") {
      e.preventDefault();
      this.jump(e.key === "." ? 1 : -1);
      return true;
    }
    return false;
  }

  /** render shows the caption buttons and the question in force at pos:
   * the last one asked at or before it. */
  render(pos, playing) {
    const ats = this.host.captions.list.map((c) => c.at).filter(Number.isFinite);
    this.nav.hidden = ats.length < 2;
    this.prevBtn.disabled = !ats.some((a) => a < pos);
    this.nextBtn.disabled = !ats.some((a) => a > pos);
    this.held.hidden = playing || this.heldAt !== pos;
    let q = null;
    for (const x of this.questions.list) {
      if (x.at <= pos) {
        q = x;
      }
    }
    const key = q ? `${q.name}:${this.answered.has(q.name)}` : "";
    if (key === this.shown) {
      return;
    }
    this.shown = key;
    this.panel.hidden = !q;
    if (q) {
      this.drawQuestion(q);
    } else {
      this.panel.replaceChildren();
    }
  }

  drawQuestion(q) {
    const tr = this.tr;
    const a = this.answered.get(q.name);
    const kids = [h("h3", { id: `q-${this.uid}`, text: tr("guide.question") }), h("p.question-ask", { text: q.ask })];
    if (!a) {
      kids.push(h("p.question-help", { text: tr("guide.predict") }));
      if (q.answer !== null) {
        const input = h("input.question-number", { type: "text", inputmode: "numeric", "aria-label": tr("guide.number"), "data-role": "answer-number" });
        const form = h("form.question-form", { onsubmit: (e) => (e.preventDefault(), this.answer(q, input.value)) }, input, " ", h("button", { type: "submit", text: tr("guide.answer") }));
        kids.push(form);
      } else {
        kids.push(h("div.question-choices", { role: "group", "aria-label": tr("guide.choices") }, q.choices.map((c, i) => h("button.question-choice", { type: "button", "data-choice": i, onclick: () => this.answer(q, i) }, c.text))));
      }
    } else {
      const given = q.answer !== null ? a.given : (q.choices[a.given] || {}).text;
      kids.push(h(`p.question-result.${a.right ? "right" : "wrong"}`, { "data-role": "question-result", text: tr(a.right ? "guide.right" : "guide.wrong", { given, answer: rightAnswer(q) }) }));
      kids.push(h("p.question-why", { text: q.why }));
    }
    if ((this.host.variants || 1) > 1) {
      kids.push(h("button.question-vary", { type: "button", onclick: () => this.host.otherNumbers() }, tr("guide.otherNumbers")));
    }
    this.panel.replaceChildren(...kids);
  }

  /** answer takes the reader's answer, shows the right one and why, and
   * counts the question in the lesson's progress. */
  answer(q, given) {
    if (q.answer !== null && String(given).trim() === "") {
      return;
    }
    const right = isRight(q, given);
    this.answered.set(q.name, { given, right });
    if (/^(\/zh)?\/lessons\//.test(location.pathname)) {
      markDone(location.pathname, questionKey(q.name));
    }
    this.shown = "";
    this.render(this.host.pos, false);
    this.host.announce(`${this.tr(right ? "guide.right" : "guide.wrong", { given: q.answer !== null ? given : q.choices[given].text, answer: rightAnswer(q) })} ${q.why}`);
    const result = this.panel.querySelector("[data-role=question-result]");
    if (result) {
      result.setAttribute("tabindex", "-1");
      result.focus();
    }
  }
}
