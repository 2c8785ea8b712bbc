// markers.js: the moments of a run a learner should notice, as the engine
// found them while it recorded the run (credit running out and granted
// back, a reader blocked and unblocked, an alarm, a file rolling, GC, a
// queue crashing, a confirm). They are ticks on a strip under the
// timeline, each naming itself; Previous and Next buttons and the [ and ]
// keys jump from one to the next, and the marker reached is said in words.

import { h, setText } from "./dom.js";
import { engineSays, translator } from "./i18n.js";

/** MAX_TICKS bounds the ticks drawn: one per pixel column at most. */
const MAX_TICKS = 400;

/** Markers draws a run's markers and moves between them. The host is the
 * element: pos, act(fn), doSeek(n, speak), pause() and announce(text). */
export class Markers {
  constructor(host) {
    this.host = host;
    const tr = (this.tr = host.tr || translator("en"));
    this.list = [];
    this.fetchedEnd = -1;
    this.strip = h("div.marker-strip", { "aria-hidden": "true" });
    this.prevBtn = h("button.marker-prev", { type: "button", "aria-keyshortcuts": "[", title: tr("markers.prevTitle"), onclick: () => this.jump(-1) }, h("span.icon", { "aria-hidden": "true", text: "◆◀" }), h("span.label", { text: tr("markers.prev") }));
    this.nextBtn = h("button.marker-next", { type: "button", "aria-keyshortcuts": "]", title: tr("markers.nextTitle"), onclick: () => this.jump(1) }, h("span.label", { text: tr("markers.next") }), h("span.icon", { "aria-hidden": "true", text: "▶◆" }));
    this.here = h("p.marker-here", { "data-role": "marker" });
    this.el = h("div.markers", { "data-role": "markers", hidden: true }, this.strip, h("div.marker-nav", null, this.prevBtn, this.here, this.nextBtn));
  }

  /** update fetches the markers when the timeline grew or was cut, and
   * draws where pos is among them. */
  async update(engine, id, pos, end) {
    if (end !== this.fetchedEnd) {
      this.fetchedEnd = end;
      try {
        this.list = (await engine.markers(id)) || [];
      } catch {
        this.list = [];
      }
      this.list = this.list.filter((m) => m.event <= end).map((m) => ({ ...m, text: engineSays(m.said, this.host.lang) }));
      this.drawTicks(end);
    }
    this.show(pos);
  }

  drawTicks(end) {
    const ticks = [];
    let lastCol = -1;
    for (const m of this.list) {
      const col = end > 0 ? Math.round((m.event / end) * MAX_TICKS) : 0;
      if (col === lastCol) {
        continue;
      }
      lastCol = col;
      ticks.push(h(`span.tick.k-${m.kind}`, { style: `left: ${end > 0 ? (m.event / end) * 100 : 0}%`, title: this.tr("markers.tick", { event: m.event, text: m.text }) }));
    }
    this.strip.replaceChildren(...ticks);
    this.el.hidden = this.list.length === 0;
  }

  /** at is the marker at event pos, if one is there. */
  at(pos) {
    return this.list.find((m) => m.event === pos) || null;
  }

  show(pos) {
    const m = this.at(pos);
    const n = this.list.filter((x) => x.event === pos).length;
    this.prevBtn.disabled = !this.list.some((x) => x.event < pos);
    this.nextBtn.disabled = !this.list.some((x) => x.event > pos);
    setText(this.here, m ? (n > 1 ? this.tr("markers.hereMore", { text: m.text, more: n - 1 }) : m.text) : this.tr("markers.count", { n: this.list.length }));
    this.here.classList.toggle("on", !!m);
    if (m) {
      this.here.dataset.kind = m.kind;
    } else {
      delete this.here.dataset.kind;
    }
  }

  /** target is the event of the marker after (dir 1) or before (dir -1)
   * pos, or null. */
  target(pos, dir) {
    if (dir > 0) {
      const m = this.list.find((x) => x.event > pos);
      return m ? m.event : null;
    }
    for (let i = this.list.length - 1; i >= 0; i--) {
      if (this.list[i].event < pos) {
        return this.list[i].event;
      }
    }
    return null;
  }

  /** jump goes to the next (dir 1) or previous (dir -1) marker, after
   * whatever the widget was asked to do before (a seek still running). */
  jump(dir) {
    const host = this.host;
    host.pause();
    return host.act(async () => {
      const n = this.target(host.pos, dir);
      if (n === null) {
        host.announce(this.tr(dir > 0 ? "markers.noneAfter" : "markers.noneBefore"));
        return;
      }
      await host.doSeek(n, false);
      const here = this.list.filter((m) => m.event === n).map((m) => m.text);
      host.announce(this.tr("markers.at", { event: n, text: here.join(this.tr("list.semicolon")) }));
    });
  }

  /** shortcut handles [ and ]; true when it took the key. */
  shortcut(e) {
    const t = e.composedPath()[0];
    const tag = t && t.tagName;
    if (tag === "INPUT" || tag === "SELECT" || tag === "TEXTAREA" || e.altKey || e.ctrlKey || e.metaKey) {
      return false;
    }
    if (e.key === "]" || e.key === "[") {
      e.preventDefault();
      this.jump(e.key === "]" ? 1 : -1);
      return true;
    }
    return false;
  }
}
