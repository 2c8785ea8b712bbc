// diagram.js: the node drawn: its schedulers and memory, and every process
// as a box in a column by kind, with its mailbox, a queue's priority lanes
// and consumers, and the credit it holds.

import { mark, NONE } from "./changes.js";
import { h, Keyed, setAttr, setClass, setStyle, setText, syncChips, syncChildren } from "./dom.js";
import { Terms } from "./terms.js";
import { alarmsOf, formatBytes, kindHue, nodesOf, pct, procName } from "./format.js";
import { translator } from "./i18n.js";

/** COLUMNS are the kinds of process with a column each; the catalog has
 * each one's title (diagram.col.KIND) and help (diagram.help.KIND). */
const COLUMNS = ["reader", "channel", "queue", "writer"];

/** FOLD_LEVELS is the most priority levels a queue's drawing gives a row
 * each; past it, runs of empty levels share one. */
const FOLD_LEVELS = 16;

/** Diagram is the drawing of the node; el is its element. Everything
 * drawn keeps its element from one render to the next (a process its
 * box, a queue its lanes and consumers, a link its credit gauge), and a
 * render changes only the text, attributes and styles that differ: what
 * changes can move, a focused term keeps the focus, and the browser lays
 * out again only what changed. */
export class Diagram {
  /** tr says the words; terms (terms.js) name flow control, the
   * prefetch limit and alarms. */
  constructor(tr = translator("en"), terms = null) {
    this.tr = tr;
    this.terms = terms || new Terms("d", tr);
    this.boxes = new Map();
    this.snap = null;
    this.schedTitle = h("h3");
    this.sched = h("div.sched", { "data-role": "schedulers" }, this.schedTitle);
    this.memTitle = h("h3", { text: tr("diagram.memory") });
    this.memory = h("div.memory", { "data-role": "memory" }, this.memTitle);
    this.rows = new Keyed(); // the scheduler and memory rows, by gauge
    this.alarmBadge = this.terms.describe(h("p.badge.alarm"), "alarm");
    this.okBadge = h("p.badge.ok", { text: tr("diagram.noAlarm") });
    this.columns = COLUMNS.map((kind) =>
      h(`section.col.col-${kind}`, { "aria-label": tr(`diagram.col.${kind}`) }, h("h3", { text: tr(`diagram.col.${kind}`), title: tr(`diagram.help.${kind}`) }), h("div.boxes", { "data-kind": kind })),
    );
    this.other = h("section.col.col-other", { "aria-label": tr("diagram.otherLabel"), hidden: true }, h("h3", { text: tr("diagram.others") }), h("div.boxes"));
    this.empty = h("p.empty", { text: tr("diagram.empty") });
    this.el = h(
      "div.diagram",
      { "data-role": "diagram", role: "group", "aria-label": tr("diagram.label") },
      h("div.nodebar", null, this.sched, this.memory),
      this.empty,
      h("div.flow", null, this.columns, this.other),
    );
  }

  /** render draws snapshot s, marking what changed (changes.js) since
   * the state drawn before; gen numbers the render. A state drawn with
   * nothing marked (NONE: opening, resetting) is drawn still, without the
   * chips' entrance: a lesson's diagram holds hundreds of chips, and
   * starting an animation on each makes the browser's first layout of
   * the widget twice as long. */
  render(s, changed = NONE, gen = 0) {
    this.snap = s;
    this.changed = changed;
    this.gen = gen;
    this.renderNode(s);

    // The processes, in columns.
    const queues = new Map(s.queues.map((q) => [q.pid, q]));
    const creditFrom = new Map();
    for (const c of s.credit || []) {
      if (!creditFrom.has(c.from)) {
        creditFrom.set(c.from, []);
      }
      creditFrom.get(c.from).push(c);
    }
    const seen = new Set();
    const byColumn = new Map(COLUMNS.map((kind) => [kind, []]));
    const other = [];
    for (const p of s.processes) {
      seen.add(p.pid);
      const box = this.box(p, queues.get(p.pid), creditFrom.get(p.pid) || []);
      (byColumn.get(p.kind) || other).push(box.el);
    }
    for (const [pid, box] of this.boxes) {
      if (!seen.has(pid)) {
        box.el.remove();
        this.boxes.delete(pid);
      }
    }
    this.columns.forEach((col, i) => {
      const list = byColumn.get(COLUMNS[i]);
      syncChildren(col.lastElementChild, list);
      col.hidden = list.length === 0;
    });
    syncChildren(this.other.lastElementChild, other);
    this.other.hidden = other.length === 0;
    this.empty.hidden = s.processes.length > 0;
  }

  /** travel shows what an event handled going from the box of the
   * process that sent it to the box of the one that handled it: a token
   * moves from one to the other (once, for a step; the boxes have
   * changed in place by then). Nothing moves for a reader who asks for
   * less motion, or when either box is not drawn. The token goes over
   * the diagram, in the element around it (the widget's stage), not in
   * the drawing, which stays what the state draws. */
  travel(from, to) {
    const a = this.boxes.get(from);
    const b = this.boxes.get(to);
    const over = this.el.parentElement;
    if (!a || !b || a === b || !over || !this.el.animate || matchMedia("(prefers-reduced-motion: reduce)").matches) {
      return null;
    }
    const base = over.getBoundingClientRect();
    const centre = (el) => {
      const r = el.getBoundingClientRect();
      return [r.left - base.left + r.width / 2, r.top - base.top + Math.min(r.height / 2, 24)];
    };
    const [x1, y1] = centre(a.el);
    const [x2, y2] = centre(b.el);
    const token = h("span.token", { "aria-hidden": "true", "data-from": from, "data-to": to });
    over.append(token);
    const move = token.animate(
      [
        { transform: `translate(${x1}px, ${y1}px)`, opacity: 0.2 },
        { transform: `translate(${x1}px, ${y1}px)`, opacity: 1, offset: 0.15 },
        { transform: `translate(${x2}px, ${y2}px)`, opacity: 1, offset: 0.85 },
        { transform: `translate(${x2}px, ${y2}px)`, opacity: 0 },
      ],
      { duration: 600, easing: "ease-in-out" },
    );
    move.finished.then(
      () => token.remove(),
      () => token.remove(),
    );
    return token;
  }

  /** renderNode draws the node's schedulers and memory. */
  renderNode(s) {
    const tr = this.tr;
    const changed = this.changed;
    setText(this.schedTitle, tr("diagram.schedulers", { n: s.schedulers.length }));
    const sched = s.schedulers.map((sc, i) => {
      const p = pct(sc.util, 1);
      const running = sc.running ? procName(s, sc.running) : tr("diagram.idle");
      const r = this.meterRow(`sched:${i}`);
      setText(r.k, sc.node ? `S${i + 1} ${sc.node.replace(/@.*/, "")}` : `S${i + 1}`);
      this.gauge(r, "gauge", 100, p.toFixed(0), sc.node ? tr("diagram.schedOf", { i: i + 1, node: sc.node }) : tr("diagram.sched", { i: i + 1 }), p);
      setText(r.v, `${p.toFixed(1)}% · ${running}`);
      syncChildren(r.el, [r.k, r.gauge, r.v]);
      mark(r.el, changed.gauges.has(`sched:${i}`), this.gen);
      return r.el;
    });
    syncChildren(this.sched, [this.schedTitle, ...sched]);

    const nodes = nodesOf(s);
    const alarms = alarmsOf(s);
    const mem = [this.memTitle];
    for (const n of nodes) {
      const label = nodes.length > 1 ? n.name : tr("diagram.memoryLower");
      const alarm = n.alarms && n.alarms.length;
      if (n.watermark > 0) {
        const p = pct(n.memory, n.watermark);
        const r = this.meterRow(`mem:${n.name}`);
        setText(r.k, n.name.replace(/@.*/, ""));
        setClass(r.k, "k node");
        this.gauge(r, alarm ? "gauge alarm" : p > 80 ? "gauge high" : "gauge", n.watermark, n.memory, tr("diagram.memGauge", { label }), p);
        setText(r.v, tr("diagram.memOf", { used: formatBytes(n.memory), watermark: formatBytes(n.watermark) }));
        syncChildren(r.el, nodes.length > 1 ? [r.k, r.gauge, r.v] : [r.gauge, r.v]);
        mark(r.el, changed.gauges.has(`mem:${n.name}`), this.gen);
        mem.push(r.el);
      } else {
        const el = this.rows.get(`memtext:${n.name}`, () => h("p.v"));
        setText(el, `${nodes.length > 1 ? n.name + ": " : ""}${tr("diagram.memNoWatermark", { used: formatBytes(n.memory) })}`);
        mem.push(el);
      }
    }
    this.rows.prune();
    if (alarms.length) {
      const everywhere = tr(nodes.length > 1 ? "diagram.blockedEverywhere" : "diagram.blocked");
      setText(this.alarmBadge, tr("diagram.alarm", { alarms: alarms.join(tr("list.comma")), everywhere }));
      mem.push(this.alarmBadge);
    } else {
      mem.push(this.okBadge);
    }
    syncChildren(this.memory, mem);
  }

  /** meterRow is the row of a gauge (key as changes.js names it): a
   * label, the meter and its value. */
  meterRow(key) {
    return this.rows.get(key, () => {
      const r = meter({ k: h("span.k"), v: h("span.v") });
      r.el = h("div.meter-row", { "data-gauge": key }, r.k, r.gauge, r.v);
      return r;
    });
  }

  /** gauge sets a meter (r.gauge, r.fill): its classes, maximum, value,
   * label and how full it is drawn, in percent. */
  gauge(r, cls, max, now, label, p) {
    setClass(r.gauge, cls);
    setAttr(r.gauge, "aria-valuemax", max);
    setAttr(r.gauge, "aria-valuenow", now);
    setAttr(r.gauge, "aria-label", label);
    setStyle(r.fill, "width", `${p}%`);
  }

  /** box updates (or makes) the drawing of one process. */
  box(p, q, credits) {
    let b = this.boxes.get(p.pid);
    if (!b) {
      b = {
        name: h("h4.name"),
        state: h("span.state"),
        flag: h("span.flag"),
        len: h("span.len"),
        chips: h("div.chips"),
        sock: h("div.socket", { hidden: true }),
        qb: h("div.queue-body"),
        cr: h("div.credits"),
        queue: null, // the parts of a queue's body, once it has one
        credits: new Keyed(),
      };
      b.mailbox = h("div.mailbox", null, h("span.k", { text: this.tr("diagram.mailbox") }), b.len, b.chips);
      b.el = h(`article.proc.kind-${p.kind}`, { "data-pid": p.pid, "data-name": p.name }, h("header", null, b.name, b.state, b.flag), b.mailbox, b.sock, b.qb, b.cr);
      this.boxes.set(p.pid, b);
    }
    const el = b.el;
    setAttr(el, "data-name", p.name); // a new simulation may give the pid to another process
    setClass(el, `proc kind-${p.kind} state-${p.state}${p.blocked ? " blocked" : ""}`);
    mark(el, this.changed.procs.has(p.pid), this.gen);
    setText(b.name, p.node ? `${p.name} @ ${p.node}` : p.name);
    setText(b.state, p.state);
    setAttr(b.state, "title", this.tr("diagram.stateTitle", { state: p.state }));
    if (p.blocked !== (b.flag.childElementCount > 0)) {
      b.flag.replaceChildren(...(p.blocked ? [this.terms.term("flow")] : []));
    }
    setText(b.len, String(p.mailbox));
    setAttr(b.mailbox, "data-len", p.mailbox);
    const chips = (p.head || []).map((k) => ({ cls: "chip", text: k, style: `--h:${kindHue(k)}` }));
    if (p.mailbox > chips.length) {
      chips.push({ cls: "chip more", text: `+${p.mailbox - chips.length}` });
    }
    if (!chips.length) {
      chips.push({ cls: "empty-chips", text: this.tr("diagram.emptyMailbox") });
    }
    syncChips(b.chips, chips, null, this.changed === NONE);
    b.sock.hidden = !(p.kind === "reader");
    if (p.kind === "reader") {
      setText(b.sock, p.socket ? this.tr(p.blocked ? "diagram.socketFlow" : "diagram.socket", { n: p.socket }) : this.tr("diagram.socketEmpty"));
    }
    if (q) {
      this.queueBody(b, q);
    } else if (b.queue) {
      b.qb.replaceChildren();
      b.queue = null;
    }
    b.qb.hidden = !q;
    syncChildren(b.cr, credits.map((c) => this.credit(b, c)));
    b.credits.prune();
    b.cr.hidden = credits.length === 0;
    return b;
  }

  /** credit updates (or makes) the gauge of the credit process b holds
   * with another (credit_flow). */
  credit(b, c) {
    const key = `credit:${c.from}>${c.to}`;
    const g = b.credits.get(key, () => {
      const r = meter({ k: h("span.k"), n: document.createTextNode(""), v: h("span.v"), flags: "" });
      r.v.append(r.n);
      r.el = h("div.credit", { "data-gauge": key }, r.k, r.gauge, r.v);
      return r;
    });
    const to = procName(this.snap, c.to);
    setClass(g.el, c.blocked ? "credit blocked" : "credit");
    setAttr(g.el, "data-to", to);
    mark(g.el, this.changed.gauges.has(key), this.gen);
    setText(g.k, this.tr("diagram.credit", { to }));
    this.gauge(g, "gauge", c.initial, c.credit, this.tr("diagram.creditLabel", { to }), pct(c.credit, c.initial));
    setText(g.n, `${c.credit}/${c.initial}`);
    const flags = `${c.blocked ? "f" : ""}${c.credit < 0 ? "n" : ""}`;
    if (g.flags !== flags) {
      g.flags = flags;
      g.v.replaceChildren(g.n, ...(c.blocked ? [" ", this.terms.term("flow")] : []), ...(c.credit < 0 ? [" ", this.terms.term("negative")] : []));
    }
    return g.el;
  }

  /** queueBody draws a queue's counts, priority lanes and consumers in
   * box b. */
  queueBody(b, q) {
    const tr = this.tr;
    const parts = (b.queue ||= this.queueParts());
    this.queueCounts(parts, q);
    // Heads come next-first: the highest non-empty level first, FIFO
    // within a level; give each lane its share.
    const heads = (q.heads || []).map((body, i) => ({ body, props: readProps((q.headProps || [])[i]) }));
    const next = heads[0]; // the lanes take the heads from the list
    const lanes = this.queueLanes(parts, q, heads);
    parts.lanes.prune();
    syncChildren(parts.lanesBox, lanes);
    const body = [parts.counts, parts.lanesBox];
    if (next && (q.headProps || []).length) {
      setText(parts.nextBody, next.body);
      setText(parts.nextWords, ` — ${propWords(next.props, tr).join(tr("list.comma"))}`);
      body.push(parts.next);
    }
    if (q.consumers && q.consumers.length) {
      syncChildren(parts.consumersBox, q.consumers.map((c) => this.consumer(parts, q, c)));
      body.push(parts.consumersBox);
    }
    parts.consumers.prune();
    syncChildren(b.qb, body);
  }

  /** queueParts makes the parts of a queue's box, kept from one drawing
   * to the next. */
  queueParts() {
    const tr = this.tr;
    const parts = {
      ready: h("span.ready"),
      unacked: h("span.unacked"),
      bytes: h("span"),
      policy: h("span.policy"),
      lanesBox: h("div.lanes", { "aria-label": tr("diagram.lanes") }),
      lanes: new Keyed(),
      nextBody: h("code"),
      nextWords: document.createTextNode(""),
      consumersBox: h("div.consumers"),
      consumers: new Keyed(),
    };
    parts.counts = h("p.counts", null, parts.ready, " · ", parts.unacked, " · ", parts.bytes);
    parts.next = h("p.head-props", { "data-role": "next-message" }, h("span.k", { text: tr("chip.next") }), " ", parts.nextBody, parts.nextWords);
    return parts;
  }

  /** queueCounts says a queue's ready and unacknowledged messages, its
   * bytes and its policy. */
  queueCounts(parts, q) {
    const tr = this.tr;
    setAttr(parts.ready, "data-count", q.ready);
    setText(parts.ready, tr("diagram.ready", { n: q.ready }));
    setText(parts.unacked, tr("diagram.unacked", { n: q.unacked }));
    setText(parts.bytes, formatBytes(q.bytes));
    if (q.policy) {
      setText(parts.policy, ` · ${tr("diagram.policy", { policy: q.policy })}`);
    }
    syncChildren(parts.counts, q.policy ? [parts.ready, parts.unacked, parts.bytes, parts.policy] : [parts.ready, parts.unacked, parts.bytes]);
  }

  /** queueLanes are the rows of a queue's priority levels, highest
   * first, each with its share of heads (which it takes from the list).
   * A queue of many levels (up to 255) draws a run of empty levels that
   * did not just change as one row: 256 rows would say nothing more, and
   * take the page's main thread for longer than a frame. */
  queueLanes(parts, q, heads) {
    const levels = q.levels && q.levels.length ? q.levels : [q.ready];
    const lanes = [];
    const fold = levels.length > FOLD_LEVELS;
    const quiet = (lvl) => levels[lvl] === 0 && !this.changed.lanes.has(`${q.pid}/${lvl}`);
    for (let lvl = levels.length - 1; lvl >= 0; lvl--) {
      if (fold && quiet(lvl) && lvl > 0 && quiet(lvl - 1)) {
        const hi = lvl;
        while (lvl > 0 && quiet(lvl - 1)) lvl--;
        lanes.push(this.foldedLane(parts, lvl, hi));
      } else {
        lanes.push(this.levelLane(parts, q, levels, lvl, heads.splice(0, Math.min(levels[lvl], heads.length))));
      }
    }
    return lanes;
  }

  /** foldedLane is the one row of the empty levels lo to hi. */
  foldedLane(parts, lo, hi) {
    const lane = parts.lanes.get(`${lo}-${hi}`, () => {
      const r = { k: h("span.k"), n: h("span.n", { text: "0" }), msgs: h("div.msgs") };
      r.el = h("div.lane.empty", { "data-levels": `${lo}-${hi}` }, r.k, r.n, r.msgs);
      return r;
    });
    setText(lane.k, this.tr("diagram.priorities", { from: lo, to: hi }));
    return lane.el;
  }

  /** levelLane is the row of level lvl of a queue's levels, mine the
   * heads it shows. */
  levelLane(parts, q, levels, lvl, mine) {
    const tr = this.tr;
    const n = levels[lvl];
    const chips = mine.map(({ body, props }) => ({
      cls: `msg${props.persistent ? " persistent" : props.transient ? " transient" : ""}${props.others.length ? " props" : ""}`,
      text: `${body.length > 10 ? body.slice(0, 9) + "…" : body}${props.priority !== null ? ` p${props.priority}` : ""}${props.others.length ? " +" : ""}`,
      title: [body, ...propWords(props, tr)].join(tr("list.comma")),
    }));
    if (n > mine.length) {
      chips.push({ cls: "msg more", text: `+${n - mine.length}` });
    }
    const lane = parts.lanes.get(lvl, () => {
      const r = { k: h("span.k"), n: h("span.n"), msgs: h("div.msgs") };
      r.el = h("div.lane", { "data-level": lvl }, r.k, r.n, r.msgs);
      return r;
    });
    setClass(lane.el, n ? "lane" : "lane empty");
    mark(lane.el, this.changed.lanes.has(`${q.pid}/${lvl}`), this.gen);
    setText(lane.k, levels.length > 1 ? tr("diagram.priority", { lvl }) : tr("diagram.messages"));
    setText(lane.n, String(n));
    syncChips(lane.msgs, chips, null, this.changed === NONE);
    return lane.el;
  }


  /** consumer updates (or makes) the drawing of one consumer of queue q:
   * its unacked deliveries against its prefetch limit, and its channel. */
  consumer(parts, q, c) {
    const r = parts.consumers.get(c.tag, () => {
      const r = meter({ k: h("span.k"), v: h("span.v"), dots: h("div.dots"), via: h("span.via"), said: null }, "div.gauge.prefetch");
      r.el = h("div.consumer", { "data-tag": c.tag }, r.k, r.v, r.gauge, r.dots, r.via);
      return r;
    });
    const limit = c.prefetch > 0 ? c.prefetch : null;
    const shown = Math.min(c.unacked, 20);
    const dots = Array.from({ length: shown }, () => ({ cls: "dot", text: "" }));
    if (c.unacked > shown) {
      dots.push({ cls: "dot-more", text: `+${c.unacked - shown}` });
    }
    setClass(r.el, `consumer state-${c.state}`);
    mark(r.el, this.changed.consumers.has(`${q.pid}/${c.tag}`), this.gen);
    setText(r.k, this.tr("diagram.consumer", { tag: c.tag }));
    const said = `${this.tr("diagram.consumerUnacked", { n: c.unacked, limit: limit ?? "∞" })}${c.noAck ? " (no-ack)" : ""} · `;
    if (r.said !== said || r.state !== c.state) {
      // the prefetch term is made again only when the state changes
      if (r.state !== c.state || !r.v.firstChild) {
        r.v.replaceChildren(said, c.state === "blocked" ? this.terms.term("prefetch") : c.state);
      } else {
        r.v.firstChild.nodeValue = said;
      }
      r.said = said;
      r.state = c.state;
    }
    if (limit) {
      this.gauge(r, "gauge prefetch", limit, c.unacked, this.tr("diagram.prefetch", { tag: c.tag }), pct(c.unacked, limit));
    }
    syncChips(r.dots, dots, "dots", this.changed === NONE);
    setText(r.via, c.channel);
    syncChildren(r.el, limit ? [r.k, r.v, r.gauge, r.dots, r.via] : [r.k, r.v, r.dots, r.via]);
    return r.el;
  }
}

/** meter gives row r a meter, r.gauge, drawn by its r.fill (see
 * Diagram.gauge); spec is the meter's tag and classes. */
function meter(r, spec = "div.gauge") {
  r.fill = h("div.fill");
  r.gauge = h(spec, { role: "meter", "aria-valuemin": 0 }, r.fill);
  return r;
}

/** readProps reads what a message was published with, from the
 * snapshot's tab-separated words (engine/node HeadProps). */
export function readProps(words) {
  const out = { priority: null, persistent: false, transient: false, others: [] };
  for (const w of (words || "").split("\t")) {
    if (!w) {
      continue;
    }
    if (w === "persistent") {
      out.persistent = true;
    } else if (w === "transient") {
      out.transient = true;
    } else if (w.startsWith("priority=")) {
      out.priority = Number(w.slice(9));
    } else {
      const eq = w.indexOf("=");
      out.others.push(eq < 0 ? [w, ""] : [w.slice(0, eq), w.slice(eq + 1)]);
    }
  }
  return out;
}

/** propWords says a message's properties: priority, persistence, then
 * each other property set. */
export function propWords(p, tr) {
  const out = [];
  out.push(p.priority !== null ? tr("chip.priority", { priority: p.priority }) : tr("chip.noPriority"));
  if (p.persistent || p.transient) {
    out.push(p.persistent ? tr("chip.persistent") : tr("chip.transient"));
  }
  for (const [k, v] of p.others) {
    out.push(v ? `${k} ${v}` : k);
  }
  return out;
}
