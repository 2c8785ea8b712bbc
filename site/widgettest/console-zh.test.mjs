// Tests that a Chinese widget says warren's own words of the console and
// the events list in Chinese: every error, hint and usage format of the
// engine's source (testdata/engine-texts.json, which site's
// TestEngineTextsAreListed keeps equal to the source), the console lines
// of a run of typical mistakes, the explanation of RabbitMQ's reply codes,
// and the events list's line of every kind of event (engine/node/node.go
// kindNames). RabbitMQ's own texts stay as RabbitMQ prints them.

import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";

import { CATALOGS, consoleLine, consoleSaid, engineSays, errorText, eventKey, eventLine } from "../static/widget/i18n.js";
import { englishRun as englishRunIn } from "./english.mjs";

const data = JSON.parse(readFileSync(new URL("testdata/engine-texts.json", import.meta.url), "utf8"));

// CODE are the words that are the command language's, not English prose:
// command names, argument keys and values, columns, views.
const CODE = new Set(data.names);

/** englishRun finds English prose of warren's own in text (english.mjs). */
const englishRun = (text) => englishRunIn(text, CODE);

/** sample fills a Go format with values like the engine's: a name for %s,
 * a quoted name for %q, a number for %d, and for %w a wrapped error that is
 * itself one of the engine's messages. */
function sample(format) {
  return format.replace(/%(?:%|[-+# 0]*\d*[sqdvwcTx])/g, (v) => {
    switch (v.slice(-1)) {
      case "%":
        return "%";
      case "q":
        return '"q1"';
      case "d":
        return "3";
      case "w":
        return "not a valid regular expression";
      case "c":
        return "x";
      case "T":
        return "int";
      case "x":
        return "0a";
      default:
        return "q1";
    }
  });
}

/** shown is the console's line for a message of the engine: goals and
 * stops as they are, anything else as the error it is. */
const shown = (s) => (/^(goal |stopped after )/.test(s) ? s : `error: ${s}`);

test("the english-run check finds prose and lets the command language be", () => {
  assert.equal(englishRun("错误：unknown command foo"), "unknown command foo");
  assert.equal(englishRun("kind 必须是 clean, crash, power-loss 之一"), null);
  assert.equal(englishRun('c1.1 closed code=406 text="PRECONDITION_FAILED - unknown delivery tag 99"'), null);
  assert.equal(englishRun("用法：queue.declare queue=Q [durable] [exclusive] [auto-delete] [passive]"), null);
});

test("every error of the widget's own is said in Chinese", () => {
  assert.ok(data.texts.length > 20, `only ${data.texts.length} texts`);
  const untranslated = [];
  for (const [file, format] of data.texts) {
    const english = shown(sample(format));
    const { text, en } = consoleLine(english, "zh");
    const run = englishRun(text);
    if (en === null || text === english || run !== null) {
      untranslated.push(`${file}: ${format}\n    → ${text}${run ? `\n    English left: "${run}"` : ""}`);
    }
    assert.equal(consoleLine(english, "en").text, english, "English stays as the engine wrote it");
  }
  assert.deepEqual(untranslated, [], `${untranslated.length} texts still in English in Chinese:\n${untranslated.join("\n")}`);
});

test("a command's usage reads as usage in Chinese and keeps its syntax", () => {
  for (const [name, usage] of data.usage) {
    const zh = engineSays({ text: `usage: ${usage}`, key: "con.usage", args: [usage] }, "zh");
    assert.equal(zh, `用法：${usage}`, name);
  }
  // a refused argument, as the engine says it: where, the command, the
  // message and the usage
  const line = 'error: line 3, column 11: basic.qos: prefetch must be an integer, got "lots" (usage: basic.qos prefetch=N [global])';
  const hinted = { key: "con.hinted", args: [{ key: "con.mustInt", args: ["prefetch", '"lots"'] }, { key: "con.usage", args: ["basic.qos prefetch=N [global]"] }] };
  const said = { text: line, key: "con.error", args: [{ key: "con.lineColumn", args: ["3", "11", { key: "con.named", args: ["basic.qos", hinted] }] }] };
  assert.equal(consoleSaid(said, "zh").text, '错误：第 3 行第 11 列：basic.qos：prefetch 必须是整数，收到的是 "lots"（用法：basic.qos prefetch=N [global]）');
  assert.equal(consoleSaid(said, "zh").en, line, "the English original is kept for the title");
  // an error the bridge throws comes with its sentence (EngineError.said)
  const parse = { message: "parse: line 2, column 1: empty command", said: { key: "con.named", args: ["parse", { key: "con.lineColumn", args: ["2", "1", { key: "con.empty", args: [] }] }] } };
  assert.equal(errorText(parse, "zh", "parse"), "第 2 行第 1 列：空命令");
  assert.equal(errorText(parse, "en", "parse"), "line 2, column 1: empty command");
});

test("the console lines of typical mistakes are Chinese, and RabbitMQ's replies are explained", () => {
  let errors = 0;
  let replies = 0;
  for (const [cmd, ...lines] of data.mistakes) {
    for (const entry of lines) {
      // a line the engine says as data comes as its sentence, a reply of
      // RabbitMQ's with the sentence that says what it means
      const { line: said, explain: why } = typeof entry === "object" && "line" in entry ? entry : { line: entry };
      const line = typeof said === "string" ? said : said.text;
      const out = typeof said === "string" ? consoleLine(said, "zh", why) : consoleSaid(said, "zh", why);
      if (/^error: (Validation failed|Parameter does not exist)/.test(line)) {
        // rabbitmqctl's words, as rabbitmqctl says them, and what they mean
        assert.ok(out.text.startsWith("错误：") && out.text.endsWith(line.slice(7)), out.text);
        assert.match(out.explain || "", /^↳ rabbitmqctl.*[\u3400-\u9fff]/, `${line}: no explanation`);
        continue;
      }
      assert.equal(englishRun(out.text), null, `${cmd}: ${line}\n  → ${out.text}`);
      if (/^(error|goal)/.test(line)) {
        errors++;
        assert.match(out.text, /[\u3400-\u9fff]/, `${cmd}: ${line} → ${out.text}`);
      }
      const reply = /closed code=(\d+) text="([A-Z_]+) - /.exec(line) || /return code=(\d+) text=([A-Z_]+) /.exec(line);
      if (reply) {
        replies++;
        assert.equal(consoleLine(line, "zh").explain, null, "the widget reads no reply back");
        assert.ok(out.text === line, "RabbitMQ's reply stays as it is");
        assert.ok(out.explain && out.explain.includes(`${reply[1]} ${reply[2]}`), `${line}: no explanation`);
        assert.match(out.explain, /[\u3400-\u9fff]/);
        assert.equal(englishRun(out.explain), null, out.explain);
      } else {
        assert.equal(out.explain, null, line);
      }
    }
  }
  assert.ok(errors >= 15 && replies >= 6, `the mistakes gave ${errors} errors and ${replies} replies`);
});

test("the common AMQP reply codes each have a Chinese explanation", () => {
  // as the engine says them beside the line (engine/explain.go)
  const replies = {
    404: "NOT_FOUND - no queue 'x' in vhost '/'",
    406: "PRECONDITION_FAILED - unknown delivery tag 9",
    405: "RESOURCE_LOCKED - cannot obtain exclusive access to locked queue 'q' in vhost '/'",
    403: "ACCESS_REFUSED - queue name 'amq.x' contains reserved prefix 'amq.*'",
    530: "NOT_ALLOWED - attempt to reuse consumer tag 't'",
    504: "CHANNEL_ERROR - unexpected command while processing 'tx.commit'",
    320: "CONNECTION_FORCED - broker forced connection closure with reason 'shutdown'",
    541: "INTERNAL_ERROR - an internal error",
  };
  const seen = new Set();
  for (const [code, text] of Object.entries(replies)) {
    for (const who of ["c1.1", "c1"]) {
      const line = `${who} closed code=${code} text="${text}"`;
      const what = { key: who.includes(".") ? "con.amqp.channel" : "con.amqp.connection", args: [who] };
      const why = { text: "…", key: "con.amqp.explain", args: [what, code, text.split(" ")[0], { key: `con.amqp.${code}`, args: [] }] };
      const out = consoleLine(line, "zh", why);
      assert.equal(out.text, line, "the line itself is RabbitMQ's and the trace's");
      assert.ok(out.explain, `${code}: no explanation`);
      assert.ok(out.explain.includes(who.includes(".") ? `通道 ${who}` : `连接 ${who}`), out.explain);
      assert.ok(out.explain.includes(`${code} ${text.split(" ")[0]}`), out.explain);
      assert.match(out.explain, /[\u3400-\u9fff]/);
      assert.equal(englishRun(out.explain), null, out.explain);
      seen.add(out.explain);
      assert.equal(consoleLine(line, "en", why).explain, null, "English explains nothing the reply does not say");
      assert.equal(consoleLine(line, "zh").explain, null, "the widget reads no reply back");
    }
  }
  assert.equal(seen.size, 16, "each code and target its own explanation");
  const line = "c1.1 return code=312 text=NO_ROUTE exchange=amq.direct key=nowhere body=x";
  const returned = consoleLine(line, "zh", { text: "…", key: "con.amqp.returned", args: ["312", "NO_ROUTE", { key: "con.amqp.312", args: [] }] });
  assert.equal(returned.text, line);
  assert.equal(returned.explain, "↳ RabbitMQ 以 312 NO_ROUTE 把消息退回给发布者：这条消息带有 mandatory，却没有路由到任何队列。");
  const refused = consoleLine("error: Parameter does not exist", "zh", { text: "…", key: "con.ctl.noParameter", args: [] });
  assert.equal(refused.explain, "↳ rabbitmqctl：没有这个名字的策略。");
  const invalid = consoleSaid({ text: "error: set_policy: Validation failed: x", key: "con.error", args: [{ key: "con.named", args: ["set_policy", { key: "", args: ["Validation failed: x"] }] }] }, "zh", { key: "con.ctl.validation", args: [] });
  assert.equal(invalid.explain, "↳ rabbitmqctl 拒绝了这条策略：它的某个定义无效。");
});

/** kinds are the names of engine/node/node.go's kindNames. */
function kinds() {
  const src = readFileSync(new URL("../../engine/node/node.go", import.meta.url), "utf8");
  const table = /var kindNames = \[kindCount\]string\{([\s\S]*?)\n\}/.exec(src);
  assert.ok(table, "kindNames not found in engine/node/node.go");
  return [...new Set([...table[1].matchAll(/:\s*"([^"]+)"/g)].map((m) => m[1]))];
}

/** event is an event as the bridge gives it: its line, the line as data
 * (engine.Sim.EventSaid) and the message it handled. */
function event(n, at, sched, proc, kind, from, us) {
  const input = kind === "frame";
  const what = input ? "frame from client" : from ? `${kind} from ${from}` : kind;
  const text = `#${n} t=${at} sched=${sched} ${proc}: ${what} (${us}µs)`;
  const whatSaid = input ? { key: "engine.eventInput", args: [] } : from ? { key: "engine.eventFrom", args: [kind, from] } : kind;
  return { text, kind, input, said: { text, key: "engine.event", args: [String(n), at, String(sched), proc, whatSaid, String(us)] } };
}

test("every kind of event reads in Chinese in the events list, with RabbitMQ's names kept", () => {
  const names = kinds();
  assert.ok(names.length >= 30, `only ${names.length} kinds`);
  for (const kind of [...names.filter((k) => k !== "frame"), "?"]) {
    const key = eventKey(kind);
    assert.ok(key in CATALOGS.zh && key in CATALOGS.en, `no catalog text for the event kind ${kind} (${key})`);
    for (const ev of [event(12, "1.234ms", 2, "queue q1", kind, "channel c1.1", 3), event(7, "0.010ms", 1, "vm_memory_monitor", kind, "", 0)]) {
      const { text, title } = eventLine(ev, "zh");
      assert.match(text, /[\u3400-\u9fff]/, `${ev.text} → ${text}`);
      assert.equal(englishRun(text), null, text);
      assert.ok(text.includes(`：${kind}`), `the message name ${kind} is kept: ${text}`);
      assert.ok(title.startsWith(`${ev.text}\n`), "the English line is in the title");
      assert.ok(title.includes(CATALOGS.zh[key]), "the title says what the message means");
      assert.ok(!/\bsched=|\bfrom\b/.test(text), `warren's words are said in Chinese: ${text}`);
    }
  }
  const input = eventLine(event(1, "0.000ms", 1, "reader c1", "frame", "", 12), "zh");
  assert.equal(input.text, "#1 t=0.000ms 调度器 1 · reader c1：来自客户端的帧（12µs）");
  const deliver = eventLine(event(13, "1.240ms", 2, "queue q1", "deliver", "channel c1.1", 3), "zh");
  assert.equal(deliver.text, "#13 t=1.240ms 调度器 2 · queue q1：deliver，来自 channel c1.1（3µs）");
  assert.deepEqual(eventLine(event(1, "0.000ms", 1, "reader c1", "frame", "", 12), "en"), { text: "#1 t=0.000ms sched=1 reader c1: frame from client (12µs)", title: "" });
});

test("the events of a real run read in Chinese", () => {
  assert.ok(data.events.length > 20, `only ${data.events.length} events`);
  for (const ev of data.events) {
    const { text, title } = eventLine(ev, "zh");
    assert.notEqual(text, ev.text, `not said in Chinese: ${ev.text}`);
    assert.match(text, /[\u3400-\u9fff]/, ev.text);
    assert.equal(englishRun(text), null, text);
    assert.ok(title.startsWith(ev.text));
  }
});

test("the widget's own console words are said in Chinese", () => {
  assert.equal(consoleLine("error: #@cut takes a number of events, not x", "zh").text, "错误：#@cut 需要一个事件数，而不是 x");
  const crash = { text: "error: line 4, crash: no queue 'q' in vhost '/'", key: "con.error", args: [{ key: "con.line", args: ["4", { key: "con.crashNoQueue", args: ["crash", "q"] }] }] };
  assert.equal(consoleSaid(crash, "zh").text, "错误：第 4 行，crash：no queue 'q' in vhost '/'（rabbitmqctl 的原话：vhost '/' 中没有队列 'q'）");
  const stop = { text: "stopped after 250,000 events (the time budget of one command here, 10.2s); run continues, reset starts again", key: "con.stopTime", args: ["250,000", ", 10.2s"] };
  assert.deepEqual(consoleSaid(stop, "zh"), { text: "运行了 250,000 个事件后停下（这里单条命令的时间预算, 10.2s）；run 继续运行，reset 从头开始", en: stop.text, explain: null });
  assert.deepEqual(consoleSaid(stop, "en"), { text: stop.text, en: null, explain: null });
});

test("the hint names every kind of argument the bridge knows in the catalogs", () => {
  const src = readFileSync(new URL("../../wasm/bridge.go", import.meta.url), "utf8");
  const table = /var kindNames = map\[script\.Kind\]string\{([\s\S]*?)\}/.exec(src);
  assert.ok(table, "kindNames not found in wasm/bridge.go");
  const names = [...table[1].matchAll(/:\s*"([^"]+)"/g)].map((m) => m[1]);
  assert.ok(names.length >= 7, names.join(","));
  for (const k of names) {
    assert.ok(`console.kind.${k}` in CATALOGS.en && `console.kind.${k}` in CATALOGS.zh, `no console.kind.${k}`);
  }
});

/** english is a sentence of the engine's ({key, args}) in English, from
 * the engine's catalog (engine/say), as Text.String says it. */
function english(s) {
  if (typeof s === "string") {
    return s;
  }
  const args = (s.args || []).map(english);
  if (!s.key) {
    return args.join(", ");
  }
  return data.said[s.key].replace(/\{([a-z])\}/g, (w, c) => args[c.charCodeAt(0) - 97] ?? "?");
}

/** said is a sentence of the engine's; gcLine is a line of show gc as the
 * bridge gives it, its English beside it. */
const said = (key, ...args) => ({ key, args });
const gcLine = (s) => ({ text: english(said("con.gc.line", s)), ...said("con.gc.line", s) });

test("every detail of a garbage collection step reads in Chinese", () => {
  const details = Object.keys(data.said).filter((k) => k.startsWith("con.gc.d.") && k !== "con.gc.d.and");
  assert.ok(details.length >= 25, `only ${details.length} details of a step`);
  for (const key of details) {
    const places = [...data.said[key].matchAll(/\{[a-z]\}/g)].map(() => "3");
    const args = key === "con.gc.d.toBytes" ? ["3", said("con.gc.d.cutPrefix")] : places;
    const line = gcLine(said("con.gc.step", said("con.gc.job.combine", "1", "0"), "scan", "msg_store_persistent/0.rdq", said(key, ...args)));
    const { text } = consoleSaid(line, "zh");
    assert.notEqual(text, line.text, `${key} is not said in Chinese`);
    assert.equal(englishRun(text), null, `${key}: ${line.text}\n  → ${text}`);
  }
  const and = (a, b) => said("con.gc.d.and", a, b);
  const lines = [
    [
      gcLine(said("con.gc.start", said("con.gc.job.combine", "1", "0"), "12.000ms", "msg_store_persistent", said("con.gc.files", said("", "0.rdq size=10 live=5 dead=5"), said("", "1.rdq size=8 live=4 dead=4")))),
      "gc combine 1 into 0: start t=12.000ms msg_store_persistent 0.rdq size=10 live=5 dead=5, 1.rdq size=8 live=4 dead=4",
      "gc 把 1 合并进 0：开始 t=12.000ms msg_store_persistent 0.rdq size=10 live=5 dead=5，1.rdq size=8 live=4 dead=4",
    ],
    [
      gcLine(said("con.gc.moved", said("con.gc.job.compact", "1"), "0a1b", "1.rdq@0", "1.rdq@10", "10")),
      "gc compact 1: moved 0a1b from 1.rdq@0 to 1.rdq@10 (10 bytes)",
      "gc 压缩 1：把 0a1b 从 1.rdq@0 移到 1.rdq@10（10 字节）",
    ],
    [
      gcLine(said("con.gc.end", said("con.gc.job.delete", "2"), "1.000ms", "0.500ms", "0", said("con.gc.fileGone", "2.rdq"))),
      "gc delete 2: end t=1.000ms after 0.500ms, 0 moved; 2.rdq gone",
      "gc 删除 2：结束 t=1.000ms，用时 0.500ms，移动了 0 条；2.rdq 已删除",
    ],
    [
      gcLine(said("con.gc.step", said("con.gc.job.compact", "1"), "sync", "msg_store_persistent/1.rdq", and(said("con.gc.d.fsync"), and(said("con.gc.d.moved", "1"), and(said("con.gc.d.indexUpdated"), said("con.gc.d.truncateLater", "5189")))))),
      "gc compact 1: sync msg_store_persistent/1.rdq (fsync; 1 messages moved; index updated; truncate to 5189 once no reader uses the file)",
      "gc 压缩 1：sync msg_store_persistent/1.rdq（fsync 落盘；移动了 1 条消息；索引已更新；等没有读者使用该文件时截断到 5189）",
    ],
  ];
  for (const [line, en, want] of lines) {
    assert.equal(line.text, en, "the engine's English says the line byte for byte");
    assert.equal(consoleSaid(line, "zh").text, want);
    assert.equal(consoleSaid(line, "en").text, en);
  }
});

test("every step of a real garbage collection reads in Chinese, from the engine's data", () => {
  const seen = new Set();
  let n = 0;
  for (const [, ...lines] of data.mistakes) {
    for (const s of lines) {
      if (typeof s === "string") {
        assert.ok(!/^gc (combine|compact|delete|truncate) /.test(s), `a step of show gc comes as words: ${s}`);
        continue;
      }
      if (s.key !== "con.gc.line") {
        continue;
      }
      n++;
      const [inner] = s.args;
      seen.add(inner.key);
      seen.add(inner.args[0].key);
      assert.equal(english(s), s.text, "the engine's catalog says the line");
      const { text, en } = consoleSaid(s, "zh");
      assert.equal(en, s.text);
      assert.ok(text.startsWith("gc "), text);
      assert.match(text, /[\u3400-\u9fff]/, `${s.text} → ${text}`);
      assert.equal(englishRun(text), null, `${s.text}\n  → ${text}`);
    }
  }
  assert.ok(n >= 20, `show gc printed ${n} steps`);
  for (const k of ["con.gc.start", "con.gc.step", "con.gc.moved", "con.gc.end", "con.gc.job.combine", "con.gc.job.compact"]) {
    assert.ok(seen.has(k), `no line of ${k}: ${[...seen]}`);
  }
});

test("a very long line is not searched: its words stay, and it takes no time", () => {
  const name = "q".repeat(1_000_000);
  const line = `error: column 21: queue.declare: queue is 1000000 bytes long; AMQP carries it as a short string of at most 255 bytes (usage: queue.declare queue=${name})`;
  const start = process.hrtime.bigint();
  const out = consoleLine(line, "zh");
  const ms = Number(process.hrtime.bigint() - start) / 1e6;
  assert.ok(out.text.startsWith("错误：column 21: queue.declare: queue is 1000000 bytes long"), out.text.slice(0, 80));
  assert.ok(ms < 500, `${ms} ms`);
  // a long line of many spaces and colons, for the patterns' lazy groups
  const spaced = `error: ${"a: b is on c, which is stopped ".repeat(100)}`;
  const t0 = process.hrtime.bigint();
  consoleLine(spaced, "zh");
  assert.ok(Number(process.hrtime.bigint() - t0) / 1e6 < 2000, "a line of 3,000 characters takes long");
});

test("show's charts and the cluster's locator say their few words in Chinese", () => {
  // as the engine sends them: the line and its sentence
  const said = (text, key, ...args) => ({ text, key, args });
  const unit = (u) => ({ key: `con.show.unit.${u}`, args: [] });
  const lines = [
    [said("depth    ▁████ max 3 msgs now 3 msgs", "con.show.rateRow", "depth    ▁████", "3", unit("msgs"), "3"), "depth    ▁████ 最高 3 条，当前 3 条"],
    [said("publish  ▁█▁▁▁ max 30/s now 0/s", "con.show.rateRow", "publish  ▁█▁▁▁", "30", unit("perSecond"), "0"), "publish  ▁█▁▁▁ 最高 30/秒，当前 0/秒"],
    [said("sched1   ▁▁▁▁▁ now 0%", "con.show.schedRow", "sched1   ▁▁▁▁▁", "0%"), "sched1   ▁▁▁▁▁ 当前 0%"],
    [said("queue_master_locator=client-local (none set) link-delay=0µs", "con.show.noneSet", "queue_master_locator=client-local", " link-delay=0µs"), "queue_master_locator=client-local（未设置） link-delay=0µs"],
    [said("idle: nothing left to run", "con.show.idle"), "idle：没有可运行的了"],
    [said("node cpu=100.0% of 1 schedulers over 0.150ms", "con.show.nodeCpu", "node cpu=100.0%", "1", "0.150ms"), "node cpu=100.0%（1 个调度器，0.150ms 内）"],
    [said("node rabbit@b cpu=50.0% of 2 schedulers over 1.000ms", "con.show.nodeCpu", "node rabbit@b cpu=50.0%", "2", "1.000ms"), "node rabbit@b cpu=50.0%（2 个调度器，1.000ms 内）"],
    [said("    rabbit_amqqueue_sup q restarts=2 in the last 10s, gives up at 6", "con.show.restarts", "    rabbit_amqqueue_sup q ", "2", "6"), "    rabbit_amqqueue_sup q restarts=2（最近 10 秒内），第 6 次时放弃"],
    [said("    rabbit_amqqueue_sup q gave-up: a sixth crash within 10s, the queue has no process", "con.show.gaveUp", "    rabbit_amqqueue_sup q "), "    rabbit_amqqueue_sup q gave-up：10 秒内第六次崩溃，队列已没有进程"],
  ];
  for (const [line, want] of lines) {
    assert.equal(consoleSaid(line, "zh").text, want);
    assert.deepEqual(consoleSaid(line, "en"), { text: line.text, en: null, explain: null });
    assert.equal(consoleLine(line.text, "zh").text, line.text, "the widget reads no show line back");
  }
});

test("an exercise's goal status says what it wants in Chinese, as the console does", () => {
  // as the engine sends them (engine/jsonenc Said): a verdict, what a
  // goal found, each field it wanted
  const want = (field, v) => ({ key: "engine.g.want", args: [field, v] });
  const has = (what, ...off) => ({ key: "engine.g.has", args: [what, { key: "", args: off }] });
  const found = [
    [has("queue q", want("messages=0", "1")), "queue q 当前为 messages=0（应为 1）"],
    [has("credit reader c1 -> channel c1.1", want("left=3", "0"), want("blocked=no", "yes")), "credit reader c1 -> channel c1.1 当前为 left=3（应为 0）, blocked=no（应为 yes）"],
    [has("process reader c1", want("state=runnable", "waiting")), "process reader c1 当前为 state=runnable（应为 waiting）"],
  ];
  for (const [said, zh] of found) {
    const line = { text: "goal not met: …", key: "con.goalNotMet", args: [said] };
    assert.equal(consoleSaid(line, "zh").text, `目标未达成：${zh}`);
  }
  const goals = readFileSync(new URL("../static/widget/goals.js", import.meta.url), "utf8");
  assert.match(goals, /engineSays\(r\.value\.said/, "goals.js says a goal's status from the engine's data");
});
