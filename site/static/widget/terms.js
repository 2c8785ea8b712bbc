// terms.js: one word, one meaning. Three things stop messages in
// RabbitMQ and the widget names each its own way, everywhere it shows
// them (the diagram, the tables): flow control (a process out of credit,
// credit_flow), a consumer at its prefetch limit (rabbit_limiter), and
// publishers blocked by a memory or disk alarm (rabbit_alarm); credit
// below zero is a fourth word. A term is focusable and described by its
// one-line explanation (aria-describedby); on focus or hover the
// explanation shows beside it, and Escape hides it.

import { h, setText } from "./dom.js";

/** TERMS are the words, by name: the catalog keys of the word and of its
 * explanation. */
export const TERMS = {
  flow: { word: "term.flow", tip: "term.flowTip" },
  prefetch: { word: "term.prefetch", tip: "term.prefetchTip" },
  alarm: { word: "term.alarm", tip: "term.alarmTip" },
  negative: { word: "term.negative", tip: "term.negativeTip" },
};

/** Terms makes the terms of one widget and shows their explanations. */
export class Terms {
  constructor(uid, tr) {
    this.uid = uid;
    this.tr = tr;
    // The explanations, once each, for aria-describedby.
    this.glossary = h(
      "div.glossary",
      { hidden: true },
      Object.entries(TERMS).map(([name, t]) => h("p", { id: this.tipId(name), text: tr(t.tip) })),
    );
    this.tip = h("div.term-tip", { role: "tooltip", hidden: true });
    this.el = h("div.terms", null, this.glossary, this.tip);
  }

  tipId(name) {
    return `tip-${name}-${this.uid}`;
  }

  /** term is the element of one term, with text (the word by default). */
  term(name, text) {
    const t = TERMS[name];
    return h(`span.term.term-${name}`, { tabindex: "0", "data-term": name, "aria-describedby": this.tipId(name) }, text || this.tr(t.word));
  }

  /** describe makes el itself a term (focusable, described by the
   * explanation of name), keeping its own text. */
  describe(el, name) {
    el.classList.add("term-box", `term-${name}`);
    el.tabIndex = 0;
    el.dataset.term = name;
    el.setAttribute("aria-describedby", this.tipId(name));
    return el;
  }

  /** word is the plain word of a term, for text that cannot hold an
   * element. */
  word(name) {
    return this.tr(TERMS[name].word);
  }

  /** watch shows the explanation of the term under the pointer or with
   * the focus, in root (the widget's section, positioned). */
  watch(root) {
    const show = (e) => {
      const el = e.composedPath().find((n) => n.dataset && n.dataset.term);
      if (el) {
        this.show(root, el);
      }
    };
    const hide = (e) => {
      const el = e.composedPath().find((n) => n.dataset && n.dataset.term);
      if (el && el === this.at) {
        this.hide();
      }
    };
    root.addEventListener("mouseover", show);
    root.addEventListener("focusin", show);
    root.addEventListener("mouseout", hide);
    root.addEventListener("focusout", hide);
    root.addEventListener("keydown", (e) => {
      if (e.key === "Escape" && !this.tip.hidden) {
        this.hide();
      }
    });
  }

  show(root, el) {
    this.at = el;
    setText(this.tip, this.tr(TERMS[el.dataset.term].tip));
    this.tip.hidden = false;
    const r = el.getBoundingClientRect();
    const base = root.getBoundingClientRect();
    const width = Math.min(320, base.width - 16);
    const left = Math.max(8, Math.min(r.left - base.left, base.width - width - 8));
    this.tip.style.left = `${left}px`;
    this.tip.style.top = `${r.bottom - base.top + 4}px`;
    this.tip.style.width = `${width}px`;
  }

  hide() {
    this.at = null;
    this.tip.hidden = true;
  }
}
