// Tests of widget/files-words.js under node:test (go test ./site runs
// them): the words of an annotated file, as the engine gives them
// (engine/store/format Words: a string, or a catalog key and its
// arguments), said in each language. engine/store/format's tests check
// that every key the annotator says is in both catalogs and that no
// English is left in the Chinese of any fixture file.

import { test } from "node:test";
import assert from "node:assert/strict";

import { said } from "../static/widget/files-words.js";
import { translator } from "../static/widget/i18n.js";

const en = translator("en");
const zh = translator("zh");
const han = /\p{Script=Han}/u;

const w = (key, ...args) => ({ key, args });

test("words without a key are said as they are, in any language", () => {
  for (const tr of [en, zh]) {
    assert.equal(said("559bedb6fd63663e92563bfd97b37ae7", tr), "559bedb6fd63663e92563bfd97b37ae7");
    assert.equal(said('"fx.v2"', tr), '"fx.v2"');
    assert.equal(said("", tr), "");
    assert.equal(said(undefined, tr), "");
  }
});

test("a key is said with its arguments, a key among them in turn", () => {
  const publish = w("files.v.publishSeq", "00", w("files.w.persistent"), "5");
  assert.equal(said(publish, en), "00: publish, persistent, seq 5");
  const inZh = said(publish, zh);
  assert.ok(han.test(inZh) && inZh.includes("00") && inZh.includes("5") && !/persistent|publish/.test(inZh), inZh);
  assert.equal(said(w("files.v.endSeq", "4096", "4096"), en), "4096 (first + 4096)");
  assert.equal(said(w("files.s.shortSlot", "4", "32"), en), "slot is 4 bytes, want 32");
  assert.equal(said(w("files.v.termGap"), en), "tags, lengths and atoms of {basic_message, ...}");
  assert.equal(said(w("files.v.bodyText", "21", '"small-01-aaaaaaa"...'), en), '21 bytes: "small-01-aaaaaaa"...');
  const body = said(w("files.v.bodyText", "21", '"{a}"'), zh);
  assert.ok(body.includes('"{a}"') && body.includes("21"), `an argument is not read as a place: ${body}`);
});
