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

// ENGINE_TEXTS are the sentences the engine says in English (its plain
// words for an event, engine/narrate.go, and its timeline markers,
// engine/markers.go), each as a pattern and the catalog key that says it
// in another language with the pattern's groups as {a}, {b}, ... A group
// is itself said again if it is one of these sentences (the state after
// "; "); names of processes, queues and files stay as they are.
const N = "([^;:]+?)";
const ENGINE_TEXTS = [
  // narrate.go: the tails
  [/^its mailbox is empty$/, "engine.mailboxEmpty"],
  [/^1 more message waits in its mailbox$/, "engine.mailboxOne"],
  [/^(\d+) more messages wait in its mailbox$/, "engine.mailboxMany"],
  [/^(\d+) ready, (\d+) unacked$/, "engine.readyUnacked"],
  [/^(\d+) ready$/, "engine.ready"],
  [/^itself$/, "engine.itself"],
  [/^memory$/, "engine.res.memory"],
  [/^disk$/, "engine.res.disk"],
  [/^nothing has run yet$/, "engine.nothingYet"],
  // narrate.go: the events
  [new RegExp(`^${N} reads a frame from the client's socket; nothing more is unread$`), "engine.readFrameLast"],
  [new RegExp(`^${N} reads a frame from the client's socket; (\\d+) more publishes wait unread$`), "engine.readFrame"],
  [new RegExp(`^${N} takes a command from ${N}; (.+)$`), "engine.method"],
  [new RegExp(`^${N} gets more credit from ${N}; it may send (\\d+) more before it must wait$`), "engine.bumpCredit"],
  [new RegExp(`^${N} gets more credit from ${N}$`), "engine.bumpCreditBare"],
  [new RegExp(`^${N} sends frames to the client$`), "engine.sendCommand"],
  [new RegExp(`^${N} takes a publish from its mailbox; (.+)$`), "engine.deliverQueue"],
  [new RegExp(`^${N} passes a delivery from ${N} on to its consumer$`), "engine.deliver"],
  [new RegExp(`^${N} hears from ${N} that publishes are safe, and confirms them to its client$`), "engine.confirm"],
  [new RegExp(`^${N} hears from ${N} that publishes were refused, and nacks them to its client$`), "engine.rejectPublish"],
  [new RegExp(`^${N} takes an ack from ${N}; (.+)$`), "engine.ack"],
  [new RegExp(`^${N} puts messages back from ${N}; (.+)$`), "engine.requeue"],
  [new RegExp(`^${N} drops messages ${N} rejected; (.+)$`), "engine.reject"],
  [new RegExp(`^${N} hears that its deliveries went out; (.+)$`), "engine.notifySent"],
  [new RegExp(`^${N} may deliver again: the channel's prefetch has room$`), "engine.resume"],
  [new RegExp(`^${N} answers a call from ${N}; (.+)$`), "engine.call"],
  [new RegExp(`^${N} gets the answer from ${N}$`), "engine.reply"],
  [new RegExp(`^${N} hears that a process it watched has gone; (.+)$`), "engine.down"],
  [new RegExp(`^${N} drops the messages whose TTL ran out; (.+)$`), "engine.dropExpired"],
  [new RegExp(`^${N} hears that the alarm is cleared, and reads its socket again$`), "engine.alarmCleared"],
  [new RegExp(`^${N} hears of a resource alarm, and stops reading publishes from its socket$`), "engine.alarmHeard"],
  [new RegExp(`^${N} pages messages out to disk to free memory; (.+)$`), "engine.pageOut"],
  [new RegExp(`^${N} writes or removes messages for ${N}; (.+)$`), "engine.msgStore"],
  [new RegExp(`^${N} hears from ${N} that its messages are on disk; (.+)$`), "engine.onDisk"],
  [new RegExp(`^${N} runs a step of its job: (.+)$`), "engine.gcStepJob"],
  [new RegExp(`^${N} runs a step of its job$`), "engine.gcStep"],
  [new RegExp(`^${N} looks for files worth compacting$`), "engine.maybeGC"],
  [/^process (\d+) handles (.+)$/, "engine.processHandles"],
  [new RegExp(`^${N} handles (.+?) from ${N}; (.+)$`), "engine.handles"],
  // cmd_expect.go and goal_more.go: what a goal found
  [/^(.+) within (\d+) ms \(it is t=(.+)\)$/, "engine.g.withinNow"],
  [/^(.+) within (\d+) ms$/, "engine.g.within"],
  [/^(.+) \(no such line yet\)$/, "engine.g.noLine"],
  [/^(.+) \(there is no queue (.+)\)$/, "engine.g.noQueue"],
  [/^(.+) \(the node has had no (\S+) restart\)$/, "engine.g.noRestart"],
  [/^(.+) \(every such line came before it, at event (\d+)\)$/, "engine.g.before"],
  [/^(.+?) saw (.+) after a (\S+) restart$/, "engine.g.sawAfter"],
  [/^clean$/, "engine.g.clean"],
  [/^crash$/, "engine.g.crash"],
  [/^power-loss$/, "engine.g.powerLoss"],
  [/^there is no process (.+)$/, "engine.g.noProcess"],
  [/^credit (.+) \(no such link yet\)$/, "engine.g.noLink"],
  [/^file (.+) \(there is no such file\)$/, "engine.g.noFile"],
  [/^no alarm \(alarms: (.+)\)$/, "engine.g.noAlarm"],
  [/^the (\S+) alarm is raised \(alarms: (.+)\)$/, "engine.g.alarmWanted"],
  [/^the (\S+) alarm is raised$/, "engine.g.alarmRaised"],
  [/^(.+) was never blocked \(it stopped reading at event (\d+)\)$/, "engine.g.wasBlocked"],
  [/^(.+) was never blocked$/, "engine.g.neverBlocked"],
  [/^(.+) never had a publish dropped \((.+)\)$/, "engine.g.dropped"],
  [/^(.+) never had a publish dropped$/, "engine.g.neverDropped"],
  [/^file (.+) is gone \(it is there, (\d+) bytes\)$/, "engine.g.notGone"],
  [/^file (.+) is gone$/, "engine.g.gone"],
  [/^(.+?) saw (.+)$/, "engine.g.saw"],
  [/^(queue .+?|process .+?|credit .+?|file .+?) has (.+)$/, "engine.g.has"],
  // markers.go
  [new RegExp(`^${N} stops reading its socket: the publishers on that connection wait$`), "engine.m.blocked"],
  [new RegExp(`^${N} reads its socket again$`), "engine.m.unblocked"],
  [new RegExp(`^${N} confirms publishes to its client$`), "engine.m.confirm"],
  [new RegExp(`^${N} rolls over to a new file: (\\d+)\\.rdq is full, writes go to (\\d+)\\.rdq$`), "engine.m.fileRolled"],
  [new RegExp(`^${N} finished (.+)$`), "engine.m.gcEnd"],
  [new RegExp(`^${N} starts (.+)$`), "engine.m.gcStart"],
  [new RegExp(`^${N} has used its credit towards ${N} \\((-?\\d+)/(\\d+)\\): it sends nothing more until ${N} grants more$`), "engine.m.creditOut"],
  [new RegExp(`^${N} grants ${N} more credit \\((-?\\d+)/(\\d+)\\): it may send again$`), "engine.m.creditBack"],
  [/^the (\S+) alarm is raised: every connection that publishes is blocked$/, "engine.m.alarmRaised"],
  [/^the (\S+) alarm is cleared: publishers may go on$/, "engine.m.alarmCleared"],
  [/^queue (.+?) crashed again: its supervisor gives up, and no process runs it$/, "engine.m.gaveUp"],
  [/^queue (.+?) crashes$/, "engine.m.crashed"],
  [/^its supervisor restarts queue (.+?) \(restart (\d+) within 10 s\)$/, "engine.m.restarted"],
  [/^queue (.+?) runs again, in a new process$/, "engine.m.runsAgain"],
];

/** engineText says a sentence of the engine's (narration, a marker) in
 * lang: as it is in English, or when it is none the catalogs know. */
export function engineText(text, lang) {
  const l = normLang(lang);
  if (l === "en" || typeof text !== "string") {
    return text;
  }
  for (const [re, key] of ENGINE_TEXTS) {
    const m = re.exec(text);
    if (m) {
      const params = {};
      m.slice(1).forEach((g, i) => (params[String.fromCharCode(97 + i)] = engineText(g, l)));
      return t(key, params, l);
    }
  }
  return text;
}

/** ENGINE_KEYS are the catalog keys engineText uses, for the tests. */
export const ENGINE_KEYS = ENGINE_TEXTS.map(([, key]) => key);
