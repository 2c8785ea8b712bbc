// Tests of widget/goalwords.js under node:test (go test ./site runs them):
// every form of goal reads as one plain sentence made from its parsed form.

import { test } from "node:test";
import assert from "node:assert/strict";

import { goalSentence, goalWords, parseGoal, SAW_KEYS, tokens } from "../static/widget/goalwords.js";
import { CATALOGS } from "../static/widget/i18n.js";

test("tokens unquote values as the command language does", () => {
  assert.deepEqual(tokens(`expect process="reader c1" blocked=yes`), ["expect", "process=reader c1", "blocked=yes"]);
  assert.deepEqual(tokens(`expect on=c1.1 saw=get-ok body="a \\"b\\" c"`), ["expect", "on=c1.1", "saw=get-ok", 'body=a "b" c']);
  assert.deepEqual(tokens(`a  b\tc`), ["a", "b", "c"]);
  assert.deepEqual(tokens(`x=a"b`), ['x=a"b'], "a quote inside a value is an ordinary character");
});

test("parseGoal names the form, its subject and its fields", () => {
  assert.deepEqual(parseGoal(`expect credit="reader c1 -> channel c1.1" left=0 blocked=yes within-ms=500`), {
    form: "credit",
    subject: "reader c1 -> channel c1.1",
    on: "",
    fields: [
      ["left", "0"],
      ["blocked", "yes"],
    ],
    flags: [],
    within: 500,
  });
  assert.equal(parseGoal("queue.declare queue=q"), null);
  assert.equal(parseGoal("expect on=c2.1 saw=deliver redelivered").form, "saw");
  assert.deepEqual(parseGoal("expect on=c2.1 saw=deliver redelivered").flags, ["redelivered"]);
  assert.equal(parseGoal("expect alarm=memory # or disk").fields.length, 0, "a comment is not a field");
});

test("every form of goal reads as a sentence", () => {
  const cases = [
    ["expect queue=jobs messages_ready=0", "Queue jobs holds 0 ready messages."],
    ["expect queue=jobs messages=0 consumers=1", "Queue jobs holds 0 messages and has 1 consumer."],
    ["expect queue=orders.2 messages=1", "Queue orders.2 holds 1 message."],
    ["expect queue=c node=rabbit-3@localhost policy=spread arguments=[]", "Queue c lives on node rabbit-3@localhost, follows policy spread and has no arguments."],
    ["expect queue=work consumers=2 durable=true", "Queue work has 2 consumers and is durable."],
    ["expect queue=work consumer_utilisation=1.0", "Queue work has a consumer utilisation of 1.0."],
    ["expect on=c2.1 saw=deliver tag=2 body=urgent priority=5", "Channel c2.1 sees a delivery with delivery tag 2, body urgent and priority 5."],
    ["expect on=c1.1 saw=get-ok redelivered body=keep-me", "Channel c1.1 sees a message from basic.get with body keep-me and redelivered."],
    ["expect on=c1 saw=blocked", "Connection c1 sees the connection blocked (an alarm)."],
    [`expect process="reader c1" blocked=yes`, "Process reader c1 is held by flow control (out of credit)."],
    [`expect process="queue jobs" state=waiting mailbox=0`, "Process queue jobs is waiting and has 0 messages in its mailbox."],
    [`expect credit="reader c1 -> channel c1.1" left=0 blocked=yes`, "Reader c1 towards channel c1.1 has 0 credits left and is out of credit (flow control)."],
    [`expect credit="queue q -> msg_store_persistent" left=3990`, "Queue q towards msg_store_persistent has 3,990 credits left."],
    ["expect file=0.rdq entries=2 live=1 dead=1", "File 0.rdq holds 2 entries, 1 live and 1 dead."],
    ["expect file=2.rdq entries=1 live=1 dead=0 within-ms=60000", "File 2.rdq holds 1 entry, 1 live and 0 dead, within 60,000 ms of virtual time."],
    ["expect alarm=memory", "The memory alarm is raised (publishers blocked)."],
    ["expect alarm=none", "No alarm is raised."],
    ["expect never=blocked on=c1", "The reader of connection c1 never stops reading its socket (never held by flow control)."],
    ["expect never=dropped on=c1.1", "Channel c1.1 never has a publish dropped (no nack, no return)."],
    ["expect queue=jobs messages=0 within-ms=500", "Queue jobs holds 0 messages, within 500 ms of virtual time."],
    ["expect file=msg_store_persistent/1.rdq gone", "File msg_store_persistent/1.rdq is gone."],
    [
      "expect on=c1.1 saw=get-ok redelivered body=keep-me after=power-loss",
      "Channel c1.1 sees a message from basic.get with body keep-me and redelivered, after the node's last power loss.",
    ],
    ["expect on=c1.1 saw=declare-ok messages=1 after=clean", "Channel c1.1 sees a declare confirmed with messages 1, after the node's last clean restart."],
  ];
  for (const [line, want] of cases) {
    assert.equal(goalWords(line), want, line);
  }
});

test("a line that is not a goal is shown as it is", () => {
  assert.equal(goalWords("basic.get queue=q"), "basic.get queue=q");
});

test("the sentence comes from the parsed form", () => {
  const g = parseGoal("expect queue=jobs messages=0");
  g.fields.push(["consumers", "3"]);
  assert.equal(goalSentence(g), "Queue jobs holds 0 messages and has 3 consumers.");
});

test("goals read in Chinese from the same parsed form", () => {
  const cases = [
    ["expect queue=jobs messages_ready=0", "队列 jobs 有 0 条就绪消息。"],
    ["expect queue=jobs messages=0 consumers=1", "队列 jobs 共有 0 条消息，并且有 1 个消费者。"],
    [`expect credit="reader c1 -> channel c1.1" left=0 blocked=yes`, "reader c1 → channel c1.1 的信用剩余 0，并且已耗尽（流控）。"],
    ["expect file=0.rdq entries=2 live=1 dead=1", "文件 0.rdq 中有 2 个条目，有效 1 个，并且已失效 1 个。"],
    ["expect alarm=memory", "内存告警已触发（发布者被阻塞）。"],
    ["expect queue=jobs messages=0 within-ms=500", "队列 jobs 共有 0 条消息，且在虚拟时间 500 毫秒之内。"],
  ];
  for (const [line, want] of cases) {
    assert.equal(goalWords(line, "zh"), want, line);
  }
});

test("every kind of line a goal can look for has its words", () => {
  for (const key of Object.values(SAW_KEYS)) {
    assert.ok(key in CATALOGS.en && key in CATALOGS.zh, key);
  }
});
