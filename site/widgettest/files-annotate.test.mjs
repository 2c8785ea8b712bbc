// Tests of widget/files-annotate.js under node:test (go test ./site runs
// them) on files built here; engine/store/format's annotate_test.go runs
// the same module on every file of RabbitMQ 3.10.8's fixtures.

import { test } from "node:test";
import assert from "node:assert/strict";

import { annotate, bodyWords, crc32, kindOf, propertyWords } from "../static/widget/files-annotate.js";

const be = (n, width) => Array.from({ length: width }, (_, i) => Number((BigInt(n) >> BigInt(8 * (width - 1 - i))) & 0xffn));

/** header is a .qi or .qs header of segment 0. */
const header = (magic) => [...Buffer.from(magic), 2, ...be(0, 8), ...be(4096, 8), ...new Array(43).fill(0)];

/** names lists "off+len name" for each field. */
const names = (a) => a.fields.map((f) => `${f.off}+${f.len} ${f.name}`);

test("a .qi: the header, a present slot pointing into the .qs, an acked slot", () => {
  const slot = [1, 1, 0, 2, ...be(64, 8), ...be(100, 4), 0, 0, 0, 0, ...be(100, 4), ...be(0, 8)];
  const a = annotate("queues/X/0.qi", Uint8Array.from([...header("RCQI"), ...slot, ...new Array(32).fill(0)]));
  assert.deepEqual(names(a), [
    "0+4 magic",
    "4+1 version",
    "5+8 first seq id",
    "13+8 end seq id",
    "21+43 reserved",
    "64+1 status",
    "65+1 flags",
    "66+1 unused",
    "67+1 location",
    "68+8 qs offset",
    "76+4 qs size",
    "80+4 padding",
    "84+4 body size",
    "88+8 expiry",
    "96+32 acked slot",
  ]);
  assert.equal(a.fields[3].value, "4096 (first + 4096)");
  assert.equal(a.fields[6].value, "1: persistent");
  assert.equal(a.fields[8].value, "2: queue store (.qs)");
  assert.deepEqual(
    a.entries.map((e) => [e.label, e.state, e.qsOffset]),
    [
      ["seq 0", "live", 64],
      ["seq 1", "acked", -1],
    ],
  );
  assert.equal(a.stop, "");
});

test("an .rdq: size, id, an unreadable term, the marker; then a zero size field", () => {
  const body = [...Buffer.from("not a term")];
  const entry = [...be(16 + body.length, 8), ...new Array(16).fill(7), ...body, 0xff];
  const a = annotate("msg_store_persistent/0.rdq", Uint8Array.from([...entry, ...new Array(10).fill(0)]));
  assert.deepEqual(names(a), ["0+8 size", "8+16 msg id", "24+10 term", "34+1 marker", "35+10 unreadable"]);
  assert.equal(a.fields[0].value, "26 (16 + term)");
  assert.equal(a.fields[3].value, "0xFF: write OK");
  assert.equal(a.entries[0].msg, "07".repeat(16));
  assert.equal(a.stop, "zero size field: nothing written after this");
});

test("a .qs entry's CRC is checked", () => {
  const payload = [...Buffer.from("xyz")];
  const crc = crc32(Uint8Array.from(payload)) & 0xffff;
  const entry = (c) => [...be(3, 4), 1, ...be(c, 2), 0, ...payload];
  const a = annotate("0.qs", Uint8Array.from([...header("RCQS"), ...entry(crc), ...entry(crc ^ 1)]));
  const crcs = a.fields.filter((f) => f.name === "crc16").map((f) => f.value);
  assert.deepEqual(crcs, [`${crc}: matches`, `${crc ^ 1}: does not match`]);
  assert.equal(crc32(Uint8Array.from(Buffer.from("123456789"))), 0xcbf43926, "the check value of CRC-32");
});

test("v1: journal records and segment records", () => {
  const pub = [...new Array(16).fill(1), ...be(0, 8), ...be(100, 4), ...be(0, 4)];
  const jif = Uint8Array.from([...be(5, 8), ...pub, ...[0x80, 0, 0, 0, 0, 0, 0, 5], ...[0xc0, 0, 0, 0, 0, 0, 0, 5]]);
  const j = annotate("journal.jif", jif);
  assert.deepEqual(
    j.entries.map((e) => `${e.label} ${e.state}`),
    ["publish seq 5 live", "deliver seq 5 delivered", "ack seq 5 acked"],
  );
  assert.equal(j.fields[0].value, "00: publish, persistent, seq 5");
  assert.equal(j.fields[4].value, "0: the body is in the message store");
  const idx = Uint8Array.from([0xc0, 3, ...pub, 0x40, 3, 0x40, 3]);
  const s = annotate("queues/X/1.idx", idx, 2048);
  assert.deepEqual(
    s.entries.map((e) => `${e.label} ${e.state}`),
    ["publish seq 2051 live", "deliver seq 2051 delivered", "ack seq 2051 acked"],
  );
  assert.equal(s.fields[0].value, "11: publish, persistent, rel seq 3");
});

test("words and kinds", () => {
  assert.equal(kindOf("queues/X/0.qi"), "qi");
  assert.equal(kindOf(".vhost"), "");
  assert.equal(bodyWords(Uint8Array.from(Buffer.from("small-01-aaaaaaaaaaaa"))), '21 bytes: "small-01-aaaaaaa"...');
  assert.equal(bodyWords(Uint8Array.from([0, 1])), "2 bytes");
  assert.equal(propertyWords(Uint8Array.from([0x18, 0, 2, 3])), "flags 0x1800, delivery-mode 2, priority 3");
  // content-type "t" before them is skipped by its length
  assert.equal(propertyWords(Uint8Array.from([0x90, 0, 1, 0x74, 2])), "flags 0x9000, delivery-mode 2");
});
