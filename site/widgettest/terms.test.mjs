// Tests under node:test (go test ./site runs them) of what a message chip
// reads from the snapshot (diagram.js readProps, propWords) and of the
// terms' words (terms.js): each term its own word and explanation, in
// both languages.

import { test } from "node:test";
import assert from "node:assert/strict";

import { propWords, readProps } from "../static/widget/diagram.js";
import { TERMS } from "../static/widget/terms.js";
import { CATALOGS, translator } from "../static/widget/i18n.js";

test("readProps reads priority, persistence and the other properties", () => {
  const p = readProps("priority=9\tpersistent\texpiration=60000\tcontent_type=application/json\tmessage_id=m1");
  assert.deepEqual(p, {
    priority: 9,
    persistent: true,
    transient: false,
    others: [
      ["expiration", "60000"],
      ["content_type", "application/json"],
      ["message_id", "m1"],
    ],
  });
  assert.deepEqual(readProps("transient"), { priority: null, persistent: false, transient: true, others: [] });
  assert.deepEqual(readProps(undefined), { priority: null, persistent: false, transient: false, others: [] });
});

test("propWords says them, in English and Chinese", () => {
  const p = readProps("priority=0\tpersistent\theaders=2");
  assert.deepEqual(propWords(p, translator("en")), ["published with priority 0", "persistent (delivery mode 2)", "headers 2"]);
  assert.deepEqual(propWords(readProps("transient"), translator("zh")), ["没有优先级", "非持久化"]);
});

test("every term has its own word and explanation in every language", () => {
  for (const lang of ["en", "zh"]) {
    const words = new Set();
    for (const [name, t] of Object.entries(TERMS)) {
      assert.ok(t.word in CATALOGS[lang] && t.tip in CATALOGS[lang], `${lang} ${name}`);
      assert.ok(!words.has(CATALOGS[lang][t.word]), `${lang}: ${name} reads like another term`);
      words.add(CATALOGS[lang][t.word]);
    }
  }
  assert.match(CATALOGS.en[TERMS.negative.tip], /keeps sending/);
  assert.match(CATALOGS.en[TERMS.negative.tip], /reader is what stops/);
  assert.doesNotMatch(CATALOGS.en[TERMS.flow.word] + CATALOGS.en[TERMS.prefetch.word], /blocked/, "only an alarm blocks");
});
