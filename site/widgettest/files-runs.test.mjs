// Tests of markRuns (widget/files.js) under node:test (go test ./site runs
// them): a file's strip of entries drawn as runs of marks alike.

import { test } from "node:test";
import assert from "node:assert/strict";

import { markRuns } from "../static/widget/files.js";

const spell = (runs) => runs.map((r) => r.m.repeat(r.n)).join("");

test("runs cover every mark once, in order, each of marks alike", () => {
  const marks = "LLLLAAdLLLLLLLLLLLLLLLLLLLLLLLLLDDDl";
  const runs = markRuns(marks);
  assert.equal(spell(runs), marks);
  let at = 0;
  for (const r of runs) {
    assert.equal(r.at, at);
    assert.ok(r.n > 0 && r.n <= 16, `a run of ${r.n} before the width is known`);
    at += r.n;
  }
  assert.deepEqual(
    runs.slice(0, 3).map((r) => [r.m, r.n]),
    [
      ["L", 4],
      ["A", 2],
      ["d", 1],
    ],
  );
});

test("a run ends where a row of the strip does", () => {
  const runs = markRuns("L".repeat(100), undefined, 30);
  assert.deepEqual(
    runs.map((r) => [r.at, r.n]),
    [
      [0, 30],
      [30, 30],
      [60, 30],
      [90, 10],
    ],
  );
});

test("an entry the last step changed is not in a run with unchanged ones", () => {
  const runs = markRuns("LLLLLL", (i) => i === 3, 0);
  assert.deepEqual(
    runs.map((r) => [r.at, r.n, r.changed]),
    [
      [0, 3, false],
      [3, 1, true],
      [4, 2, false],
    ],
  );
});

test("no marks, no runs", () => {
  assert.deepEqual(markRuns(""), []);
});
