// diagram.js: the node drawn: its schedulers and memory, and every process
// as a box in a column by kind, with its mailbox, a queue's priority lanes
// and consumers, and the credit it holds.

import { mark, NONE } from "./changes.js";
import { h, setText, syncChips, syncChildren } from "./dom.js";
import { Terms } from "./terms.js";
import { alarmsOf, formatBytes, kindHue, nodesOf, pct, procName } from "./format.js";
import { translator } from "./i18n.js";

/** COLUMNS are the kinds of process with a column each; the catalog has
 * each one's title (diagram.col.KIND) and help (diagram.help.KIND). */
const COLUMNS = ["reader", "channel", "queue", "writer"];

/** Diagram is the drawing of the node; el is its element. A process keeps
 * its box from one render to the next, so that what changes can move. */
export class Diagram {
  /** tr says the words; terms (terms.js) name flow control, the
   * prefetch limit and alarms. */
  constructor(tr = translator("en"), terms = null) {
    this.tr = tr;
    this.terms = terms || new Terms("d", tr);
    this.boxes = new Map();
    this.chipBoxes = new Map();
    this.snap = null;
    this.sched = h("div.sched", { "data-role": "schedulers" });
    this.memory = h("div.memory", { "data-role": "memory" });
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
   * the state drawn before; gen numbers the render. */
  render(s, changed = NONE, gen = 0) {
    this.snap = s;
    this.changed = changed;
    this.gen = gen;
    const tr = this.tr;
    // The node: schedulers and memory.
    this.sched.replaceChildren(
      h("h3", { text: tr("diagram.schedulers", { n: s.schedulers.length }) }),
      ...s.schedulers.map((sc, i) => {
        const p = pct(sc.util, 1);
        const running = sc.running ? procName(s, sc.running) : tr("diagram.idle");
        const row = h(
          "div.meter-row",
          { "data-gauge": `sched:${i}` },
          h("span.k", { text: sc.node ? `S${i + 1} ${sc.node.replace(/@.*/, "")}` : `S${i + 1}` }),
          h("div.gauge", { role: "meter", "aria-valuemin": 0, "aria-valuemax": 100, "aria-valuenow": p.toFixed(0), "aria-label": sc.node ? tr("diagram.schedOf", { i: i + 1, node: sc.node }) : tr("diagram.sched", { i: i + 1 }) }, h("div.fill", { style: `width:${p}%` })),
          h("span.v", { text: `${p.toFixed(1)}% · ${running}` }),
        );
        mark(row, changed.gauges.has(`sched:${i}`), gen);
        return row;
      }),
    );
    const nodes = nodesOf(s);
    const alarms = alarmsOf(s);
    const memBits = [h("h3", { text: tr("diagram.memory") })];
    for (const n of nodes) {
      const label = nodes.length > 1 ? n.name : tr("diagram.memoryLower");
      const alarm = n.alarms && n.alarms.length;
      if (n.watermark > 0) {
        const p = pct(n.memory, n.watermark);
        memBits.push(
          h(
            "div.meter-row",
            { "data-gauge": `mem:${n.name}` },
            nodes.length > 1 ? h("span.k.node", { text: n.name.replace(/@.*/, "") }) : null,
            h("div.gauge" + (alarm ? ".alarm" : p > 80 ? ".high" : ""), { role: "meter", "aria-valuemin": 0, "aria-valuemax": n.watermark, "aria-valuenow": n.memory, "aria-label": tr("diagram.memGauge", { label }) }, h("div.fill", { style: `width:${p}%` })),
            h("span.v", { text: tr("diagram.memOf", { used: formatBytes(n.memory), watermark: formatBytes(n.watermark) }) }),
          ),
        );
      } else {
        memBits.push(h("p.v", { text: `${nodes.length > 1 ? n.name + ": " : ""}${tr("diagram.memNoWatermark", { used: formatBytes(n.memory) })}` }));
      }
    }
    for (const row of memBits) {
      if (row.dataset && row.dataset.gauge) {
        mark(row, changed.gauges.has(row.dataset.gauge), gen);
      }
    }
    const everywhere = tr(nodes.length > 1 ? "diagram.blockedEverywhere" : "diagram.blocked");
    memBits.push(alarms.length ? this.terms.describe(h("p.badge.alarm", { text: tr("diagram.alarm", { alarms: alarms.join(tr("list.comma")), everywhere }) }), "alarm") : h("p.badge.ok", { text: tr("diagram.noAlarm") }));
    this.memory.replaceChildren(...memBits);

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
      (byColumn.get(p.kind) || other).push(box);
    }
    for (const [pid, box] of this.boxes) {
      if (!seen.has(pid)) {
        box.remove();
        this.boxes.delete(pid);
      }
    }
    for (const k of this.chipBoxes.keys()) {
      if (!seen.has(Number(k.split("/")[0]))) {
        this.chipBoxes.delete(k);
      }
    }
    this.columns.forEach((col, i) => {
      const list = byColumn.get(COLUMNS[i]);
      syncChildren(col.querySelector(".boxes"), list);
      col.hidden = list.length === 0;
    });
    syncChildren(this.other.querySelector(".boxes"), other);
    this.other.hidden = other.length === 0;
    this.empty.hidden = s.processes.length > 0;
  }

  /** laneChips keeps one chip container per queue lane (or consumer)
   * across renders. */
  laneChips(pid, key) {
    const k = `${pid}/${key}`;
    let box = this.chipBoxes.get(k);
    if (!box) {
      box = h("div.msgs");
      this.chipBoxes.set(k, box);
    }
    return box;
  }

  /** box updates (or makes) the drawing of one process. */
  box(p, q, credits) {
    let b = this.boxes.get(p.pid);
    if (!b) {
      b = h(
        `article.proc.kind-${p.kind}`,
        { "data-pid": p.pid, "data-name": p.name },
        h("header", null, h("h4.name"), h("span.state"), h("span.flag")),
        h("div.mailbox", null, h("span.k", { text: this.tr("diagram.mailbox") }), h("span.len"), h("div.chips")),
        h("div.socket", { hidden: true }),
        h("div.queue-body"),
        h("div.credits"),
      );
      this.boxes.set(p.pid, b);
    }
    if (b.dataset.name !== p.name) {
      b.dataset.name = p.name; // a new simulation may give the pid to another process
    }
    b.className = `proc kind-${p.kind} state-${p.state}${p.blocked ? " blocked" : ""}`;
    mark(b, this.changed.procs.has(p.pid), this.gen);
    setText(b.querySelector(".name"), p.node ? `${p.name} @ ${p.node}` : p.name);
    setText(b.querySelector(".state"), p.state);
    b.querySelector(".state").title = this.tr("diagram.stateTitle", { state: p.state });
    const flag = b.querySelector(".flag");
    if (p.blocked !== (flag.childElementCount > 0)) {
      flag.replaceChildren(...(p.blocked ? [this.terms.term("flow")] : []));
    }
    setText(b.querySelector(".len"), String(p.mailbox));
    b.querySelector(".mailbox").setAttribute("data-len", p.mailbox);
    const chips = (p.head || []).map((k) => ({ cls: "chip", text: k, style: `--h:${kindHue(k)}` }));
    if (p.mailbox > chips.length) {
      chips.push({ cls: "chip more", text: `+${p.mailbox - chips.length}` });
    }
    if (!chips.length) {
      chips.push({ cls: "empty-chips", text: this.tr("diagram.emptyMailbox") });
    }
    syncChips(b.querySelector(".chips"), chips);
    const sock = b.querySelector(".socket");
    sock.hidden = !(p.kind === "reader");
    if (p.kind === "reader") {
      setText(sock, p.socket ? this.tr(p.blocked ? "diagram.socketFlow" : "diagram.socket", { n: p.socket }) : this.tr("diagram.socketEmpty"));
    }
    const qb = b.querySelector(".queue-body");
    qb.replaceChildren(...(q ? this.queueParts(q) : []));
    qb.hidden = !q;
    const cr = b.querySelector(".credits");
    cr.replaceChildren(
      ...credits.map((c) => {
        const pc = pct(c.credit, c.initial);
        const to = procName(this.snap, c.to);
        const key = `credit:${c.from}>${c.to}`;
        return h(
          "div.credit" + (c.blocked ? ".blocked" : ""),
          { "data-to": to, "data-gauge": key, "data-changed": this.changed.gauges.has(key) ? (this.gen % 2 ? "1" : "2") : null },
          h("span.k", { text: this.tr("diagram.credit", { to }) }),
          h("div.gauge", { role: "meter", "aria-valuemin": 0, "aria-valuemax": c.initial, "aria-valuenow": c.credit, "aria-label": this.tr("diagram.creditLabel", { to }) }, h("div.fill", { style: `width:${pc}%` })),
          h("span.v", null, `${c.credit}/${c.initial}`, c.blocked ? [" ", this.terms.term("flow")] : null, c.credit < 0 ? [" ", this.terms.term("negative")] : null),
        );
      }),
    );
    cr.hidden = credits.length === 0;
    return b;
  }

  /** queueParts draws a queue's priority lanes and consumers. */
  queueParts(q) {
    const parts = [];
    parts.push(
      h(
        "p.counts",
        null,
        h("span.ready", { "data-count": q.ready, text: this.tr("diagram.ready", { n: q.ready }) }),
        " · ",
        h("span.unacked", { text: this.tr("diagram.unacked", { n: q.unacked }) }),
        " · ",
        h("span", { text: formatBytes(q.bytes) }),
        q.policy ? h("span.policy", { text: ` · ${this.tr("diagram.policy", { policy: q.policy })}` }) : null,
      ),
    );
    // Heads come next-first: the highest non-empty level first, FIFO
    // within a level; give each lane its share.
    const levels = q.levels && q.levels.length ? q.levels : [q.ready];
    const heads = (q.heads || []).map((body, i) => ({ body, props: readProps((q.headProps || [])[i]) }));
    const next = heads[0]; // the lanes take the heads from the list
    const lanes = [];
    for (let lvl = levels.length - 1; lvl >= 0; lvl--) {
      const n = levels[lvl];
      const mine = heads.splice(0, Math.min(n, heads.length));
      const label = levels.length > 1 ? this.tr("diagram.priority", { lvl }) : this.tr("diagram.messages");
      const chips = mine.map(({ body, props }) => ({
        cls: `msg${props.persistent ? " persistent" : props.transient ? " transient" : ""}${props.others.length ? " props" : ""}`,
        text: `${body.length > 10 ? body.slice(0, 9) + "…" : body}${props.priority !== null ? ` p${props.priority}` : ""}${props.others.length ? " +" : ""}`,
        title: [body, ...propWords(props, this.tr)].join(this.tr("list.comma")),
      }));
      if (n > mine.length) {
        chips.push({ cls: "msg more", text: `+${n - mine.length}` });
      }
      lanes.push(
        h(
          "div.lane" + (n ? "" : ".empty"),
          { "data-level": lvl, "data-changed": this.changed.lanes.has(`${q.pid}/${lvl}`) ? (this.gen % 2 ? "1" : "2") : null },
          h("span.k", { text: label }),
          h("span.n", { text: String(n) }),
          syncChips(this.laneChips(q.pid, lvl), chips),
        ),
      );
    }
    parts.push(h("div.lanes", { "aria-label": this.tr("diagram.lanes") }, lanes));
    if (next && (q.headProps || []).length) {
      parts.push(h("p.head-props", { "data-role": "next-message" }, h("span.k", { text: this.tr("chip.next") }), " ", h("code", { text: next.body }), ` — ${propWords(next.props, this.tr).join(this.tr("list.comma"))}`));
    }
    if (q.consumers && q.consumers.length) {
      parts.push(h("div.consumers", null, q.consumers.map((c) => this.consumer(q, c))));
    }
    return parts;
  }

  consumer(q, c) {
    const limit = c.prefetch > 0 ? c.prefetch : null;
    const shown = Math.min(c.unacked, 20);
    const dots = Array.from({ length: shown }, () => ({ cls: "dot", text: "" }));
    if (c.unacked > shown) {
      dots.push({ cls: "dot-more", text: `+${c.unacked - shown}` });
    }
    return h(
      "div.consumer.state-" + c.state,
      { "data-tag": c.tag, "data-changed": this.changed.consumers.has(`${q.pid}/${c.tag}`) ? (this.gen % 2 ? "1" : "2") : null },
      h("span.k", { text: this.tr("diagram.consumer", { tag: c.tag }) }),
      h("span.v", null, `${this.tr("diagram.consumerUnacked", { n: c.unacked, limit: limit ?? "∞" })}${c.noAck ? " (no-ack)" : ""} · `, c.state === "blocked" ? this.terms.term("prefetch") : c.state),
      limit
        ? h(
            "div.gauge.prefetch",
            { role: "meter", "aria-valuemin": 0, "aria-valuemax": limit, "aria-valuenow": c.unacked, "aria-label": this.tr("diagram.prefetch", { tag: c.tag }) },
            h("div.fill", { style: `width:${pct(c.unacked, limit)}%` }),
          )
        : null,
      syncChips(this.laneChips(q.pid, "c:" + c.tag), dots, "dots"),
      h("span.via", { text: c.channel }),
    );
  }
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
