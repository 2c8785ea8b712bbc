// Tests of widget/changes.js under node:test (go test ./site runs them):
// what changed between two snapshots, thing by thing.

import { test } from "node:test";
import assert from "node:assert/strict";

import { changes, mark } from "../static/widget/changes.js";

function snap(over = {}) {
  return {
    events: 10,
    memory: 1000,
    watermark: 5000,
    alarms: [],
    schedulers: [
      { busy: 10, running: 0 },
      { busy: 5, running: 0 },
    ],
    processes: [
      { pid: 1, name: "reader c1", state: "waiting", mailbox: 0, blocked: false, socket: 2, head: [] },
      { pid: 2, name: "channel c1.1", state: "waiting", mailbox: 1, blocked: false, socket: 0, head: ["publish"] },
      { pid: 3, name: "queue q", state: "waiting", mailbox: 0, blocked: false, socket: 0, head: [] },
    ],
    queues: [{ pid: 3, name: "q", ready: 3, unacked: 1, levels: [1, 0, 2], heads: ["hi-1", "hi-2", "low-1"], consumers: [{ tag: "c", unacked: 1, prefetch: 2, state: "up" }] }],
    credit: [{ from: 1, to: 2, credit: 10, initial: 400, blocked: false }],
    files: [{ path: "msg_store_persistent/0.rdq", size: 100, synced: 100, entries: 2, live: 2, marks: "LL" }],
    ...over,
  };
}

function clone(s) {
  return JSON.parse(JSON.stringify(s));
}

test("nothing is marked against no earlier state or the same state", () => {
  assert.equal(changes(null, snap()).size, 0);
  assert.equal(changes(snap(), snap()).size, 0);
});

test("a process that takes a message from its mailbox is marked, and only it", () => {
  const a = snap();
  const b = clone(a);
  b.processes[1].mailbox = 0;
  b.processes[1].head = [];
  const c = changes(a, b);
  assert.deepEqual([...c.procs], [2]);
  assert.equal(c.lanes.size + c.gauges.size + c.files.size, 0);
});

test("a delivery marks the lane it left, the consumer and its prefetch gauge", () => {
  const a = snap();
  const b = clone(a);
  b.queues[0].ready = 2;
  b.queues[0].unacked = 2;
  b.queues[0].levels = [1, 0, 1];
  b.queues[0].heads = ["hi-2", "low-1"];
  b.queues[0].consumers[0].unacked = 2;
  const c = changes(a, b);
  assert.deepEqual([...c.lanes], ["3/2"]);
  assert.deepEqual([...c.consumers], ["3/c"]);
  assert.ok(c.gauges.has("prefetch:3/c"));
  assert.ok(c.procs.has(3));
});

test("credit, schedulers and memory are gauges", () => {
  const a = snap();
  const b = clone(a);
  b.credit[0].credit = 0;
  b.credit[0].blocked = true;
  b.schedulers[1].busy = 9;
  b.memory = 2000;
  const c = changes(a, b);
  assert.deepEqual([...c.gauges].sort(), ["credit:1>2", "mem:node", "sched:1"]);
});

test("an acked entry and a new entry of a file are marked", () => {
  const a = snap();
  const b = clone(a);
  b.files[0].marks = "DLl";
  b.files[0].entries = 3;
  b.files[0].size = 150;
  b.files.push({ path: "queues/X/0.qi", size: 64, synced: 0, entries: 1, live: 1, marks: "l" });
  const c = changes(a, b);
  assert.deepEqual([...c.files], ["msg_store_persistent/0.rdq", "queues/X/0.qi"]);
  assert.deepEqual([...c.entries], ["msg_store_persistent/0.rdq#0", "msg_store_persistent/0.rdq#2", "queues/X/0.qi#0"]);
});

test("a new process is marked", () => {
  const a = snap();
  const b = clone(a);
  b.processes.push({ pid: 9, name: "writer c1.1", state: "waiting", mailbox: 0, blocked: false, socket: 0, head: [] });
  assert.deepEqual([...changes(a, b).procs], [9]);
});

test("mark alternates its value, so that a mark again is a new mark", () => {
  const attrs = new Map();
  const el = { setAttribute: (k, v) => attrs.set(k, v), hasAttribute: (k) => attrs.has(k), removeAttribute: (k) => attrs.delete(k) };
  mark(el, true, 1);
  assert.equal(attrs.get("data-changed"), "1");
  mark(el, true, 2);
  assert.equal(attrs.get("data-changed"), "2");
  mark(el, false, 3);
  assert.equal(attrs.has("data-changed"), false);
});
