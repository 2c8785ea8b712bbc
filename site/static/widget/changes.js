// changes.js: what changed between two snapshots of the node, so that
// after a step or a seek the widget can mark the processes, queue lanes,
// consumers, gauges and file entries that are not as they were. No DOM
// here but mark, which sets one attribute: the comparison is unit-tested
// under node:test.

import { nodesOf } from "./format.js";

/** Changes is what differs between two snapshots; each set holds keys:
 * procs pids; lanes "pid/level"; consumers "pid/tag"; gauges "sched:i",
 * "mem:node", "credit:from>to", "prefetch:pid/tag"; files paths, with
 * entries "path#i" for each entry whose state changed or that is new. */
export class Changes {
  constructor() {
    this.procs = new Set();
    this.lanes = new Set();
    this.consumers = new Set();
    this.gauges = new Set();
    this.files = new Set();
    this.entries = new Set();
  }

  /** size is how many things changed in all. */
  get size() {
    return this.procs.size + this.lanes.size + this.consumers.size + this.gauges.size + this.files.size;
  }
}

/** NONE is no change: what the widget shows when it opens or resets. */
export const NONE = Object.freeze(new Changes());

function byKey(list, key) {
  return new Map((list || []).map((x) => [key(x), x]));
}

function sameList(a, b) {
  a = a || [];
  b = b || [];
  return a.length === b.length && a.every((x, i) => x === b[i]);
}

/** changes compares snapshot next with prev (null: nothing is marked). */
export function changes(prev, next) {
  const c = new Changes();
  if (!prev || !next) {
    return c;
  }
  // Processes: what the diagram draws of each.
  const before = byKey(prev.processes, (p) => p.pid);
  for (const p of next.processes || []) {
    const o = before.get(p.pid);
    if (!o || o.state !== p.state || o.mailbox !== p.mailbox || o.blocked !== p.blocked || o.socket !== p.socket || !sameList(o.head, p.head)) {
      c.procs.add(p.pid);
    }
  }
  // Queues: counts, lanes by priority, consumers and their prefetch.
  const queues = byKey(prev.queues, (q) => q.pid);
  for (const q of next.queues || []) {
    const o = queues.get(q.pid);
    if (!o || o.ready !== q.ready || o.unacked !== q.unacked) {
      c.procs.add(q.pid);
    }
    const levels = q.levels && q.levels.length ? q.levels : [q.ready];
    const old = o ? (o.levels && o.levels.length ? o.levels : [o.ready]) : [];
    // A lane changed when its count did, or (the heads come next-first,
    // highest level first) when the messages at its head did.
    const heads = lanesOf(q, levels);
    const oldHeads = o ? lanesOf(o, old) : [];
    levels.forEach((n, lvl) => {
      if (!o || old[lvl] !== n || !sameList(oldHeads[lvl], heads[lvl])) {
        c.lanes.add(`${q.pid}/${lvl}`);
      }
    });
    const cons = byKey(o ? o.consumers : [], (x) => x.tag);
    for (const x of q.consumers || []) {
      const y = cons.get(x.tag);
      if (!y || y.unacked !== x.unacked || y.state !== x.state) {
        c.consumers.add(`${q.pid}/${x.tag}`);
        if (x.prefetch > 0) {
          c.gauges.add(`prefetch:${q.pid}/${x.tag}`);
        }
      }
    }
  }
  // Gauges: schedulers (what ran on them), memory, credit.
  (next.schedulers || []).forEach((s, i) => {
    const o = (prev.schedulers || [])[i];
    if (!o || o.busy !== s.busy || o.running !== s.running) {
      c.gauges.add(`sched:${i}`);
    }
  });
  const nodes = byKey(nodesOf(prev), (n) => n.name);
  for (const n of nodesOf(next)) {
    const o = nodes.get(n.name);
    if (!o || o.memory !== n.memory || !sameList(o.alarms, n.alarms)) {
      c.gauges.add(`mem:${n.name}`);
    }
  }
  const credit = byKey(prev.credit, creditKey);
  for (const x of next.credit || []) {
    const o = credit.get(creditKey(x));
    if (!o || o.credit !== x.credit || o.blocked !== x.blocked) {
      c.gauges.add(`credit:${creditKey(x)}`);
    }
  }
  // Files, and the entries in them.
  const files = byKey(prev.files, (f) => f.path);
  for (const f of next.files || []) {
    const o = files.get(f.path);
    if (!o || o.size !== f.size || o.synced !== f.synced || o.entries !== f.entries || o.live !== f.live || o.marks !== f.marks) {
      c.files.add(f.path);
    }
    const marks = f.marks || "";
    const was = o ? o.marks || "" : "";
    for (let i = 0; i < marks.length; i++) {
      if (marks[i] !== was[i]) {
        c.entries.add(`${f.path}#${i}`);
      }
    }
  }
  return c;
}

/** lanesOf splits a queue's heads (next first) by priority level. */
function lanesOf(q, levels) {
  const heads = (q.heads || []).slice();
  const out = [];
  for (let lvl = levels.length - 1; lvl >= 0; lvl--) {
    out[lvl] = heads.splice(0, Math.min(levels[lvl], heads.length));
  }
  return out;
}

function creditKey(x) {
  return `${x.from}>${x.to}`;
}

/** mark marks (or unmarks) el as changed in the render numbered gen: the
 * attribute alternates between two values, so that a thing that changes
 * again in the next step starts its animation again. */
export function mark(el, changed, gen) {
  if (changed) {
    el.setAttribute("data-changed", gen % 2 ? "1" : "2");
  } else if (el.hasAttribute("data-changed")) {
    el.removeAttribute("data-changed");
  }
}
