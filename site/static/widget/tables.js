// tables.js: the table view, the node as text: what the diagram draws and
// the rates the charts draw, in tables a screen reader can walk.

import { NONE } from "./changes.js";
import { h } from "./dom.js";
import { alarmsOf, formatBytes, formatTime, nodesOf, procName } from "./format.js";
import { translator } from "./i18n.js";

/** MAX_SAMPLE_ROWS bounds the rates table to the latest samples. */
const MAX_SAMPLE_ROWS = 100;

/** table makes a scrolling table: the first cell of a row is its header. */
function tableOf(T, caption, head, rows, note) {
  const noteEl = note ? h("p.table-note", { text: note }) : null;
  if (noteEl) {
    noteEl.id = `n-${Math.random().toString(36).slice(2, 8)}`;
  }
  const changedText = T("changes.row");
  return h(
    "div.table-scroll",
    { tabindex: "0", role: "region", "aria-label": caption, "data-keys": "native" },
    h(
      "table",
      { "aria-describedby": noteEl ? noteEl.id : null },
      h("caption", { text: caption }),
      h("thead", null, h("tr", null, head.map((c) => h("th", { scope: "col", text: c })))),
      h(
        "tbody",
        null,
        rows.length
          ? rows.map((r) =>
              h(
                "tr",
                { "data-changed": r.changed ? "1" : null },
                r.map((c, i) =>
                  i === 0 ? h("th", { scope: "row", text: String(c), "aria-description": r.changed ? changedText : null }) : Array.isArray(c) || c instanceof Node ? h("td", null, c) : h("td", { text: String(c) }),
                ),
              ),
            )
          : h("tr", null, h("td", { colspan: head.length, text: T("tables.none") })),
      ),
    ),
    noteEl,
  );
}

function rate(v) {
  return v < 10 ? `${Math.round(v * 10) / 10}/s` : `${Math.round(v)}/s`;
}

/** utilisation is a queue's consumer utilisation as a percentage and a
 * gauge: the share of time it could hand a message to a consumer at once
 * (rabbit_queue_consumers), a moving average over about a second. */
function utilisation(T, q) {
  if (!(q.consumers || []).length) {
    return T("tables.noConsumers");
  }
  const p = Math.round(Math.max(0, Math.min(1, q.utilisation || 0)) * 100);
  return h(
    "div.meter-row.utilisation",
    null,
    h("span", { text: `${p}%` }),
    h("div.gauge" + (p < 50 ? ".high" : ""), { role: "meter", "aria-valuemin": 0, "aria-valuemax": 100, "aria-valuenow": p, "aria-label": T("tables.utilisationOf", { name: q.name }) }, h("div.fill", { style: `width:${p}%` })),
  );
}

/** changedRow marks a row as changed since the state drawn before. */
function changedRow(row, changed) {
  row.changed = changed;
  return row;
}

/** renderTables fills box with the tables of snapshot s at event pos of
 * end, and the rates of samples (those up to the snapshot's time); the
 * rows of what changed (changes.js) are marked; tr says the words. */
export function renderTables(box, s, pos, end, samples, changed = NONE, tr = null, terms = null) {
  const T = tr || translator("en");
  // The terms (terms.js): flow control, the prefetch limit, an alarm.
  const term = (name) => (terms ? terms.term(name) : T(`term.${name}`));
  const table = (caption, head, rows, note) => tableOf(T, caption, head, rows, note);
  const name = (pid) => procName(s, pid);
  const yes = (b) => T(b ? "tables.yes" : "tables.no");
  const comma = T("list.comma");
  const consumers = [];
  for (const q of s.queues) {
    for (const c of q.consumers || []) {
      consumers.push(changedRow([c.tag, q.name, c.channel, `${c.unacked}/${c.prefetch > 0 ? c.prefetch : T("tables.unlimited")}`, c.state === "blocked" ? term("prefetch") : c.state, yes(c.noAck)], changed.consumers.has(`${q.pid}/${c.tag}`)));
    }
  }
  const recent = samples.slice(-MAX_SAMPLE_ROWS);
  const cols = (key) => T(key).split("|");
  box.replaceChildren(
    table(
      T("tables.node"),
      cols("tables.node.cols"),
      [
        [T("tables.time"), formatTime(s.time)],
        [T("tables.event"), T("tables.eventOf", { pos, end })],
        ...s.schedulers.map((sc, i) =>
          changedRow(
            [
              sc.node ? T("tables.schedOf", { i: i + 1, node: sc.node }) : T("tables.sched", { i: i + 1 }),
              T("tables.schedBusy", { p: (sc.util * 100).toFixed(1), running: sc.running ? name(sc.running) : T("tables.nothing") }),
            ],
            changed.gauges.has(`sched:${i}`),
          ),
        ),
        ...nodesOf(s).map((n, _, all) =>
          changedRow(
            [
              all.length > 1 ? T("tables.memoryOf", { node: n.name }) : T("diagram.memory"),
              n.watermark > 0 ? T("diagram.memOf", { used: formatBytes(n.memory), watermark: formatBytes(n.watermark) }) : T("tables.noWatermark", { used: formatBytes(n.memory) }),
            ],
            changed.gauges.has(`mem:${n.name}`),
          ),
        ),
        [T("tables.alarms"), alarmsOf(s).join(comma) || T("tables.none")],
        ...(alarmsOf(s).length ? [[T("term.publishers"), term("alarm")]] : []),
      ],
    ),
    table(
      T("tables.processes"),
      cols("tables.processes.cols"),
      s.processes.map((p) =>
        changedRow([p.name, p.kind, p.blocked ? [`${p.state}, `, term("flow")] : p.state, p.mailbox, (p.head || []).join(comma) || T("diagram.emptyMailbox"), p.socket, p.reductions], changed.procs.has(p.pid)),
      ),
    ),
    table(
      T("tables.credit"),
      cols("tables.credit.cols"),
      (s.credit || []).map((c) => changedRow([name(c.from), name(c.to), c.credit < 0 ? [T("tables.creditOf", { credit: c.credit, initial: c.initial }), " ", term("negative")] : T("tables.creditOf", { credit: c.credit, initial: c.initial }), c.blocked ? term("flow") : yes(false)], changed.gauges.has(`credit:${c.from}>${c.to}`))),
    ),
    table(
      T("tables.queues"),
      cols("tables.queues.cols"),
      s.queues.map((q) =>
        changedRow(
          [
            q.name,
            q.ready,
            q.unacked,
            q.levels && q.levels.length > 1 ? q.levels.map((n, l) => `${l}: ${n}`).reverse().join(comma) : T("tables.oneLevel"),
            (q.heads || []).join(comma) || T("tables.none"),
            (q.consumers || []).length,
            utilisation(T, q),
          ],
          changed.procs.has(q.pid),
        ),
      ),
    ),
    table(T("tables.consumers"), cols("tables.consumers.cols"), consumers),
    table(
      T("tables.files"),
      cols("tables.files.cols"),
      (s.files || []).map((f) => changedRow([f.path, f.kind, formatBytes(f.size), formatBytes(f.size - f.synced), f.entries, f.live], changed.files.has(f.path))),
      T("tables.filesNote"),
    ),
    table(
      T("tables.rates"),
      cols("tables.rates.cols"),
      recent.map((x) => [
        formatTime(x.time),
        rate(x.publish),
        rate(x.deliver),
        rate(x.ack),
        rate(x.confirm),
        x.depth,
        formatBytes(x.memory),
        x.scheduler.map((u, i) => `S${i + 1} ${Math.round(u * 100)}%`).join(comma),
      ]),
      T("tables.ratesNote") + (samples.length > recent.length ? T("tables.lastSamples", { shown: recent.length, n: samples.length }) : T("tables.samples", { n: samples.length })),
    ),
  );
}
