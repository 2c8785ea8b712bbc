// Tests of widget/history.js under node:test (go test ./site runs them):
// what a typed command adds to a widget's share script.

import { test } from "node:test";
import assert from "node:assert/strict";

import { typedEntries, withCuts } from "../static/widget/history.js";

test("a refused command adds nothing to the share script, even after a seek back", () => {
  assert.deepEqual(typedEntries({ line: "basic.ack tag=9", ok: false, pos: 10, end: 10, cut: 0 }), []);
  assert.deepEqual(typedEntries({ line: "stop_app node=2", ok: false, pos: 4, end: 300, cut: 0 }), []);
});

test("a command that ran is kept, after a seek back with where it branched, and with its cut", () => {
  assert.deepEqual(typedEntries({ line: "list_queues", ok: true, pos: 10, end: 10, cut: 0 }), ["list_queues"]);
  assert.deepEqual(typedEntries({ line: "queue.purge queue=q", ok: true, pos: 4, end: 300, cut: 0 }), ["#@seek 4", "queue.purge queue=q"]);
  assert.deepEqual(typedEntries({ line: "run events=3000000", ok: true, pos: 300, end: 300, cut: 412672 }), ["#@cut 412672", "run events=3000000"]);
});

test("cuts go before their commands, or replace the #@cut the time budget stopped sooner", () => {
  const lines = ["queue.declare queue=q", "run events=3000000", "#@cut 3000000", "run events=3000000"];
  assert.deepEqual(withCuts(lines, [[1, 500000, false], [2, 400000, true]]), [
    "queue.declare queue=q",
    "#@cut 500000",
    "run events=3000000",
    "#@cut 400000",
    "run events=3000000",
  ]);
  assert.deepEqual(lines.length, 4, "the lines given are not changed");
});
