// Tests of widget/history.js under node:test (go test ./site runs them):
// the widget's directives, what a typed command, a step or a reset does
// to a widget's history, the share script it gives and what a rebuild
// replays of it.

import { test } from "node:test";
import assert from "node:assert/strict";

import { DIRECTIVES, History, openingKeeps, openingStop, parseDirective, StoppedLines, typedEntries, withCuts } from "../static/widget/history.js";
import { ShareState } from "../static/widget/share.js";
import { t } from "../static/widget/i18n.js";

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

test("each directive is read with what it takes", () => {
  const cases = [
    ["#@seek 0", { word: "seek", arg: "0", n: 0 }],
    ["  #@seek   120 ", { word: "seek", arg: "120", n: 120 }],
    ["#@cut 412672", { word: "cut", arg: "412672", n: 412672 }],
    ["#@goal queue q messages=0", { word: "goal", arg: "queue q messages=0" }],
    ["#@solution basic.consume queue=q", { word: "solution", arg: "basic.consume queue=q" }],
    ["#@hint Consume it.", { word: "hint", arg: "Consume it." }],
    ["#@mark full", { word: "mark", arg: "full" }],
    ["#@caption The queue fills.", { word: "caption", arg: "The queue fills." }],
    ["#@when spent queue q messages=0", { word: "when", arg: "spent queue q messages=0" }],
    ["#@holds at=landing queue=q messages=7", { word: "holds", arg: "at=landing queue=q messages=7" }],
    ["#@vary upto 3 2 4", { word: "vary", arg: "upto 3 2 4" }],
    ["#@question left at=spent", { word: "question", arg: "left at=spent" }],
    ["#@ask How many?", { word: "ask", arg: "How many?" }],
    ["#@choice 3", { word: "choice", arg: "3" }],
    ["#@correct 0", { word: "correct", arg: "0" }],
    ["#@answer 2 queue q messages={n}", { word: "answer", arg: "2 queue q messages={n}" }],
    ["#@why It was acked.", { word: "why", arg: "It was acked." }],
    ["#@mark", { word: "mark", arg: "" }],
  ];
  for (const [line, want] of cases) {
    assert.deepEqual(parseDirective(line), want, line);
  }
  const read = new Set(cases.map(([, d]) => d.word));
  assert.deepEqual(Object.keys(DIRECTIVES).filter((w) => !read.has(w)), [], "a directive without a case here");
});

test("a command or a comment is no directive", () => {
  assert.equal(parseDirective("queue.declare queue=q"), null);
  assert.equal(parseDirective("# a comment about #@seek 3"), null);
  assert.equal(parseDirective(""), null);
});

test("an unknown directive, or a #@seek or #@cut without its number, says which and what, in each language", () => {
  const cases = [
    ["#@sek 3", "console.unknownDirective", { name: "#@sek" }, "unknown widget directive #@sek", "未知的组件指令 #@sek"],
    ["#@cutx 3", "console.unknownDirective", { name: "#@cutx" }, "unknown widget directive #@cutx", "未知的组件指令 #@cutx"],
    ["#@cut", "console.cutNumber", { a: "" }, "#@cut takes a number of events, not ", "#@cut 需要一个事件数，而不是 "],
    ["#@cut many", "console.cutNumber", { a: "many" }, "#@cut takes a number of events, not many", "#@cut 需要一个事件数，而不是 many"],
    ["#@cut 0", "console.cutNumber", { a: "0" }, "#@cut takes a number of events, not 0", "#@cut 需要一个事件数，而不是 0"],
    ["#@cut -5", "console.cutNumber", { a: "-5" }, "#@cut takes a number of events, not -5", "#@cut 需要一个事件数，而不是 -5"],
    ["#@seek 1e3", "console.seekNumber", { a: "1e3" }, "#@seek takes an event number, not 1e3", "#@seek 需要一个事件序号，而不是 1e3"],
    ["#@seek 99999999999999999999", "console.seekNumber", { a: "99999999999999999999" }, "#@seek takes an event number, not 99999999999999999999", "#@seek 需要一个事件序号，而不是 99999999999999999999"],
  ];
  for (const [line, key, params, en, zh] of cases) {
    const d = parseDirective(line);
    assert.deepEqual(d.error, { key, params }, line);
    assert.equal(t(key, params, "en"), en, line);
    assert.equal(t(key, params, "zh"), zh, line);
  }
});

test("the share script is the source, then what the reader typed and stepped, with an exercise's goals carried", () => {
  const h = new History("queue.declare queue=q\nbasic.publish key=q count=3\n\n");
  assert.equal(h.script(), "queue.declare queue=q\nbasic.publish key=q count=3");
  h.typed({ line: "list_queues", ok: true, pos: 12, end: 12, cut: 0 });
  h.typed({ line: "basic.ack tag=9", ok: false, pos: 12, end: 12, cut: 0 });
  h.stepped(1);
  h.stepped(2);
  h.moved();
  h.stepped(1);
  h.typed({ line: "queue.purge queue=q", ok: true, pos: 4, end: 15, cut: 0 });
  assert.deepEqual(h.extra, ["list_queues", "step n=3", "step n=1", "#@seek 4", "queue.purge queue=q"]);
  const carried = ["#@goal queue q messages=0", "#@solution queue.purge queue=q"];
  assert.equal(
    h.script(carried),
    "#@goal queue q messages=0\n#@solution queue.purge queue=q\nqueue.declare queue=q\nbasic.publish key=q count=3\nlist_queues\nstep n=3\nstep n=1\n#@seek 4\nqueue.purge queue=q",
  );
  const own = new History("#@goal queue q messages=1\nqueue.declare queue=q");
  assert.equal(own.script(carried), "#@goal queue q messages=1\nqueue.declare queue=q", "a source with goals of its own carries no others");
  assert.deepEqual(own.directive("goal"), ["queue q messages=1"]);
  assert.deepEqual(own.directive("solution"), []);
});

test("a typed command after a step starts a step line of its own, and a reset keeps only the source", () => {
  const h = new History("queue.declare queue=q");
  h.stepped(1);
  h.typed({ line: "list_queues", ok: true, pos: 1, end: 1, cut: 0 });
  h.stepped(1);
  assert.deepEqual(h.extra, ["step n=1", "list_queues", "step n=1"]);
  h.cut = 500;
  h.clear();
  assert.deepEqual(h.extra, []);
  assert.equal(h.takeCut(), 0);
  assert.equal(h.script(), "queue.declare queue=q");
  h.stepped(2);
  assert.deepEqual(h.extra, ["step n=2"], "a step after a reset is not added to one before it");
});

test("a #@cut is used up by the command it stands before", () => {
  const h = new History();
  h.cut = 400000;
  assert.equal(h.takeCut(), 400000);
  assert.equal(h.takeCut(), 0);
});

test("the source keeps the cuts of its commands the time budget stopped", () => {
  const text = "queue.declare queue=q\nrun events=3000000";
  const h = new History(text);
  h.keepCuts(text.split("\n"), []);
  assert.equal(h.source, text, "no cuts: the source as it was");
  h.keepCuts(text.split("\n"), [[1, 412672, false]]);
  assert.equal(h.source, "queue.declare queue=q\n#@cut 412672\nrun events=3000000");
});

test("a script run keeps where the time budget stopped its commands: a new #@cut, or a smaller one in place of its own", () => {
  const text = "queue.declare queue=q\nrun events=3000000\n#@cut 900000\n#@mark full\nrun events=3000000\n#@cut 5000\n#@cut many\nrun events=3000000\nrun events=3000000";
  const lines = text.split("\n");
  // what each line did: ok, and the events the time budget stopped it at
  const ran = [
    [true, 0],
    [true, 412672],
    [true, 0],
    [true, 0],
    [true, 400000],
    [true, 0],
    [false, 0],
    [true, 3000],
    [true, 2000],
  ];
  const stopped = new StoppedLines();
  lines.forEach((line, i) => stopped.ran(i, parseDirective(line), ...ran[i]));
  assert.deepEqual(stopped.cuts, [
    [1, 412672, false],
    [2, 400000, true],
    [5, 3000, true],
    [8, 2000, false],
  ]);
  const h = new History(text);
  h.keepCuts(lines, stopped.cuts);
  assert.equal(h.source, "queue.declare queue=q\n#@cut 412672\nrun events=3000000\n#@cut 400000\n#@mark full\nrun events=3000000\n#@cut 3000\n#@cut many\nrun events=3000000\n#@cut 2000\nrun events=3000000");
  assert.deepEqual(
    h.replay().map((s) => s.cut),
    [0, 412672, 400000, 3000, 2000],
    "the refused #@cut leaves the one before it to its command",
  );
});

test("a rebuild replays the commands with their cuts and the seeks, and nothing else", () => {
  const h = new History("#@goal queue q messages=0\n# a comment\nqueue.declare queue=q\n#@mark declared\n#@cut 500\nrun events=3000000\n#@cut many\n#@seek x\nbasic.publish key=q");
  h.typed({ line: "queue.purge queue=q", ok: true, pos: 4, end: 900, cut: 0 });
  h.stepped(2);
  assert.deepEqual(h.replay(), [
    { line: "queue.declare queue=q", cut: 0 },
    { line: "run events=3000000", cut: 500 },
    { line: "basic.publish key=q", cut: 0 },
    { seek: 4 },
    { line: "queue.purge queue=q", cut: 0 },
    { line: "step n=2", cut: 0 },
  ]);
});

test("a share link carries the history's script whole, and its replay is the same after the round trip", async () => {
  const h = new History("queue.declare queue=q\n#@cut 3000\nrun events=3000000");
  h.typed({ line: "basic.publish key=q count=2", ok: true, pos: 7, end: 3007, cut: 0 });
  h.stepped(1);
  const hash = await new ShareState(h.script(), 9, "files").encode();
  const back = await ShareState.decode(hash);
  assert.equal(back.script, h.script());
  assert.equal(back.event, 9);
  assert.equal(back.view, "files");
  assert.deepEqual(new History(back.script).replay(), h.replay());
});

test("varied fills a block's #@vary numbers, as written or another draw", async () => {
  const { varied } = await import("../static/widget/history.js");
  const src = ["#@vary upto 3 2 4", "basic.ack tag={upto} multiple on=c2.1", "#@ask After basic.ack tag={upto} multiple?", 'basic.publish key=q body="job {i}" count=4'].join("\n");
  const as = varied(src);
  assert.equal(as.count, 3);
  assert.deepEqual(as.vars, [{ name: "upto", values: ["3", "2", "4"] }]);
  assert.equal(as.text.split("\n")[1], "basic.ack tag=3 multiple on=c2.1");
  assert.equal(as.text.split("\n")[3], 'basic.publish key=q body="job {i}" count=4', "{i} is the language's, not a variant's");
  assert.equal(varied(src, 1).text.split("\n")[2], "#@ask After basic.ack tag=2 multiple?");
  assert.equal(varied(src, 3).text.split("\n")[1], "basic.ack tag=3 multiple on=c2.1", "the draws go round");
  assert.equal(varied(src, 1).text.split("\n")[0], "#@vary upto 3 2 4", "the #@vary line stays");
  for (const bad of ["#@vary upto 3", "#@vary i 1 2", "#@vary Upto 1 2", "#@vary upto 1 two"]) {
    assert.equal(varied(`${bad}\nbasic.ack tag={upto}`).count, 1, bad);
  }
});

test("openingKeeps keeps the state at the mark a widget opens at and before the last command ahead of it", () => {
  const lines = ["set trace=summary", "queue.declare queue=q", "run ms=500", "#@caption one", "run ms=400", "#> a quoted line", "#@holds queue=q messages=1", "", "#@mark collapse", "#@caption two", "run"];
  assert.deepEqual([...openingKeeps(lines, "collapse")].sort((a, b) => a - b), [4, 8]);
  assert.equal(openingKeeps(lines, "end").size, 0, "a moment that is not a mark");
  assert.equal(openingKeeps(lines, "gone").size, 0, "a mark the script does not set");
  assert.equal(openingKeeps(lines, null).size, 0, "no open attribute");
  assert.deepEqual([...openingKeeps(["#@mark first", "run"], "first")], [0], "a mark before any command");
});

test("openingStop is the first command past the mark a widget opens at that may run events", () => {
  const lines = ["queue.declare queue=q", "run ms=500", "#@mark collapse", "#@caption two", "show throughput", "#> a quoted line", "expect queue=q messages=1", "#@question q at=later", "#@ask Why?", "", "run ms=900", "#@mark later", "run"];
  assert.equal(openingStop(lines, "collapse"), 10, "past the mark's captions, questions and looks");
  assert.equal(openingStop(lines, "later"), 12);
  assert.equal(openingStop(lines, "start"), -1, "the start");
  assert.equal(openingStop(lines, "end"), -1, "the end");
  assert.equal(openingStop(lines, null), -1, "no open attribute");
  assert.equal(openingStop(lines, "gone"), -1, "a mark the script does not set");
  assert.equal(openingStop(["run", "#@mark last", "show queues"], "last"), -1, "nothing runs past the mark");
  for (const d of ["#@when held queue=q messages=0", "#@vary n 1 2", "#@seek 3", "#@cut 100"]) {
    assert.equal(openingStop([...lines, d], "collapse"), -1, d);
  }
});
