// Tests of widget/guide.js under node:test (go test ./site runs them):
// where guided Play stops, where the caption keys go, and how a block's
// questions are read and answered.

import { test } from "node:test";
import assert from "node:assert/strict";

import { answerField, captionTarget, guidedOn, isRight, playStop, QuestionList, rightAnswer } from "../static/widget/guide.js";

test("Play stops at the first caption or question after where it is, not at one it stands on", () => {
  const stops = [0, 30, 430, 900];
  assert.equal(playStop(stops, 0, 10), 10, "nothing between");
  assert.equal(playStop(stops, 0, 100), 30);
  assert.equal(playStop(stops, 30, 1000), 430, "held at 30, Play goes on to the next");
  assert.equal(playStop(stops, 29, 30), 30);
  assert.equal(playStop([900, 430], 100, 5000), 430, "in any order");
  assert.equal(playStop([], 100, 5000), 5000);
});

test("the caption keys go to the next start, and back to the start of the caption in force or the one before", () => {
  const ats = [0, 30, 430, Infinity];
  assert.equal(captionTarget(ats, 0, 1), 30);
  assert.equal(captionTarget(ats, 100, 1), 430);
  assert.equal(captionTarget(ats, 430, 1), null, "a caption whose when never held is no target");
  assert.equal(captionTarget(ats, 100, -1), 30);
  assert.equal(captionTarget(ats, 30, -1), 0);
  assert.equal(captionTarget(ats, 0, -1), null);
});

test("guided is on in a lesson's widget and off elsewhere, unless the attribute says", () => {
  assert.equal(guidedOn(true, null), true);
  assert.equal(guidedOn(false, null), false);
  assert.equal(guidedOn(false, ""), true, "a bare guided attribute");
  assert.equal(guidedOn(false, "on"), true);
  assert.equal(guidedOn(true, "off"), false);
});

test("a choice question is read where it stands and answered by the right choice only", () => {
  const qs = new QuestionList();
  assert.equal(qs.directive("queue.declare queue=q", 0), false);
  assert.equal(qs.directive("#@question who-stops at=spent", 12), true);
  for (const line of ["#@ask Who stops first?", "#@choice the queue", "#@correct the reader", "#@why Credit runs out at the reader."]) {
    assert.equal(qs.directive(line, 12), true, line);
  }
  const [q] = qs.list;
  assert.deepEqual({ name: q.name, at: q.at, reveal: q.reveal, ask: q.ask, why: q.why }, { name: "who-stops", at: 12, reveal: "spent", ask: "Who stops first?", why: "Credit runs out at the reader." });
  assert.equal(isRight(q, 1), true);
  assert.equal(isRight(q, 0), false);
  assert.equal(isRight(q, 7), false, "no such choice");
  assert.equal(rightAnswer(q), "the reader");
  assert.deepEqual(qs.stops(new Set()), [12]);
  assert.deepEqual(qs.stops(new Set(["who-stops"])), [], "an answered question holds Play no more");
});

test("a number question is answered by its number only", () => {
  const qs = new QuestionList();
  qs.directive("#@question left at=spent", 3);
  qs.directive('#@answer 208 credit="reader c1 -> channel c1.1" left={n}', 3);
  const [q] = qs.list;
  assert.equal(q.answer, 208);
  assert.equal(isRight(q, "208"), true);
  assert.equal(isRight(q, " 208 "), true);
  assert.equal(isRight(q, "207"), false);
  assert.equal(isRight(q, ""), false);
  assert.equal(isRight(q, "two hundred"), false);
  assert.equal(rightAnswer(q), "208");
});

test("a malformed question line says what is wrong", () => {
  const qs = new QuestionList();
  assert.match(qs.directive("#@ask Who?", 0), /before any #@question/);
  assert.match(qs.directive("#@question Who", 0), /needs a name and at=MOMENT/);
  qs.directive("#@question a at=m", 0);
  assert.match(qs.directive("#@question a at=m", 0), /asked twice/);
  assert.match(qs.directive("#@answer lots", 0), /needs a number/);
  assert.match(qs.directive("#@why", 0), /needs words/);
});

test("a number question keeps its goal, and the field that holds its answer", () => {
  const qs = new QuestionList();
  qs.directive("#@question left at=acked", 3);
  qs.directive("#@answer 1 queue=tasks messages_unacknowledged={n}", 3);
  assert.equal(qs.list[0].goal, "queue=tasks messages_unacknowledged={n}");
  assert.equal(answerField(qs.list[0].goal), "messages_unacknowledged");
  assert.equal(answerField('credit="reader c1 -> channel c1.1" left={n}'), "left");
  assert.equal(answerField("queue=q messages=3"), "");
});
