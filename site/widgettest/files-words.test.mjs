// Tests of widget/files-words.js under node:test (go test ./site runs
// them): the words of an annotated file in each language. In English they
// are files-annotate.js's own, unchanged; in Chinese every field name,
// value, entry label and reason to stop that holds words is said in
// Chinese, and every catalog key the module asks for exists.

import { test } from "node:test";
import assert from "node:assert/strict";

import { annotate } from "../static/widget/files-annotate.js";
import { entryLabel, fieldName, fieldValue, FILE_WORD_KEYS, stopWords } from "../static/widget/files-words.js";
import { translator } from "../static/widget/i18n.js";
import en from "../static/widget/i18n-en.js";
import zh from "../static/widget/i18n-zh.js";

const be = (n, width) => Array.from({ length: width }, (_, i) => Number((BigInt(n) >> BigInt(8 * (width - 1 - i))) & 0xffn));
const header = (magic) => [...Buffer.from(magic), 2, ...be(0, 8), ...be(4096, 8), ...new Array(43).fill(0)];

/** files are annotations of files of every kind, built here. */
function files() {
  const slotQs = [1, 1, 0, 2, ...be(64, 8), ...be(100, 4), 0, 0, 0, 0, ...be(100, 4), ...be(0, 8)];
  const slotStore = [1, 0, 0, 1, ...new Array(16).fill(7), ...be(100, 4), ...be(1700000000000000, 8)];
  const qsEntry = [...be(5, 4), 0, 0, 0, 0, 1, 2, 3, 4, 5];
  const rdq = [...be(16 + 3, 8), ...new Array(16).fill(9), 131, 97, 1, 0x00, ...be(0, 8)];
  const rdqBad = [...be(16 + 1, 8), ...new Array(16).fill(9), 131, 0x7f];
  const jif = [0x00, 0, 0, 0, 0, 0, 0, 1, ...new Array(36).fill(1), 0x80, 0, 0, 0, 0, 0, 0, 1, 0xc0, 0, 0, 0, 0, 0, 0, 1, 0x00, 0, 0];
  return [
    annotate("queues/X/0.qi", Uint8Array.from([...header("RCQI"), ...slotQs, ...slotStore, ...new Array(32).fill(0)])),
    annotate("queues/X/0.qi", Uint8Array.from([...header("RCQX")])),
    annotate("queues/X/0.qi", Uint8Array.from([1, 2, 3])),
    annotate("queues/X/0.qs", Uint8Array.from([...header("RCQS"), ...qsEntry, 1, 2])),
    annotate("msg_store_persistent/0.rdq", Uint8Array.from([...rdq, ...rdqBad])),
    annotate("msg_store_persistent/1.rdq", Uint8Array.from([...be(1000, 8), 1, 2])),
    annotate("msg_store_persistent/2.rdq", Uint8Array.from([0, 0, 0])),
    annotate("queues/X/journal.jif", Uint8Array.from(jif)),
    annotate("queues/X/journal.jif", Uint8Array.from(new Array(40).fill(0))),
  ];
}

/** VALUES are values of every pattern, as files-annotate.js writes them. */
const VALUES = [
  "zeroes", "not zero", "0: none", "1700000000000000 µs since the epoch", "4096 (first + 4096)",
  "32 zero bytes: acked (or never written)", "1: entry", "0: no entry", "1: persistent", "0: transient",
  "0: memory only", "1: shared message store", "2: queue store (.qs)", "7: unknown", "4660: matches", "4660: does not match",
  "35 (16 + term)", "0xFF: write OK", "0x00: not 0xFF, the scan skips this entry", "0: the body is in the message store",
  "00: publish, persistent, seq 1", "01: publish, transient, seq 2", "10: deliver, seq 3", "11: ack, seq 4",
  "11: publish, persistent, rel seq 5", "10: publish, transient, rel seq 6", "01: deliver (first for rel seq 7)",
  "01: ack (second for rel seq 8)", "12 bytes, not a stored message", "131: Erlang external term format",
  "tags, lengths and atoms of {basic_message, ...}", "flags 0x9800, delivery-mode 2, priority 3", "flags 0x0000",
  "5 bytes", '5 bytes: "hello"', '40 bytes: "0123456789abcdef"...',
];
const LABELS = ["entry 0", "publish seq 1", "deliver seq 2", "ack seq 3"];
const STOPS = [
  "header is 3 bytes, want 64", 'wrong magic "RCQX"', "entry header is 2 bytes, want 8", "entry of 5 bytes runs past the end of the file",
  "entry of size 1000 runs past the end of the file", "size field cut short", "zero size field: nothing written after this",
  "record prefix cut short", "zero record: nothing written after this", "publish record runs past the end of the file",
  "record prefix 00 is neither publish nor deliver/ack",
];

const enTr = translator("en");
const zhTr = translator("zh");
const han = /\p{Script=Han}/u;
// English words of warren's own: a word of three letters or more that is
// not one RabbitMQ names a field or a property with
const ownEnglish = (s) => s.replace(/"[^"]*"/g, "").replace(/\b(seq|id|crc16|vhost|Erlang|Unix|basic_message|delivery-mode|priority|flags?)\b/g, "").match(/\b[a-z]{3,}\b/g);

test("every key the module asks for is in both catalogs", () => {
  for (const k of FILE_WORD_KEYS) {
    assert.ok(k in en, `${k} is not in i18n-en.js`);
    assert.ok(k in zh, `${k} is not in i18n-zh.js`);
  }
});

test("in English, the words are files-annotate.js's own", () => {
  for (const a of files()) {
    for (const f of a.fields) {
      assert.equal(fieldName(f.name, enTr), f.name);
      assert.equal(fieldValue(f.value, enTr), f.value);
    }
    for (const e of a.entries) assert.equal(entryLabel(e.label, enTr), e.label);
    assert.equal(stopWords(a.stop, enTr), a.stop);
  }
  for (const v of VALUES) assert.equal(fieldValue(v, enTr), v);
  for (const l of LABELS) assert.equal(entryLabel(l, enTr), l);
  for (const s of STOPS) assert.equal(stopWords(s, enTr), s);
});

test("in Chinese, every word is Chinese", () => {
  const check = (english, chinese, what) => {
    const left = ownEnglish(chinese);
    assert.ok(!left, `${what} ${JSON.stringify(english)} is ${JSON.stringify(chinese)} in Chinese: English left: ${left}`);
    if (ownEnglish(english)) assert.ok(han.test(chinese), `${what} ${JSON.stringify(english)} is not said in Chinese: ${JSON.stringify(chinese)}`);
  };
  const seen = { names: new Set(), stops: new Set() };
  for (const a of files()) {
    for (const f of a.fields) {
      check(f.name, fieldName(f.name, zhTr), "the field name");
      check(f.value, fieldValue(f.value, zhTr), "the value");
      seen.names.add(f.name);
    }
    for (const e of a.entries) check(e.label, entryLabel(e.label, zhTr), "the label");
    if (a.stop) seen.stops.add(a.stop);
    check(a.stop, stopWords(a.stop, zhTr), "the reason to stop");
  }
  for (const v of VALUES) check(v, fieldValue(v, zhTr), "the value");
  for (const l of LABELS) check(l, entryLabel(l, zhTr), "the label");
  for (const s of STOPS) check(s, stopWords(s, zhTr), "the reason to stop");
  assert.ok(seen.names.size >= 20 && seen.stops.size >= 4, `the files built here have only ${seen.names.size} field names and ${seen.stops.size} reasons to stop`);
});
