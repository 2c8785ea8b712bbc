// goals.test.mjs: what the goals panel counts as the reader's commands.
import { test } from "node:test";
import assert from "node:assert/strict";
import { commandsIn } from "../static/widget/goals.js";

test("commandsIn counts commands, not the widget's own lines", () => {
  const typed = ["basic.publish key=q body=a", "#@seek 12", "step n=3", "step", "  ", "# a note", "basic.get queue=q no-ack", "stepper"];
  assert.equal(commandsIn(typed), 3);
  assert.equal(commandsIn([]), 0);
});
