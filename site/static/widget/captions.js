// captions.js: the narration of a scenario. A "#@mark NAME" line of the
// script names the moment where it stands (the events run by the lines
// before it); a "#@when NAME GOAL" line names the first event, from where
// it stands on, at which GOAL (an expect goal without the word) holds,
// which the engine finds (firstEvents), and a caption right after it (no
// command between) narrates from that event; a "#@caption TEXT" line narrates from where it stands until
// the next caption. The widget opens at the moment its open attribute
// names (start, end, a mark or a when), and shows beside the diagram the caption
// in force at the event it shows.

import { h, setText } from "./dom.js";

/** Captions keeps a scenario's marks and captions, and draws the one in
 * force. */
export class Captions {
  constructor() {
    this.marks = new Map(); // name -> event
    this.whens = new Map(); // name -> {from, goal, at}
    this.pendingWhen = null; // the #@when a caption now would follow
    this.list = []; // {at, text}, in script order (so by at)
    this.text = h("p.caption-text");
    this.el = h("div.caption", { "data-role": "caption", hidden: true }, this.text);
    this.current = -1;
  }

  clear() {
    this.marks.clear();
    this.whens.clear();
    this.pendingWhen = null;
    this.list = [];
    this.current = -1;
  }

  /** directive reads one #@mark or #@caption line run at event at; false
   * if the line is neither. */
  directive(line, at) {
    const m = /^#@(mark|caption|when)(?:\s+(.*))?$/.exec(line.trim());
    if (!m) {
      return false;
    }
    const arg = (m[2] || "").trim();
    if (m[1] === "when") {
      const w = /^(\S+)\s+(.+)$/.exec(arg);
      if (w) {
        this.whens.set(w[1], { from: at, goal: `expect ${w[2]}`, at: null });
        this.pendingWhen = w[1];
      }
    } else if (m[1] === "mark") {
      if (arg) {
        this.marks.set(arg, at);
      }
    } else if (arg && this.pendingWhen) {
      this.list.push({ at: Infinity, when: this.pendingWhen, text: arg });
    } else if (arg) {
      this.list.push({ at, text: arg });
    }
    return true;
  }

  /** moment is the event a widget opens at for open=name: null for the
   * end (or a name that is no mark). */
  moment(name) {
    if (name === "start") {
      return 0;
    }
    if (this.whens.has(name)) {
      return this.whens.get(name).at;
    }
    return this.marks.has(name) ? this.marks.get(name) : null;
  }

  /** command says a command of the script ran: a caption now no longer
   * follows a #@when. */
  command() {
    this.pendingWhen = null;
  }

  /** when is the condition open=name names, {from, goal, at}, or null. */
  when(name) {
    return this.whens.get(name) || null;
  }

  /** resolve asks the engine where each #@when holds first, all in one
   * call (firstEvents takes [{goal, from}] and resolves with {at: [event
   * or -1], error?, said?}), and puts the captions that follow one at
   * that event. A when that never holds keeps its captions out; so do
   * those the engine did not reach when its budget stopped the look,
   * and then resolve throws why (message and said, the engine's). */
  async resolve(firstEvents) {
    const whens = [...this.whens.values()];
    const r = whens.length ? await firstEvents(whens.map((w) => ({ goal: w.goal, from: w.from }))) : { at: [] };
    for (const [i, [name, w]] of [...this.whens].entries()) {
      const n = r.at[i] ?? -1;
      w.at = n >= 0 ? n : null;
      for (const c of this.list) {
        if (c.when === name) {
          c.at = n >= 0 ? n : Infinity;
        }
      }
    }
    this.list.sort((a, b) => a.at - b.at);
    this.current = -1;
    if (r.error) {
      throw Object.assign(new Error(r.error), { said: r.said || null });
    }
  }

  /** at is the caption in force at event pos: the last one standing at or
   * before it. */
  at(pos) {
    let i = -1;
    for (let j = 0; j < this.list.length && this.list[j].at <= pos; j++) {
      i = j;
    }
    return i;
  }

  /** render shows the caption in force at pos; it returns its text when
   * it is not the one shown before, for the live region. */
  render(pos) {
    const i = this.at(pos);
    this.el.hidden = i < 0;
    if (i === this.current) {
      return "";
    }
    this.current = i;
    setText(this.text, i < 0 ? "" : this.list[i].text);
    return i < 0 ? "" : this.list[i].text;
  }
}
