// Tests under node:test (go test ./site runs them) that a damaged share
// link is explained in the reader's language: every LinkError carries a
// catalog key both catalogs have, and said() tells it in Chinese on a
// Chinese widget, in the English of its message on an English one.

import { test } from "node:test";
import assert from "node:assert/strict";

import { LinkError, MAX_SCRIPT_BYTES, said, ShareState, shareTarget } from "../static/widget/share.js";
import { translator } from "../static/widget/i18n.js";
import en from "../static/widget/i18n-en.js";
import zh from "../static/widget/i18n-zh.js";

/** broken are share links and attributes that cannot be read. */
const broken = [
  () => ShareState.decode("#w=not*base64"),
  () => ShareState.decode("#w=AAAA"),
  () => ShareState.decode("#w=" + "A".repeat(8) + "&e=x"),
  async () => ShareState.decode((await new ShareState("queue.declare queue=q", null, null).encode()) + "&e=-1"),
  async () => ShareState.decode((await new ShareState("queue.declare queue=q", null, null).encode()) + "&v=pie"),
  async () => new ShareState("x".repeat(MAX_SCRIPT_BYTES + 1), null, null).encode(),
  async () => shareTarget("javascript:alert(1)", "http://127.0.0.1/"),
  async () => shareTarget("http://[", "http://127.0.0.1/"),
];

test("every damaged link says what is wrong in the reader's language", async () => {
  const seen = new Set();
  for (const f of broken) {
    let err = null;
    try {
      await f();
    } catch (e) {
      err = e;
    }
    assert.ok(err instanceof LinkError, `${f}: ${err}`);
    assert.ok(err.key in en && err.key in zh, `${err.key} is not in both catalogs`);
    seen.add(err.key);
    assert.equal(said(err, translator("en")), err.message);
    const chinese = said(err, translator("zh"));
    assert.match(chinese, /\p{Script=Han}/u, `${err.message} is said ${chinese} in Chinese`);
    assert.doesNotMatch(chinese, /[a-z]{3,} [a-z]{2,} [a-z]{2,}/, `${chinese} keeps English`);
  }
  assert.ok(seen.size >= 6, `only ${[...seen]} were seen`);
});
