// tables.js: the table view, the node as text: what the diagram draws and
// the rates the charts draw, in tables a screen reader can walk.

import { NONE } from "./changes.js";
import { h } from "./dom.js";
import { alarmsOf, formatBytes, formatTime, nodesOf, procName } from "./format.js";

/** MAX_SAMPLE_ROWS bounds the rates table to the latest samples. */
const MAX_SAMPLE_ROWS = 100;

/** table makes a scrolling table: the first cell of a row is its header. */
function tableOf(caption, head, rows, note, changedText = "changed in the last step") {
  const noteEl = note ? h("p.table-note", { text: note }) : null;
  if (noteEl) {
    noteEl.id = `n-${Math.random().toString(36).slice(2, 8)}`;
  }
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
                  i === 0 ? h("th", { scope: "row", text: String(c), "aria-description": r.changed ? changedText : null }) : c instanceof Node ? h("td", null, c) : h("td", { text: String(c) }),
                ),
              ),
            )
          : h("tr", null, h("td", { colspan: head.length, text: "none" })),
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
function utilisation(q) {
  if (!(q.consumers || []).length) {
    return "no consumers";
  }
  const p = Math.round(Math.max(0, Math.min(1, q.utilisation || 0)) * 100);
  return h(
    "div.meter-row.utilisation",
    null,
    h("span", { text: `${p}%` }),
    h("div.gauge" + (p < 50 ? ".high" : ""), { role: "meter", "aria-valuemin": 0, "aria-valuemax": 100, "aria-valuenow": p, "aria-label": `consumer utilisation of ${q.name}` }, h("div.fill", { style: `width:${p}%` })),
  );
}

/** changedRow marks a row as changed since the state drawn before. */
function changedRow(row, changed) {
  row.changed = changed;
  return row;
}

/** renderTables fills box with the tables of snapshot s at event pos of
 * end, and the rates of samples (those up to the snapshot's time); the
 * rows of what changed (changes.js) are marked. */
export function renderTables(box, s, pos, end, samples, changed = NONE, tr = null) {
  const said = tr ? tr("changes.row") : undefined;
  const table = (caption, head, rows, note) => tableOf(caption, head, rows, note, said);
  const name = (pid) => procName(s, pid);
  const consumers = [];
  for (const q of s.queues) {
    for (const c of q.consumers || []) {
      consumers.push(changedRow([c.tag, q.name, c.channel, `${c.unacked}/${c.prefetch > 0 ? c.prefetch : "unlimited"}`, c.state, c.noAck ? "yes" : "no"], changed.consumers.has(`${q.pid}/${c.tag}`)));
    }
  }
  const recent = samples.slice(-MAX_SAMPLE_ROWS);
  box.replaceChildren(
    table(
      "Node",
      ["What", "Value"],
      [
        ["Time", formatTime(s.time)],
        ["Event", `${pos} of ${end}`],
        ...s.schedulers.map((sc, i) =>
          changedRow([sc.node ? `Scheduler ${i + 1} of ${sc.node}` : `Scheduler ${i + 1}`, `${(sc.util * 100).toFixed(1)}% busy, running ${sc.running ? name(sc.running) : "nothing"}`], changed.gauges.has(`sched:${i}`)),
        ),
        ...nodesOf(s).map((n, _, all) =>
          changedRow(
            [all.length > 1 ? `Memory of ${n.name}` : "Memory", n.watermark > 0 ? `${formatBytes(n.memory)} of ${formatBytes(n.watermark)} watermark` : `${formatBytes(n.memory)}, no watermark`],
            changed.gauges.has(`mem:${n.name}`),
          ),
        ),
        ["Alarms", alarmsOf(s).join(", ") || "none"],
      ],
    ),
    table(
      "Processes",
      ["Process", "Kind", "State", "Mailbox", "Next in mailbox", "Socket", "Reductions"],
      s.processes.map((p) => changedRow([p.name, p.kind, p.blocked ? `${p.state}, flow (not reading)` : p.state, p.mailbox, (p.head || []).join(", ") || "empty", p.socket, p.reductions], changed.procs.has(p.pid))),
    ),
    table(
      "Credit",
      ["From", "To", "Credit", "Blocked"],
      (s.credit || []).map((c) => changedRow([name(c.from), name(c.to), `${c.credit} of ${c.initial}`, c.blocked ? "yes" : "no"], changed.gauges.has(`credit:${c.from}>${c.to}`))),
    ),
    table(
      "Queues",
      ["Queue", "Ready", "Unacked", "By priority (highest first)", "Next messages", "Consumers", "Consumer utilisation"],
      s.queues.map((q) =>
        changedRow(
          [
            q.name,
            q.ready,
            q.unacked,
            q.levels && q.levels.length > 1 ? q.levels.map((n, l) => `${l}: ${n}`).reverse().join(", ") : "one level",
            (q.heads || []).join(", ") || "none",
            (q.consumers || []).length,
            utilisation(q),
          ],
          changed.procs.has(q.pid),
        ),
      ),
    ),
    table("Consumers", ["Tag", "Queue", "Channel", "Unacked / prefetch", "State", "No-ack"], consumers),
    table(
      "Files",
      ["File", "Kind", "Size", "Not synced", "Entries", "Live"],
      (s.files || []).map((f) => changedRow([f.path, f.kind, formatBytes(f.size), formatBytes(f.size - f.synced), f.entries, f.live], changed.files.has(f.path))),
      "Entries are index slots (.qi) or stored messages (.qs, .rdq); live slots are not acked, live messages are still referenced by a queue.",
    ),
    table(
      "Rates",
      ["Time", "Publish", "Deliver", "Ack", "Confirm", "Queued", "Memory", "Schedulers busy"],
      recent.map((x) => [
        formatTime(x.time),
        rate(x.publish),
        rate(x.deliver),
        rate(x.ack),
        rate(x.confirm),
        x.depth,
        formatBytes(x.memory),
        x.scheduler.map((u, i) => `S${i + 1} ${Math.round(u * 100)}%`).join(", "),
      ]),
      `One row per 100 ms of virtual time, ending at the time shown; rates are per second. ` +
        (samples.length > recent.length ? `The last ${recent.length} of ${samples.length} samples.` : `${samples.length} samples.`),
    ),
  );
}
