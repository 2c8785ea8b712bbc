// i18n.js: the words of the widget and of the site, in each language the
// site speaks. The catalogs are i18n-en.js and i18n-zh.js, one object of
// key -> text each; the site's generator (site/i18n.go) reads the same
// files for the pages, so a word lives in one place per language.
//
// t(key, params, lang) finds the text of key in lang (English when lang is
// not one the site speaks) and fills {name} with params.name. With a
// params.n, a key "K" has forms "K.one" and "K.other" picked by n (English
// needs them; Chinese has one form and writes only "K"). A key missing in
// the language falls back to English, and one missing everywhere shows as
// itself: the catalog tests (widgettest/i18n.test.mjs) fail on either.
//
// What RabbitMQ itself prints (error replies, rabbitmqctl's output, AMQP
// method names, trace lines) is never in a catalog: it stays as the broker
// prints it, in every language.

import en from "./i18n-en.js";
import zh from "./i18n-zh.js";

/** CATALOGS are the languages the site speaks, by their short name. */
export const CATALOGS = { en, zh };

/** LANGS lists them, English (the default) first. */
export const LANGS = Object.keys(CATALOGS);

/** normLang maps a BCP 47 tag (zh-CN, zh-Hans, en-GB, "") to one of LANGS. */
export function normLang(tag) {
  const base = String(tag || "")
    .trim()
    .toLowerCase()
    .split(/[-_]/)[0];
  return base in CATALOGS ? base : "en";
}

/** langOf is the language an element speaks: its own lang attribute, or
 * the nearest one around it (through shadow roots to their hosts), or the
 * page's <html lang>. */
export function langOf(el) {
  for (let n = el; n; ) {
    if (n.nodeType === 1 && n.hasAttribute("lang") && n.getAttribute("lang") !== "") {
      return normLang(n.getAttribute("lang"));
    }
    n = n.parentNode || n.host || null;
  }
  const doc = el && el.ownerDocument ? el.ownerDocument : globalThis.document;
  return normLang(doc && doc.documentElement ? doc.documentElement.lang : "");
}

/** lookup finds the text of key in lang, with the plural form for n. */
function lookup(key, lang, n) {
  const cats = [CATALOGS[normLang(lang)], en];
  for (const cat of cats) {
    if (n !== undefined) {
      const form = n === 1 ? `${key}.one` : `${key}.other`;
      if (form in cat) {
        return cat[form];
      }
    }
    if (key in cat) {
      return cat[key];
    }
  }
  return key;
}

/** t is the text of key in lang with {name} filled from params. */
export function t(key, params, lang) {
  const n = params && typeof params.n === "number" ? params.n : undefined;
  const text = lookup(key, lang, n);
  if (!params) {
    return text;
  }
  return text.replace(/\{(\w+)\}/g, (whole, name) => (name in params ? String(params[name]) : whole));
}

/** translator is t with the language fixed: tr(key, params). */
export function translator(lang) {
  const l = normLang(lang);
  return (key, params) => t(key, params, l);
}

/** number formats n the way lang writes numbers (1,234 in both). */
export function number(n, lang) {
  return Number(n).toLocaleString(normLang(lang) === "zh" ? "zh-CN" : "en");
}
