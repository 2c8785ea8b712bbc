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
  const tr = (key, params) => t(key, params, l);
  tr.lang = l;
  return tr;
}

/** number formats n the way lang writes numbers (1,234 in both). */
export function number(n, lang) {
  return Number(n).toLocaleString(normLang(lang) === "zh" ? "zh-CN" : "en");
}

/** engineSays says a sentence the engine gave as data, {text, key, args} (see
 * engine/say), in lang: in English as the engine wrote it (text), in
 * another language as its catalog says key, each argument in its place
 * {a}, {b}, ... and a sentence inside it said in turn. */
export function engineSays(s, lang) {
  if (!s || typeof s !== "object") {
    return typeof s === "string" ? s : "";
  }
  const l = normLang(lang);
  return l === "en" ? s.text : saidIn(s, l);
}

function saidIn(s, l) {
  const args = (s.args || []).map((a) => (typeof a === "string" ? a : saidIn(a, l)));
  if (!s.key) {
    return args.join(", "); // a list, or words (engine/say List, Words)
  }
  const params = {};
  args.forEach((a, i) => (params[String.fromCharCode(97 + i)] = a));
  return t(s.key, params, l);
}


// -------------------------------------------------------------------
// The console's words. The engine's own errors, hints and usages come as
// data beside their English (engine/say: an answer's "said", an error's
// said), and are said from the catalogs by engineSays; RabbitMQ's texts
// (a reply such as NOT_FOUND - no queue 'q' in vhost '/', rabbitmqctl's
// answers, AMQP names, the command syntax) stay as they are, and a channel
// or connection that RabbitMQ closes gets a line that explains its reply
// code.

// WIDGET_TEXTS are the widget's own errors (widget/*.js, not the
// engine's), shown in the console or the problem box, as the widget
// writes them, each with the catalog key that says it with the parts
// (%s) as {a}, {b}, ...
const WIDGET_TEXTS = [
  ["#@cut takes a number of events, not %s", "con.cutNumber"],
  ["the engine is not running (%s); reload the page", "con.engineStopped"],
  ["cannot start the engine's worker: %s", "con.w.workerStart"],
  ["the engine moved this simulation to another worker", "con.w.moved"],
  ["the engine restarted before this could run", "con.w.restarted"],
  ["the engine's worker could not run (is engine-worker.js served to this page?)", "con.w.workerCannotRun"],
  ["cannot load %s: HTTP %s", "con.w.cannotLoad"],
  ["the engine stopped", "con.w.stopped"],
  ["the engine gave no answer in %s s while running this", "con.w.noAnswer"],
  ["warren.wasm started but did not install its functions", "con.w.noFunctions"],
  ["inspect.wasm started but did not install its functions", "con.w.noInspect"],
  ["%s is encrypted in the zip archive", "con.w.zipEncrypted"],
  ["%s: %s bytes in the zip archive, its directory says %s", "con.w.zipSize"],
  ["%s: a zip64 member; make a .tar of the folder instead", "con.w.zip64Member"],
  ["%s: compression method %s of the zip archive is not one a browser reads (0 or 8)", "con.w.zipMethod"],
  ["%s: no local header at offset %s of the zip archive", "con.w.zipLocal"],
  ["%s: the zip archive is cut at byte %s, inside its data at offset %s", "con.w.zipCut"],
  ["a zip64 archive: make a .tar of the folder instead", "con.w.zip64"],
  ["not a tar archive, or a cut one: it ends at byte %s, with no whole header at offset %s nor the end blocks", "con.w.tarEnds"],
  ["not a tar archive, or a cut one: the header at offset %s gives size %s for %s bytes left", "con.w.tarSize"],
  ["not a zip archive, or a cut one: it has no end of central directory", "con.w.zipNoEnd"],
  ["not a zip archive, or a cut one: no central directory entry at offset %s", "con.w.zipNoEntry"],
  ["\"done\" must be an object of exercise: time", "con.w.doneObject"],
  ["not JSON (%s)", "con.w.notJSON"],
  ["not a warren progress file (want \"format\": \"%s\")", "con.w.notProgress"],
  ["the entry %s is not an exercise of a lesson", "con.w.notExercise"],
  ["e=%s is not an event number", "con.w.eventNumber"],
  ["it has characters a link's data never has", "con.w.badChars"],
  ["share-to=\"%s\" is not an address", "con.w.shareTo"],
  ["share-to=\"%s\" is not an http or https address", "con.w.shareToHttp"],
  ["the scenario data in the link cannot be read (%s); the link may have been cut short when it was copied", "con.w.linkUnreadable"],
  ["the scenario in the link unpacks to more than %s bytes, the most a link may carry; it was not run", "con.w.linkTooBig"],
  ["the scenario is %s bytes, more than a link carries (%s)", "con.w.scenarioTooBig"],
  ["v=%s is not a view (%s)", "con.w.notView"],
  ["cannot fetch %s: %s", "con.w.cannotFetch"],
];

/** formatRegExp matches what a format prints: %d an integer (with
 * thousands separators), %s some text. */
function formatRegExp(format) {
  let src = "";
  const verbs = [];
  let last = 0;
  for (const m of format.matchAll(/%[sd]/g)) {
    src += format.slice(last, m.index).replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
    last = m.index + m[0].length;
    verbs.push(m[0][1]);
    src += m[0] === "%d" ? "(-?[\\d,]+)" : "(.*?)";
  }
  src += format.slice(last).replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
  return { re: new RegExp(`^${src}$`, "s"), verbs };
}

const WIDGET_PATTERNS = WIDGET_TEXTS.map(([format, key]) => ({ ...formatRegExp(format), key }));

// LONG_LINE is the longest text of the widget's own said again: a longer
// one keeps its words, lest the patterns take long over it.
const LONG_LINE = 4000;

/** widgetText says one of the widget's own errors in lang, or returns
 * null when it is none of them. */
function widgetText(s, l) {
  if (s.length > LONG_LINE) {
    return null;
  }
  for (const p of WIDGET_PATTERNS) {
    const m = p.re.exec(s);
    if (m) {
      const params = {};
      m.slice(1).forEach((g, i) => (params[String.fromCharCode(97 + i)] = g));
      return t(p.key, params, l);
    }
  }
  return null;
}

/** errorText says an error in lang: e is an error the engine gave as data
 * (an EngineError with its sentence, said), or the text of one, which is
 * the widget's own or RabbitMQ's. With name, the bridge function's name
 * the engine put before it ("parse: ...") is left out. */
export function errorText(e, lang, name) {
  const l = normLang(lang);
  let s = typeof e === "string" ? e : e && typeof e === "object" && "message" in e ? String(e.message) : String(e);
  let said = e && typeof e === "object" && e.said && typeof e.said === "object" ? e.said : null;
  if (name && s.startsWith(`${name}: `)) {
    s = s.slice(name.length + 2);
    said = said && said.key === "con.named" && said.args && said.args[0] === name ? said.args[1] : null;
  }
  if (l === "en") {
    return s;
  }
  if (said) {
    return saidIn(said, l);
  }
  return widgetText(s, l) ?? s;
}

/** consoleSaid says an output line the engine gave as data ({text, key,
 * args}) in lang, as consoleLine does: {text, en, explain}. */
export function consoleSaid(s, lang, why) {
  const l = normLang(lang);
  const text = engineSays(s, l);
  return { text, en: text === s.text ? null : s.text, explain: explained(why, l) };
}

/** explained says in l what a line's reply means, why as the engine gave
 * it beside the line (engine.Result.Explain), or null: in English, whose
 * reader reads RabbitMQ's reply as it is, and for a line without one. */
function explained(why, l) {
  return l === "en" || !why || typeof why !== "object" ? null : saidIn(why, l);
}

/** consoleLine says one output line of the console in lang: {text, en,
 * explain}. text is what the line shows, en the English original when
 * text differs from it, explain what RabbitMQ's reply or rabbitmqctl's
 * refusal the line shows means, from why, the engine's sentence beside
 * the line (the reply itself stays as RabbitMQ wrote it). */
export function consoleLine(line, lang, why) {
  const l = normLang(lang);
  const out = { text: line, en: null, explain: null };
  if (l === "en" || typeof line !== "string") {
    return out;
  }
  if (line.length > LONG_LINE) {
    if (line.startsWith("error: ")) {
      out.text = t("con.error", { a: line.slice(7) }, l);
      out.en = line;
    }
    return out;
  }
  if (line.startsWith("error: ")) {
    out.text = t("con.error", { a: errorText(line.slice(7), l) }, l); // RabbitMQ's words, or the widget's
  }
  out.explain = explained(why, l);
  if (out.text !== line) {
    out.en = line;
  }
  return out;
}

// -------------------------------------------------------------------
// The events list: engine/sim.go Describe prints an event as
//   #12 t=1.234ms sched=1 reader c1: frame from client (12µs)
//   #13 t=1.240ms sched=1 queue q1: deliver from channel c1.1 (3µs)
// The line is a contract and stays as it is in English. In another
// language the widget says warren's words (sched, from, frame from
// client) in it and keeps RabbitMQ's: the process (queue q1, reader c1)
// and the Erlang message it handles (deliver, bump_credit, $gen_call,
// DOWN), which a reader compares with a real broker's trace; the English
// line and what the message means go in the title.

/** eventKey is the catalog key that says what an Erlang message (a kind
 * of event, engine/node/node.go kindNames) means. */
export function eventKey(kind) {
  return `events.kind.${kind === "?" ? "unknown" : kind.replace(/\W/g, "_")}`;
}

/** eventLine says an event of the events list in lang: {text, title};
 * ev is the bridge's event: its line (text), the line as data (said,
 * engine.Sim.EventSaid) and the Erlang message it handled (kind, input);
 * title is the English line and what its message means, or "" in
 * English. */
export function eventLine(ev, lang) {
  const l = normLang(lang);
  if (l === "en" || !ev || !ev.said || typeof ev.kind !== "string") {
    return { text: ev && typeof ev.text === "string" ? ev.text : "", title: "" };
  }
  const means = ev.input ? t("events.kind.frame", null, l) : t(eventKey(ev.kind), null, l);
  return { text: engineSays(ev.said, l), title: `${ev.text}\n${ev.input ? "" : `${ev.kind}: `}${means}` };
}
