// timeline.js: moving through the timeline: the Reset, Back, Play and Step
// buttons, the speed, the slider with the clock beside it, the keyboard
// (Space plays, arrows step, Home and End), and the list of the latest
// events.

import { h, setAttr, setText } from "./dom.js";
import { formatTime } from "./format.js";
import { eventLine, translator } from "./i18n.js";

const SPEEDS = [1, 2, 5, 10, 50, 200, 1000, 10000];

/** NODE_TIME are the speeds by the node's own clock: ms of its time
 * played in a second, a value "tN" of the speed list. A run of a million
 * events cannot be watched event by event; at these speeds a second of
 * the node's life takes a second, ten or a thousand. */
const NODE_TIME = [1, 10, 100, 1000];
const EVENT_LIST = 8;

/** Player is the timeline controls of one widget. The host is the
 * element: pos and end (events), busy, seekTo(n, speak), stepForward(),
 * stepBack(), reset() and announceEvent(). */
export class Player {
  constructor(uid, host, speed) {
    this.host = host;
    this.playing = false;
    this.timer = 0;
    this.scrubFrame = 0;
    this.announceTimer = 0;
    const tr = (this.tr = host.tr || translator("en"));
    const btn = (cls, icon, label, key, on) =>
      h(`button.${cls}`, { type: "button", "aria-keyshortcuts": key || null, title: key ? `${label} (${tr("key." + key)})` : label, onclick: on }, h("span.icon", { "aria-hidden": "true", text: icon }), h("span.label", { text: label }));
    this.resetBtn = btn("reset", "⟲", tr("player.reset"), "", () => host.reset());
    this.back = btn("back", "◀", tr("player.back"), "ArrowLeft", () => host.stepBack());
    this.playBtn = btn("play", "▶", tr("player.play"), "Space", () => (this.playing ? this.pause() : this.play()));
    this.playBtn.setAttribute("aria-pressed", "false");
    this.playLabel = this.playBtn.querySelector(".label");
    this.step = btn("step", "▶|", tr("player.step"), "ArrowRight", () => host.stepForward());
    this.speed = h(
      "select.speed",
      { id: `s-${uid}`, onchange: () => this.playing && (this.pause(), this.play()) },
      SPEEDS.map((s) => h("option", { value: s, text: tr("player.speed", { n: s }), selected: s === 10 })),
      h(
        "optgroup",
        { label: tr("player.nodeTime") },
        NODE_TIME.map((ms) => h("option", { value: `t${ms}`, text: tr("player.speedTime", { n: ms }) })),
      ),
    );
    if (speed && /^\d+$/.test(speed)) {
      const v = Number(speed);
      if (!SPEEDS.includes(v)) {
        this.speed.append(h("option", { value: v, text: tr("player.speed", { n: v }) }));
      }
      this.speed.value = String(v);
    }
    this.slider = h("input.timeline", {
      type: "range",
      min: 0,
      max: 0,
      value: 0,
      step: 1,
      id: `r-${uid}`,
      "aria-label": tr("player.timeline"),
      oninput: () => this.scrub(),
      onchange: () => this.scrub(),
    });
    this.clock = h("span.clock", { "data-role": "clock" });
    this.buttons = h("div.buttons", null, this.resetBtn, this.back, this.playBtn, this.step, h("label.speed-label", { for: `s-${uid}` }, h("span.sr-only", { text: tr("player.speedLabel") }), this.speed));
    this.scrubber = h("div.scrub", null, this.slider, this.clock);
  }

  setEnabled(on) {
    for (const b of [this.resetBtn, this.back, this.playBtn, this.step, this.slider]) {
      b.disabled = !on;
    }
  }

  /** show puts the slider and the clock at event pos of end, time µs. */
  show(pos, end, time, busy) {
    this.slider.max = String(end);
    this.slider.value = String(pos);
    this.slider.setAttribute("aria-valuetext", this.tr("player.valueText", { pos, end }));
    setText(this.clock, this.tr("player.clock", { pos, end, time: formatTime(time) }));
    this.back.disabled = busy || pos === 0;
  }

  async play() {
    const host = this.host;
    if (this.playing || !host.id_) {
      return;
    }
    this.playing = true;
    const run = (this.run = (this.run || 0) + 1); // one loop of ticks at a time
    const on = () => this.playing && this.run === run;
    this.playBtn.setAttribute("aria-pressed", "true");
    setText(this.playLabel, this.tr("player.pause"));
    this.playBtn.querySelector(".icon").textContent = "❚❚";
    if (host.pos >= host.end) {
      await host.seekTo(0, false);
      if (!on()) {
        return;
      }
    }
    let last = performance.now();
    let clock = null; // by the node's time: where playing has got to (µs)
    const tick = async () => {
      if (!on()) {
        return;
      }
      const now = performance.now();
      const value = this.speed.value;
      const speed = value.startsWith("t") ? 10 : Number(value); // by time: ten looks a second
      const n = Math.max(1, Math.round(((now - last) / 1000) * speed));
      const wall = now - last;
      last = now;
      if (host.pos >= host.end && host.rest) {
        // the rest of the script is still running: wait for its events
        this.timer = setTimeout(tick, 100);
        return;
      }
      if (host.pos >= host.end) {
        this.pause();
        host.announce(this.tr("player.end", { where: host.positionText() }));
        return;
      }
      const t0 = performance.now();
      let target = Math.min(host.pos + n, host.end);
      if (value.startsWith("t")) {
        // the node's time moves on at the speed's pace; the last event
        // that has started by then is shown (none new: wait for it)
        clock = Math.max(clock ?? 0, (host.snap && host.snap.time) || 0) + (wall / 1000) * Number(value.slice(1)) * 1000;
        target = Math.min(Math.max(await host.engine.eventAt(host.id_, Math.floor(clock)), host.pos), host.end);
        if (!on()) {
          return;
        }
        if (target === host.pos) {
          // nothing starts yet: the clock shows the node's time going on
          setText(this.clock, this.tr("player.clock", { pos: host.pos, end: host.end, time: formatTime(Math.floor(clock)) }));
          this.timer = setTimeout(tick, 100);
          return;
        }
      }
      const to = host.guide ? host.guide.playTo(host.pos, target) : target;
      await host.seekTo(to, false);
      if (!on()) {
        return;
      }
      if (host.guide && to < host.end && host.guide.holds(to)) {
        // guided: the reader reads the caption, or answers, and continues
        this.pause(true);
        host.guide.hold(to);
        return;
      }
      const cost = performance.now() - t0;
      const interval = Math.max(1000 / Math.min(speed, 30) - cost, 0, cost * 0.5);
      this.timer = setTimeout(tick, interval);
    };
    this.timer = setTimeout(tick, this.speed.value.startsWith("t") ? 100 : 1000 / Math.min(Number(this.speed.value), 30));
  }

  /** pause stops playing; quiet leaves the live region to the caller. */
  pause(quiet = false) {
    if (!this.playing) {
      return;
    }
    this.playing = false;
    clearTimeout(this.timer);
    this.playBtn.setAttribute("aria-pressed", "false");
    setText(this.playLabel, this.tr("player.play"));
    this.playBtn.querySelector(".icon").textContent = "▶";
    if (!quiet) {
      this.host.announceEvent();
    }
  }

  /** scrub follows the slider: one seek a frame at most, to where the
   * slider is by then (a seek in a long run takes a while). */
  scrub() {
    this.pause();
    if (this.scrubFrame) {
      return;
    }
    this.scrubFrame = requestAnimationFrame(() => {
      this.scrubFrame = 0;
      const n = Number(this.slider.value);
      if (n !== this.host.pos) {
        this.host.seekTo(n, false);
      }
      clearTimeout(this.announceTimer);
      this.announceTimer = setTimeout(() => this.host.announceEvent(), 400);
    });
  }

  /** shortcut handles a key pressed anywhere in the widget. */
  shortcut(e) {
    const host = this.host;
    const t = e.composedPath()[0];
    const tag = t && t.tagName;
    if (tag === "INPUT" || tag === "SELECT" || tag === "TEXTAREA" || e.altKey || e.ctrlKey || e.metaKey) {
      return;
    }
    if (t.closest && t.closest("[data-keys=native]") && e.key !== " ") {
      return; // a scrolling region keeps its arrows, Home and End
    }
    if (e.key === " " && tag !== "BUTTON") {
      e.preventDefault();
      this.playing ? this.pause() : this.play();
    } else if (e.key === "ArrowRight") {
      e.preventDefault();
      this.pause();
      host.stepForward();
    } else if (e.key === "ArrowLeft") {
      e.preventDefault();
      this.pause();
      host.stepBack();
    } else if (e.key === "Home") {
      e.preventDefault();
      this.pause();
      host.seekTo(0, true);
    } else if (e.key === "End") {
      e.preventDefault();
      this.pause();
      host.seekTo(host.end, true);
    }
  }
}

/** EventList is the list of the latest events, the current one last. */
export class EventList {
  constructor(tr = translator("en")) {
    this.tr = tr;
    this.el = h("ol.events", { "data-role": "events", "aria-label": tr("events.latest") });
    this.last = "";
  }

  /** fetch asks the engine to describe the events the list shows at pos. */
  async fetch(engine, id, pos) {
    if (pos <= 0) {
      return [];
    }
    try {
      return await engine.events(id, Math.max(1, pos - EVENT_LIST + 1), pos);
    } catch {
      return [];
    }
  }

  /** render lists the events fetch found, the current one last. The
   * list keeps its items and changes their text: the browser lays out
   * only what changed. */
  render(evs) {
    this.last = evs.length ? evs[evs.length - 1].text : "";
    // in Chinese, warren's words of the line are said in Chinese and the
    // English line (as a broker's trace would compare) is the title
    const items = evs.map((e, i) => {
      const said = eventLine(e, this.tr.lang);
      const now = i === evs.length - 1;
      return { cls: now ? "now" : null, text: said.text, title: said.title || null, current: now ? "step" : null };
    });
    if (!items.length) {
      items.push({ cls: "none", text: this.tr("events.none"), title: null, current: null });
    }
    const lis = this.el.children;
    items.forEach((it, i) => {
      const li = lis[i] || this.el.appendChild(document.createElement("li"));
      setAttr(li, "class", it.cls);
      setText(li, it.text);
      setAttr(li, "title", it.title);
      setAttr(li, "aria-current", it.current);
    });
    while (lis.length > items.length) {
      this.el.lastElementChild.remove();
    }
  }
}
