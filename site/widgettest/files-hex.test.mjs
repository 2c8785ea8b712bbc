// Tests of widget/files-hex.js under node:test (go test ./site runs them):
// the hex dump's rows from the engine's annotated fields.

import { test } from "node:test";
import assert from "node:assert/strict";

import { ascii, bytesOf, entryAt, fieldIndexAt, hexRows, offsetText, unsynced } from "../static/widget/files-hex.js";

/** field makes an annotated field over bytes of data as jsonenc sends it. */
function field(data, off, len, name) {
  const hex = (a) => a.map((b) => b.toString(16).padStart(2, "0")).join("");
  const b = data.slice(off, off + len);
  return len <= 64 ? { off, len, name, head: hex(b), tail: "" } : { off, len, name, head: hex(b.slice(0, 32)), tail: hex(b.slice(len - 16)) };
}

test("short fields fill aligned rows, each byte marked with its field", () => {
  const data = [...Array(40).keys()];
  const fields = [field(data, 0, 4, "magic"), field(data, 4, 1, "version"), field(data, 5, 35, "rest")];
  const rows = hexRows(fields, 16);
  assert.deepEqual(
    rows.map((r) => r.off),
    [0, 16, 32],
  );
  assert.equal(rows[0].cells[3].field, 0);
  assert.equal(rows[0].cells[4].field, 1);
  assert.ok(rows[0].cells[4].first && rows[0].cells[5].first, "a field's first byte is marked");
  assert.ok(!rows[0].cells[6].first, "and only its first");
  assert.equal(rows[0].cells[5].field, 2);
  assert.equal(rows[2].cells[7].b, 39);
  assert.equal(rows[2].cells[8], null, "past the end of the file");
});

test("a long field shows its head, one gap row, then its tail in its own row", () => {
  const data = Array.from({ length: 300 }, (_, i) => i & 0xff);
  const fields = [field(data, 0, 8, "size"), field(data, 8, 291, "body"), field(data, 299, 1, "marker")];
  const rows = hexRows(fields, 16);
  const gap = rows.find((r) => r.gap !== undefined);
  assert.equal(gap.gap, 291 - 48);
  assert.equal(gap.field, 1);
  const after = rows[rows.indexOf(gap) + 1];
  // the tail starts at 299 - 16 = 283, in the row of 272
  assert.equal(after.off, 272);
  assert.equal(after.cells[283 - 272].b, 283 & 0xff);
  assert.equal(after.cells[10], null, "before the tail, nothing in this row");
  const last = rows[rows.length - 1];
  assert.equal(last.cells[299 - 288].field, 2, "the marker after the tail");
  // every byte shown is the file's byte at its place
  for (const r of rows.filter((r) => r.gap === undefined)) {
    r.cells.forEach((c, i) => c && assert.equal(c.b, data[r.off + i]));
  }
});

test("rows of 8 for a narrow screen", () => {
  const data = [...Array(20).keys()];
  const rows = hexRows([field(data, 0, 20, "x")], 8);
  assert.deepEqual(
    rows.map((r) => r.off),
    [0, 8, 16],
  );
});

test("helpers: bytes, offsets, ascii, entries", () => {
  assert.deepEqual(bytesOf("52435149ff"), [0x52, 0x43, 0x51, 0x49, 0xff]);
  assert.equal(offsetText(864), "00000360");
  assert.equal(ascii(0x52), "R");
  assert.equal(ascii(0), ".");
  const entries = [
    { off: 64, len: 32 },
    { off: 96, len: 32 },
  ];
  assert.equal(entryAt(entries, 63), -1);
  assert.equal(entryAt(entries, 64), 0);
  assert.equal(entryAt(entries, 127), 1);
  assert.equal(entryAt(entries, 128), -1);
  assert.equal(fieldIndexAt([{ off: 0, len: 4 }, { off: 4, len: 1 }], 4), 1);
  assert.ok(unsynced({ off: 64, len: 32 }, 64));
  assert.ok(!unsynced({ off: 64, len: 32 }, 96));
});
