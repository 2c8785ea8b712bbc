// Tests of widget/i18n.js and its catalogs under node:test (go test ./site
// runs them): every key in every language with the same parameters, every
// key the widget asks for in the catalogs, Chinese that is Chinese, and
// the language an element speaks.

import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync, readdirSync } from "node:fs";

import { CATALOGS, LANGS, langOf, normLang, t, translator } from "../static/widget/i18n.js";

const widgetDir = new URL("../static/widget/", import.meta.url);

/** base is a key without its plural suffix. */
const base = (k) => k.replace(/\.(one|other)$/, "");

/** keysOf is the set of base keys of a catalog. */
const keysOf = (cat) => new Set(Object.keys(cat).map(base));

/** params lists the {names} of a text, sorted. */
const params = (text) => [...new Set([...text.matchAll(/\{(\w+)\}/g)].map((m) => m[1]))].sort();

/** forms returns every text of base key k in cat (its plural forms too). */
const forms = (cat, k) => [k, `${k}.one`, `${k}.other`].filter((f) => f in cat).map((f) => cat[f]);

// SAID are the sentences the engine says as data (engine/say), key ->
// English (testdata/engine-texts.json, from the engine): their English is
// the engine's, and every other language's catalog has them.
const SAID = JSON.parse(readFileSync(new URL("testdata/engine-texts.json", import.meta.url), "utf8")).said;

test("every catalog has every key of every other", () => {
  for (const a of LANGS) {
    for (const b of LANGS) {
      const missing = [...keysOf(CATALOGS[a])].filter((k) => !keysOf(CATALOGS[b]).has(k) && !(b === "en" && k in SAID));
      assert.deepEqual(missing, [], `keys of ${a} missing in ${b}`);
    }
  }
  const twice = Object.keys(SAID).filter((k) => k in CATALOGS.en);
  assert.deepEqual(twice, [], "the engine's English (engine/say) is in the English catalog too");
});

test("a key takes the same parameters in every language", () => {
  for (const k of keysOf(CATALOGS.en)) {
    const want = [...new Set(forms(CATALOGS.en, k).flatMap(params))].sort();
    for (const lang of LANGS) {
      for (const text of forms(CATALOGS[lang], k)) {
        // Any form may leave out {n}, which only picks the form.
        for (const p of want) {
          if (p !== "n") {
            assert.ok(params(text).includes(p), `${lang} ${k} has no {${p}}: ${text}`);
          }
        }
        for (const p of params(text)) {
          assert.ok(want.includes(p), `${lang} ${k} has {${p}}, which English has not: ${text}`);
        }
      }
    }
  }
});

test("a plural key has both English forms", () => {
  for (const k of Object.keys(CATALOGS.en)) {
    const m = /^(.*)\.(one|other)$/.exec(k);
    if (m) {
      assert.ok(`${m[1]}.one` in CATALOGS.en && `${m[1]}.other` in CATALOGS.en, `${k} without its other form`);
      assert.ok(!(m[1] in CATALOGS.en), `${m[1]} is both a plain key and a plural`);
    }
  }
});

// SAME lists the keys whose Chinese text may have no Chinese in it: names
// and symbols that read the same in both languages, and the frames of a
// goal's sentence (goalwords.js), which hold only Chinese punctuation.
const SAME = new Set(["site.name", "con.onWrap", "con.named", "con.hinted", "con.gc.step", "con.gc.stepBare", "con.gc.line", "con.gc.files", "con.gc.d.and", "goal.sentence", "goal.comma", "list.semicolon", "list.comma", "announce.sentence", "files.describe", "rates.memEnd"]);

test("Chinese texts are written in Chinese", () => {
  for (const [k, text] of Object.entries(CATALOGS.zh)) {
    if (SAME.has(base(k))) {
      continue;
    }
    assert.match(text, /[\u3400-\u9fff]/, `zh ${k} has no Chinese: ${text}`);
    assert.notEqual(text.trim(), "", `zh ${k} is empty`);
  }
  for (const [k, text] of Object.entries(CATALOGS.en)) {
    assert.notEqual(text.trim(), "", `en ${k} is empty`);
    assert.doesNotMatch(text, /[\u3400-\u9fff]/, `en ${k} has Chinese: ${text}`);
  }
});

test("every catalog file is JSON after export default, as the site's generator reads it", () => {
  for (const lang of LANGS) {
    const src = readFileSync(new URL(`i18n-${lang}.js`, widgetDir), "utf8");
    const m = /^export default (\{[\s\S]*\});\s*$/m.exec(src);
    assert.ok(m, `i18n-${lang}.js: no "export default {...};"`);
    assert.deepEqual(JSON.parse(m[1]), CATALOGS[lang], `i18n-${lang}.js is not plain JSON`);
  }
});

test("every key the widget asks for is in the catalogs", () => {
  const asked = new Map();
  for (const f of readdirSync(widgetDir)) {
    if (!f.endsWith(".js") || f.startsWith("i18n")) {
      continue;
    }
    const src = readFileSync(new URL(f, widgetDir), "utf8");
    for (const m of src.matchAll(/\b(?:t|tr|this\.tr|this\.tx|host\.tr)\(\s*"([\w.-]+)"\s*[,)]/g)) {
      asked.set(m[1], f);
    }
  }
  assert.ok(asked.size > 0, "no t(\"key\") calls found in the widget");
  const en = keysOf(CATALOGS.en);
  for (const [k, f] of asked) {
    assert.ok(en.has(k), `${f} asks for ${k}, which the catalogs lack`);
  }
});

test("t fills parameters, picks plural forms and falls back to English", () => {
  assert.equal(t("goals.someMet", { met: 1, n: 3 }, "en"), "1 of 3 goals met.");
  assert.equal(t("goals.someMet", { met: 0, n: 1 }, "en"), "0 of 1 goal met.");
  assert.equal(t("goals.someMet", { met: 1, n: 3 }, "zh"), "已达成 1 / 3 个目标。");
  assert.equal(t("goals.title", null, "fr"), "Goals");
  assert.equal(t("no.such.key", null, "zh"), "no.such.key");
  assert.equal(translator("zh-CN")("goals.title"), "目标");
});

test("normLang and langOf pick the language", () => {
  assert.equal(normLang("zh-CN"), "zh");
  assert.equal(normLang("zh-Hans"), "zh");
  assert.equal(normLang("EN-gb"), "en");
  assert.equal(normLang(""), "en");
  const el = (lang, parent) => ({ nodeType: 1, parentNode: parent || null, hasAttribute: (n) => n === "lang" && lang !== null, getAttribute: () => lang });
  const doc = { documentElement: { lang: "zh-CN" } };
  const page = el(null);
  page.ownerDocument = doc;
  assert.equal(langOf(page), "zh", "the page's lang");
  const own = el("en", el("zh-CN"));
  assert.equal(langOf(own), "en", "the element's own lang wins");
  const shadowChild = el(null, { nodeType: 11, parentNode: null, host: el("zh") });
  assert.equal(langOf(shadowChild), "zh", "through a shadow root to its host");
});

import { engineSays } from "../static/widget/i18n.js";
import { englishRun } from "./english.mjs";

// CODE are the command language's words (testdata/engine-texts.json).
const CODE = new Set(JSON.parse(readFileSync(new URL("testdata/engine-texts.json", import.meta.url), "utf8")).names);

test("every sentence the engine says as data is said in every language", () => {
  const keys = Object.keys(SAID);
  assert.ok(keys.length > 40, `only ${keys.length} sentences in engine/say`);
  for (const lang of LANGS.filter((l) => l !== "en")) {
    for (const key of keys) {
      assert.ok(key in CATALOGS[lang], `${key} ("${SAID[key]}") has no ${lang} text in i18n-${lang}.js`);
      assert.deepEqual(params(CATALOGS[lang][key]), params(SAID[key]), `${lang} ${key}: ${CATALOGS[lang][key]} against ${SAID[key]}`);
      const sample = {};
      params(SAID[key]).forEach((p) => (sample[p] = p === "a" ? "queue q1" : "3"));
      const text = t(key, sample, lang);
      // a sentence that only joins others ("{a}: {b}", "on: {a}") has no
      // words of its own
      const own = (SAID[key].replace(/\{\w\}/g, "").match(/[a-z]{2,}/gi) || []).some((w) => !CODE.has(w));
      if (lang === "zh" && own) {
        assert.match(text, /[\u3400-\u9fff]/, `${key} became "${text}"`);
        assert.equal(englishRun(text, CODE), null, `${key} became "${text}", English left`);
      }
    }
  }
  const narrated = {
    text: "queue jobs takes a publish from its mailbox; 3 ready, 1 unacked",
    key: "engine.deliverQueue",
    args: ["queue jobs", { key: "engine.readyUnacked", args: ["3", "1"] }],
  };
  assert.equal(engineSays(narrated, "zh"), "queue jobs 从邮箱里取出一条发布；3 条就绪，1 条未确认");
  assert.equal(engineSays(narrated, "en"), narrated.text);
  const alarm = { text: "the memory alarm is raised: every connection that publishes is blocked", key: "engine.m.alarmRaised", args: [{ key: "engine.res.memory", args: [] }] };
  assert.equal(engineSays(alarm, "zh"), "内存告警触发：所有正在发布的连接都被阻塞");
});

test("what a goal found is said in Chinese", () => {
  const said = (key, ...args) => ({ key, args });
  const restart = said("engine.g.sawAfter", "c1.1", "declare-ok messages=1", said("engine.g.clean"));
  assert.equal(engineSays({ text: "", ...said("engine.g.noRestart", restart, said("engine.g.clean")) }, "zh"), "c1.1 在正常重启之后看到 declare-ok messages=1（节点还没有经历过正常重启）");
  assert.equal(engineSays({ text: "", ...said("engine.g.has", "queue q", said("", "messages=3", "consumers=0")) }, "zh"), "queue q 当前为 messages=3, consumers=0");
  assert.equal(engineSays({ text: "", ...said("engine.g.wasBlocked", "reader c1", "40") }, "zh"), "reader c1 从未被阻塞（它在事件 40 停止了读取）");
});

import { shareTarget } from "../static/widget/share.js";

test("a share link opens the playground in the widget's language", () => {
  assert.equal(shareTarget(null, "https://h.example/", "zh").href, "https://h.example/zh/playground/");
  assert.equal(shareTarget(null, "https://h.example/", "en").href, "https://h.example/playground/");
  assert.equal(shareTarget("/mine/", "https://h.example/", "zh").href, "https://h.example/mine/");
});
