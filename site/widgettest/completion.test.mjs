// Tests of the console's Tab completion (widget/console.js, completion)
// under node:test (go test ./site runs them): what Tab puts in the line
// and what the console says under it, from the engine's names and usages.

import { test } from "node:test";
import assert from "node:assert/strict";

import { completion } from "../static/widget/console.js";
import { translator } from "../static/widget/i18n.js";

/** engine answers names and usage as the bridge's do (wasm/bridge.go). */
const USAGES = {
  "basic.publish": {
    name: "basic.publish",
    usage: "basic.publish [on=c1.1] key=Q [count=N] [persistent]",
    params: [
      { key: "on", kind: "on" },
      { key: "key", kind: "name", required: true },
      { key: "count", kind: "int" },
      { key: "persistent", kind: "flag" },
      { key: "mandatory", kind: "bool" },
    ],
  },
  "basic.purge": { name: "basic.purge", usage: "basic.purge queue=Q", params: [{ key: "queue", kind: "name" }] },
  alarm: { name: "alarm", usage: "alarm memory|disk|none", params: [], words: ["memory", "disk", "none"] },
  fault: { name: "fault", usage: "fault kind=K", params: [{ key: "kind", kind: "enum", values: ["enospc", "eio"] }] },
};
const engine = { names: Object.keys(USAGES), usage: (name) => USAGES[name] || null };
const en = translator("en");

test("Tab completes a command name to the names' common start, and a whole one with a space and its usage", () => {
  assert.deepEqual(completion("basic.p", engine, en), { start: 0, insert: "basic.pu", say: "basic.publish  basic.purge" });
  assert.deepEqual(completion("  basic.pub", engine, en), { start: 2, insert: "basic.publish ", say: USAGES["basic.publish"].usage });
  assert.deepEqual(completion("submit basic.pub", engine, en), { start: 7, insert: "basic.publish ", say: USAGES["basic.publish"].usage }, "submit hands over the command it completes");
});

test("Tab completes the keys a command has not been given, flags without =, and its bare words", () => {
  assert.deepEqual(completion("basic.publish key=q c", engine, en), { start: 20, insert: "count=", say: USAGES["basic.publish"].usage });
  assert.deepEqual(completion("basic.publish key=q ", engine, en), { start: 20, insert: "", say: "on=  count=  persistent  mandatory=" });
  assert.deepEqual(completion("basic.publish key=q pers", engine, en), { start: 20, insert: "persistent ", say: USAGES["basic.publish"].usage });
  assert.deepEqual(completion("alarm d", engine, en), { start: 6, insert: "disk ", say: USAGES.alarm.usage });
});

test("Tab completes a key's values from its list, or true and false", () => {
  assert.deepEqual(completion("fault kind=e", engine, en), { start: 6, insert: "kind=e", say: "kind=enospc  kind=eio" });
  assert.deepEqual(completion("fault kind=eno", engine, en), { start: 6, insert: "kind=enospc ", say: USAGES.fault.usage });
  assert.deepEqual(completion("basic.publish mandatory=t", engine, en), { start: 14, insert: "mandatory=true ", say: USAGES["basic.publish"].usage });
});

test("where there is nothing to offer, Tab changes nothing and says why", () => {
  assert.deepEqual(completion("queue.x", engine, en), { say: "No command starts like that." });
  assert.deepEqual(completion("nosuch key=", engine, en), { say: "Unknown command nosuch: Tab completes command names first." });
  assert.deepEqual(completion("basic.publish count=", engine, en), { say: `count: an integer. ${USAGES["basic.publish"].usage}` });
  assert.deepEqual(completion("basic.publish nokey=", engine, en), { say: USAGES["basic.publish"].usage });
  assert.deepEqual(completion("basic.publish zz", engine, en), { say: `No match. ${USAGES["basic.publish"].usage}` });
});

test("what Tab says is in the reader's language", () => {
  const zh = translator("zh");
  assert.notEqual(completion("queue.x", engine, zh).say, "No command starts like that.");
  assert.equal(completion("queue.x", engine, zh).say, zh("console.noCommand"));
});
