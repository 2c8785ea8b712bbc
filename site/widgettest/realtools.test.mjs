// Tests of widget/realtools.js under node:test: every view names the real
// tools that show it, and says what they show in every language.

import { test } from "node:test";
import assert from "node:assert/strict";

import { REAL_TOOLS, realTools } from "../static/widget/realtools.js";
import { VIEWS } from "../static/widget/share.js";
import { CATALOGS, LANGS } from "../static/widget/i18n.js";

test("every view names its real tools, and every language says what they show", () => {
  for (const view of VIEWS) {
    const { commands, key } = realTools(view);
    assert.ok(commands.length > 0, `${view} names no real tool`);
    for (const c of commands) {
      assert.match(c, /^rabbitmq(ctl|-diagnostics) /, `${view}: ${c} is not a command of RabbitMQ's CLI`);
    }
    for (const lang of LANGS) {
      assert.ok(key in CATALOGS[lang], `${key} has no ${lang} text`);
    }
  }
  assert.deepEqual(Object.keys(REAL_TOOLS).sort(), [...VIEWS].sort(), "a real tool for a view the widget has not");
  assert.equal(realTools("nothing").commands.length, 0);
});
