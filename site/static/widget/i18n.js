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
// The console's words: warren's own errors, hints and usage (from
// engine/script, the commands, the node's refusals, the budget and the
// bridge), said in the reader's language. RabbitMQ's texts (a reply such
// as NOT_FOUND - no queue 'q' in vhost '/', rabbitmqctl's answers, AMQP
// names, the command syntax) stay as they are; a channel or connection
// that RabbitMQ closes gets a line that explains its reply code.

// CONSOLE_TEXTS are the engine's message formats, as Go writes them
// (widgettest/testdata/engine-texts.json lists them from the source), each
// with the catalog key that says it with the format's verbs as {a}, {b},
// ... A %s, %v or %w part is itself said again when it is one of these.
const CONSOLE_TEXTS = [
  ["basic.publish: count=%d would make the simulation hold %s messages, more than its memory budget of %s; publish fewer in one command", "con.budgetPublish"],
  ["basic.publish: count=%d messages of %s bytes would make the simulation hold %s MB of messages and files, more than its memory budget of %s MB; publish fewer or smaller messages", "con.budgetBytes"],
  ["basic.publish: count=%d messages of %s bytes would make the simulations of this page hold %s MB of messages and files, more than their memory budget of %s MB; publish fewer or smaller messages, or reset another widget", "con.budgetPage"],
  ["on: %s", "con.onWrap"],
  ["cluster: the cluster is formed before anything happens: start a new simulation with cluster nodes=%d first", "con.clusterFirst"],
  ["fault clear: takes no path; it clears every fault of the node", "con.faultClearPath"],
  ["fault: name one fault: %s", "con.faultName"],
  ["set: schedulers can only change while no process is running; run until quiet first", "con.setSchedRunning"],
  ["set: schedulers, the version profile and the file size are chosen before the cluster is formed (every node gets the same)", "con.setBeforeCluster"],
  ["set: the message store's file size and the version profile are chosen before any durable queue writes files: set them first", "con.setBeforeFiles"],
  ["set: the version profile is chosen before anything happens: start a new simulation with set version=%s first", "con.setVersionFirst"],
  ["a goal is an expect command", "con.goalIsExpect"],
  ["usage: %s", "con.usage"],
  ["%s: the engine has no handler for this command", "con.noHandler"],
  ["when: event %d is outside the timeline (0 to %d)", "con.whenOutside"],
  ["when: stopped looking after %s events, at event %d (the budget of one command)", "con.whenStopEvents"],
  ["when: stopped looking after %s events, at event %d (the time budget of one command here, %s)", "con.whenStopTime"],
  ["when: at event %d, %w", "con.whenAt"],
  ["expect: stopped looking after %s trace lines (the budget of one command)", "con.expectStopLines"],
  ["expect: stopped looking after %s trace lines (the time budget of one command here, %s)", "con.expectStopTime"],
  ["expect: not checked: the goals before it took the time budget of one command here, %s", "con.expectNotChecked"],
  ["%s: a single node cannot be stopped and started this way (form a cluster with cluster nodes=N; restart kind=clean restarts one node)", "con.singleNode"],
  ["c%d is on %s, which is stopped: start it (start_app node=%s) or place the connection on a running node (connect on=c%d node=N)", "con.connOnStopped"],
  ["cluster: nodes must be at least 2", "con.clusterTwo"],
  ["cluster: ram=%d leaves no disc node among %d nodes; at least one node must keep the metadata on disk", "con.clusterRam"],
  ["cluster: the cluster is formed already, with %d nodes", "con.clusterFormed"],
  ["connect: %s is stopped", "con.connectStopped"],
  ["%s is stopped; import on a running node", "con.importStopped"],
  ["node= needs a node's number or name", "con.importNode"],
  ["connect: c%d is open on %s already; close it first", "con.connectOpen"],
  ["no node %q in the cluster; its nodes are %v", "con.noNode"],
  ["crash: %s is a quorum queue; crash kills classic queue processes", "con.crashQuorum"],
  ["fault %s: bad path pattern %q: %v", "con.faultBadPath"],
  ["fault %s: missing path=GLOB, the files it hits (path=*.qi hits every queue index segment)", "con.faultNoPath"],
  ["fault %s: path=%s hits the message store's %s: a message store that meets a failed write or fsync crashes and takes its whole vhost down (rabbit_vhost_sup), which is not modelled; fault the queues' files instead (path=*.qi, *.qs, *.idx or journal.jif)", "con.faultMsgStore"],
  ["fault: unknown fault %q; the faults are %s", "con.faultUnknown"],
  ["%s: %d of %d bytes read", "con.bytesRead"],
  ["no file %s on the node's disk", "con.noFile"],
  ["%w: \\%c is not supported", "con.reNotSupported"],
  ["%w: missing )", "con.reMissingParen"],
  ["%w: missing ]", "con.reMissingBracket"],
  ["%w: nothing to repeat at %d", "con.reNothingToRepeat"],
  ["%w: range out of order", "con.reRange"],
  ["%w: trailing backslash", "con.reBackslash"],
  ["%w: unexpected %q at %d", "con.reUnexpected"],
  ["not a valid regular expression", "con.reInvalid"],
  ["restart: kind must be one of clean, crash, power-loss, got %q", "con.restartKind"],
  ["restart: restarting one node of a cluster is not modelled; use a single node", "con.restartCluster"],
  ["restart: the node has no disk", "con.restartNoDisk"],
  ["%s: no queue '%s' in vhost '/'", "con.crashNoQueue"],
  ["seek: event %d is outside the timeline (0 to %d)", "con.seekOutside"],
  ["seek: stopped at event %d of %d after replaying %s events (the budget of one command); seek again to go on", "con.seekStopEvents"],
  ["seek: stopped at event %d of %d after replaying %s events (the time budget of one command here, %s); seek again to go on", "con.seekStopTime"],
  ["step back: already at the start", "con.stepBackStart"],
  ["channel number must be 1 to 65535, got %q", "con.channelNumber"],
  ["expected a connection like c1 or a channel like c1.2, got %q", "con.expectedTarget"],
  ["%s is %d bytes long; AMQP carries it as a short string of at most %d bytes", "con.shortString"],
  ["the line is %s bytes long; a line holds at most %s", "con.lineTooLong"],
  ["write a long body as size=N", "con.longBody"],
  ["a command takes at most %s arguments; this one has %s", "con.tooManyArgs"],
  ["%s goes with saw=, not with queue=", "con.withSaw"],
  ["%s is a flag and takes no value (write %s, not %s=%s)", "con.flagNoValue"],
  ["%s is given twice", "con.givenTwice"],
  ["%s is not a client command", "con.notClient"],
  ["%s is not a list_queues column (want one of %s)", "con.notColumn"],
  ["%s is not something %s= compares (want one of %s)", "con.notCompared"],
  ["%s must be an integer, got %q", "con.mustInt"],
  ["%s must be between %d and %d, got %d", "con.mustBetween"],
  ["%s must be one of %s, got %q", "con.mustOneOf"],
  ["%s must be true or false, got %q", "con.mustBool"],
  ["%s needs a value (%s=...)", "con.needsValue"],
  ["%s needs a value (%s=N)", "con.needsNumber"],
  ["%s needs a value, one of %s", "con.needsOneOf"],
  ["%s: a value starting with ( is read as a list", "con.parenList"],
  ["a file that is gone has no %s: give file=NAME gone alone", "con.goneNoField"],
  ["a goal checks one thing: give one of queue=, saw=, process=, credit=, file=, alarm= or never=", "con.oneGoal"],
  ["a no-ack consumer sends no acks: drop ack-every or no-ack", "con.noAckAckEvery"],
  ["a policy needs at least one KEY=V definition", "con.policyNeedsDef"],
  ["after= goes with saw=: expect on=CONN.CH saw=KIND ... after=power-loss", "con.afterWithSaw"],
  ["alarm= takes nothing more", "con.alarmAlone"],
  ["argument %q has no name", "con.noName"],
  ["channel.close needs a channel like c1.2", "con.closeNeedsChannel"],
  ["commands: %s", "con.commands"],
  ["did you mean %s?", "con.didYouMean"],
  ["empty command", "con.empty"],
  ["give body= or size=, not both", "con.bodyOrSize"],
  ["give exactly one of set= or clear=", "con.setOrClear"],
  ["give ms= or events=, not both", "con.msOrEvents"],
  ["give queue= or saw=, not both", "con.queueOrSaw"],
  ["give queue=Q with the columns it should show, saw=KIND with what a channel should have seen, or process=, credit=, file=, alarm= or never=", "con.goalForms"],
  ["gone goes with file=: expect file=NAME gone", "con.goneWithFile"],
  ["missing %s=", "con.missing"],
  ["missing the command to submit", "con.missingSubmit"],
  ["not in the browser build of warren: drop or paste the definitions file on the scenario editor, which writes it as lines of the language, or run it with go run ./scripts/scenario", "con.defsNative"],
  ["missing the definitions, a JSON object on the same line", "con.missingDefs"],
  ["missing type=", "con.missingType"],
  ["never= needs on=: the connection (blocked) or the channel (dropped) it is about", "con.neverNeedsOn"],
  ["never=dropped is about a channel: on=cN.M", "con.neverDropped"],
  ["on needs a value like c1.1", "con.onNeedsValue"],
  ["on= must name a channel like c1.2 here", "con.onChannel"],
  ["on= must name a connection like c2 here", "con.onConnection"],
  ["put a space between arguments, or the text inside the quotes", "con.spaceBetween"],
  ["say what %s= should show: %s", "con.sayWhat"],
  ["say what the queue should show, as list_queues columns: messages=0 consumers=1 ...", "con.sayQueue"],
  ["submit takes an AMQP method such as basic.publish", "con.submitTakes"],
  ["text right after a closing quote", "con.afterQuote"],
  ["the quote opened here is never closed", "con.quoteOpen"],
  ["try one of: %s", "con.tryOneOf"],
  ["unknown argument %q", "con.unknownArg"],
  ["unknown command %q", "con.unknownCommand"],
  ["usage: submit basic.publish key=q count=100", "con.usageSubmit"],
  ["work-us is the time the client spends on each message before it acks: give ack-every=N too", "con.workUs"],
  ["write key=\"a value\"; inside quotes \\\" is a quote and \\\\ a backslash", "con.quoteHow"],
  ["write the value without a leading parenthesis", "con.noParen"],
  ["no simulation %d (create one first, or it was destroyed)", "con.noSim"],
  ["options are not a JSON object: %v", "con.optsNotObject"],
  ["options: schedulers must be a whole number from 1 to %d, not %v", "con.optsSchedulers"],
  ["options: unknown option %q (known: schedulers)", "con.optsUnknown"],
  ["simulation %d stopped after an internal error (%s); reset it", "con.simStopped"],
  ["step: n must be at least 1, not %d", "con.stepN"],
  ["argument %d (%s) must be a number, not %s", "con.argNumber"],
  ["argument %d (%s) must be a string, not %s", "con.argString"],
  ["argument %d (%s) must be a whole number, not %v", "con.argWhole"],
  ["missing argument %d (%s)", "con.argMissing"],
  ["%s at offset %d", "con.atOffset"],
  ["#@cut takes a number of events, not %s", "con.cutNumber"],
  // the widget's own errors (widget/*.js), shown in the console or the
  // problem box
  ["the engine is not running (%s); reload the page", "con.engineStopped"],
  ["cannot start the engine's worker: %s", "con.w.workerStart"],
  ["the engine moved this simulation to another worker", "con.w.moved"],
  ["the engine restarted before this could run", "con.w.restarted"],
  ["the engine's worker could not run (is engine-worker.js served to this page?)", "con.w.workerCannotRun"],
  ["cannot load %s: HTTP %s", "con.w.cannotLoad"],
  ["the engine stopped", "con.w.stopped"],
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

/** formatRegExp matches what a Go format prints: %q a quoted string, %d
 * an integer (with thousands separators), any other verb some text. */
function formatRegExp(format) {
  let src = "";
  const verbs = [];
  let last = 0;
  for (const m of format.matchAll(/%(?:%|[-+# 0]*\d*[sqdvwcTx])/g)) {
    src += format.slice(last, m.index).replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
    last = m.index + m[0].length;
    if (m[0] === "%%") {
      src += "%";
      continue;
    }
    const v = m[0].slice(-1);
    verbs.push(v);
    src += v === "q" ? '("(?:[^"\\\\]|\\\\.)*")' : v === "d" ? "(-?[\\d,]+)" : "(.*?)";
  }
  src += format.slice(last).replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
  return { re: new RegExp(`^${src}$`, "s"), verbs, literal: format.replace(/%./g, "").length };
}

// The formats with the most literal text are tried first, so that a
// format's own words win over the wrappers ("%s: %w").
// A format whose literal text has no word ("%s: %w") only joins a name
// to a message: messageText takes the name off instead.
const CONSOLE_PATTERNS = CONSOLE_TEXTS.map(([format, key]) => ({ ...formatRegExp(format), key, format }))
  .filter((p) => /[a-z]/i.test(p.format.replace(/%./g, "")))
  .sort((a, b) => b.literal - a.literal);

/** messageText says one of the engine's messages in lang (l is not "en"),
 * or returns null when it is none the catalogs know. lenient says a known
 * hint after an unknown message. */
function messageText(s, l, lenient = false) {
  // a name before the message: "basic.ack: ...", "fault clear: ..."
  const named = /^([a-z][\w.-]*(?: [a-z][\w-]*)?): (.*)$/s.exec(s);
  if (named) {
    const msg = messageText(named[2], l);
    if (msg !== null) {
      return t("con.named", { name: named[1], text: msg }, l);
    }
  }
  for (const p of CONSOLE_PATTERNS) {
    const m = p.re.exec(s);
    if (m) {
      const params = {};
      m.slice(1).forEach((g, i) => {
        const said = p.verbs[i] === "q" || p.verbs[i] === "d" ? null : messageText(g, l);
        params[String.fromCharCode(97 + i)] = said === null ? g : said;
      });
      return t(p.key, params, l);
    }
  }
  // a hint after the message: "... (usage: ...)", "(did you mean x?)"
  if (s.endsWith(")")) {
    for (let i = s.lastIndexOf(" ("); i > 0; i = s.lastIndexOf(" (", i - 1)) {
      const hint = messageText(s.slice(i + 2, -1), l);
      if (hint !== null) {
        const msg = messageText(s.slice(0, i), l);
        if (msg !== null || lenient) {
          return t("con.hinted", { text: msg === null ? s.slice(0, i) : msg, hint }, l);
        }
      }
    }
  }
  return null;
}

// LONG_LINE is the longest text said again: a longer one (a script may
// name a queue with a megabyte) keeps its words, lest the patterns take
// long over it.
const LONG_LINE = 4000;

/** errorText says the text after "error: " in lang: where (line, column),
 * the command, the message and its hint. */
export function errorText(s, lang) {
  const l = normLang(lang);
  if (l === "en" || typeof s !== "string" || s.length > LONG_LINE) {
    return s;
  }
  let m = /^line (\d+), column (\d+): (.*)$/s.exec(s);
  if (m) {
    return t("con.lineColumn", { line: m[1], col: m[2], text: errorText(m[3], l) }, l);
  }
  if ((m = /^column (\d+): (.*)$/s.exec(s))) {
    return t("con.column", { col: m[1], text: errorText(m[2], l) }, l);
  }
  if ((m = /^line (\d+), (.*)$/s.exec(s))) {
    return t("con.line", { line: m[1], text: errorText(m[2], l) }, l);
  }
  const said = messageText(s, l) ?? messageText(s, l, true);
  return said === null ? s : said;
}

// AMQP_CODES are the reply codes the widget explains, by number.
const AMQP_CODES = { 320: "connectionForced", 403: "accessRefused", 404: "notFound", 405: "resourceLocked", 406: "preconditionFailed", 501: "frameError", 502: "syntaxError", 503: "commandInvalid", 504: "channelError", 505: "unexpectedFrame", 506: "resourceError", 530: "notAllowed", 540: "notImplemented", 541: "internalError" };

/** consoleSaid says an output line the engine gave as data ({text, key,
 * args}) in lang, as consoleLine does: {text, en, explain}. */
export function consoleSaid(s, lang) {
  const l = normLang(lang);
  const text = engineSays(s, l);
  return { text, en: text === s.text ? null : s.text, explain: null };
}

/** consoleLine says one output line of the console in lang: {text, en,
 * explain}. text is what the line shows, en the English original when
 * text differs from it, explain a line that explains RabbitMQ's reply
 * when the line shows one (the reply itself stays as RabbitMQ wrote it). */
export function consoleLine(line, lang) {
  const l = normLang(lang);
  const out = { text: line, en: null, explain: null };
  if (l === "en" || typeof line !== "string") {
    return out;
  }
  let m;
  if (line.length > LONG_LINE) {
    if (line.startsWith("error: ")) {
      out.text = t("con.error", { text: line.slice(7) }, l);
      out.en = line;
    }
    return out;
  }
  if (line.startsWith("error: ")) {
    out.text = t("con.error", { text: errorText(line.slice(7), l) }, l);
  } else if (EVENT_LINE.test(line)) {
    out.text = eventLine(line, l).text; // step prints the events it ran
  } else if (line.startsWith("gc ") && (m = gcStepText(line.slice(3), l)) !== null) {
    out.text = `gc ${m}`;
  } else {
    for (const [re, key] of SHOW_LINES) {
      if ((m = re.exec(line))) {
        const params = {};
        m.slice(1).forEach((g, i) => (params[String.fromCharCode(97 + i)] = g));
        if (key === "con.show.rateRow") {
          params.c = t(`con.show.unit.${params.c === "/s" ? "perSecond" : params.c.trim()}`, null, l);
        }
        out.text = t(key, params, l);
        break;
      }
    }
  }
  if ((m = /^(c\d+(?:\.\d+)?) closed code=(\d+) text="(.*)"$/s.exec(line)) || (m = /\b()code=(\d+) text="([A-Z_]+ - .*)"/s.exec(line))) {
    const code = AMQP_CODES[m[2]];
    if (code) {
      const what = m[1] === "" ? "" : m[1].includes(".") ? t("con.amqp.channel", { name: m[1] }, l) : t("con.amqp.connection", { name: m[1] }, l);
      out.explain = t("con.amqp.explain", { code: m[2], name: /^([A-Z_]+)/.exec(m[3]) ? /^([A-Z_]+)/.exec(m[3])[1] : "", what, why: t(`con.amqp.${code}`, null, l) }, l);
    }
  }
  // a message RabbitMQ returned to its publisher (basic.return)
  if ((m = /^(c\d+\.\d+) return code=(312|313) text=([A-Z_]+) /.exec(line))) {
    out.explain = t("con.amqp.returned", { code: m[2], name: m[3], why: t(m[2] === "312" ? "con.amqp.noRoute" : "con.amqp.noConsumers", null, l) }, l);
  }
  // rabbitmqctl's refusals of a policy, which stay as rabbitmqctl says them
  if ((m = /^error: (?:(?:set|clear)_policy: )?(Validation failed|Parameter does not exist)\b/.exec(line))) {
    out.explain = t(m[1] === "Validation failed" ? "con.ctl.validation" : "con.ctl.noParameter", null, l);
  }
  if (out.text !== line) {
    out.en = line;
  }
  return out;
}

// SHOW_LINES are the lines of show's views that hold words of warren's
// own (the rest are name=value fields), each with the catalog key that
// says it with the groups as {a}, {b}, ...
const SHOW_LINES = [
  [/^no process ran during the last command$/, "con.show.noProcess"],
  [/^idle: nothing left to run$/, "con.show.idle"],
  [/^(.*?)restarts=(\d+) in the last 10s, gives up at (\d+)$/, "con.show.restarts"],
  [/^(.*?)gave-up: a sixth crash within 10s, the queue has no process$/, "con.show.gaveUp"],
  [/^throughput over (\S+): ?(.*)$/, "con.show.throughput"],
  [/^(node (?:\S+ )?cpu=\S+) of (\d+) schedulers over (\S+)$/, "con.show.nodeCpu"],
  [/^rates over (\S+) to (\S+), one column per (\d+)ms$/, "con.show.rates"],
  [/^(\S+ +\S+) max (\d+)( msgs| bytes|\/s) now (\d+)(?: msgs| bytes|\/s)$/, "con.show.rateRow"],
  [/^(sched\d+ +\S+) now (\d+%)$/, "con.show.schedRow"],
  [/^(queue_master_locator=client-local) \(none set\)(.*)$/, "con.show.noneSet"],
  [/^(gc store \S+ files=\d+ size=\d+ live=\d+ dead=\d+) \(([\d.]+%) dead\): merges two neighbouring files once the files hold more than (\d+) bytes and more than half of them are dead$/, "con.show.gcCombine"],
  [/^(gc store \S+ files=\d+ size=\d+ live=\d+ dead=\d+) \(([\d.]+%) dead\): compacts a file in place when less than half of it is live, 15 s after an ack$/, "con.show.gcCompact"],
];

/** SHOW_KEYS are the catalog keys of SHOW_LINES, for the tests. */
export const SHOW_KEYS = SHOW_LINES.map(([, key]) => key);

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

const EVENT_LINE = /^#(\d+) t=(\S+) sched=(\d+) (.+?): (frame from client|\S+)(?: from (.+?))? \((\d+)µs\)$/s;

/** eventKey is the catalog key that says what an Erlang message (a kind
 * of event, engine/node/node.go kindNames) means. */
export function eventKey(kind) {
  return `events.kind.${kind === "?" ? "unknown" : kind.replace(/\W/g, "_")}`;
}

/** eventLine says a line of the events list in lang: {text, title}; title
 * is the English line and what its message means, or "" in English. */
export function eventLine(line, lang) {
  const l = normLang(lang);
  const m = l === "en" || typeof line !== "string" ? null : EVENT_LINE.exec(line);
  if (!m) {
    return { text: line, title: "" };
  }
  const [, n, at, sched, proc, kind, from, us] = m;
  const input = kind === "frame from client";
  const what = input ? t("events.fromClient", null, l) : from ? t("events.kindFrom", { kind, from }, l) : kind;
  const text = t("events.line", { n, at, sched, proc, what, us }, l);
  const means = input ? t("events.kind.frame", null, l) : t(eventKey(kind), null, l);
  return { text, title: `${line}\n${input ? "" : `${kind}: `}${means}` };
}

// -------------------------------------------------------------------
// The message store's garbage collection, as show gc lists it (engine/
// node/gc_log.go, engine/store/msg_store_gc.go and msg_store_compact.go):
//   combine 1 into 0: start t=12.000ms msg_store_persistent 0.rdq size=.. live=.. dead=.., 1.rdq ...
//   combine 1 into 0: scan msg_store_persistent/0.rdq (1 live messages (5189 bytes), contiguous up to 0; ...)
//   combine 1 into 0: moved 0a1b... from 1.rdq@0 to 0.rdq@5189 (5189 bytes)
//   combine 1 into 0: end t=12.500ms after 0.500ms, 1 moved; 0.rdq size=.., 1.rdq gone
// The operations (scan, copy, sync, truncate, ...) name what is done to a
// file, as show disk does, and stay; the jobs and the details are said.

// GC_TEXTS are the pieces of a step's detail (the detail is pieces joined
// by "; "), as Go formats, with their catalog keys.
const GC_TEXTS = [
  ["the job stopped after an error", "con.gc.d.abandoned"],
  ["nothing to collect", "con.gc.d.nothing"],
  ["%d live messages (%d bytes), contiguous up to %d", "con.gc.d.liveContiguous"],
  ["merged size will be %d", "con.gc.d.mergedSize"],
  ["temporary copy of the live messages above the contiguous prefix", "con.gc.d.tempCopy"],
  ["%d messages from %s@%d to %s@%d", "con.gc.d.messagesFromTo"],
  ["fsync", "con.gc.d.fsync"],
  ["cut after the contiguous prefix", "con.gc.d.cutPrefix"],
  ["extend to the merged size", "con.gc.d.extend"],
  ["cut after the live messages", "con.gc.d.cutLive"],
  ["%d bytes back from %s to %s@%d", "con.gc.d.bytesBack"],
  ["temporary copy no longer needed", "con.gc.d.tempGone"],
  ["to %d bytes: %s", "con.gc.d.toBytes"],
  ["%d live messages (%d bytes) to append to %s@%d", "con.gc.d.append"],
  ["merged into %s (%d bytes)", "con.gc.d.mergedInto"],
  ["%d bytes reclaimed", "con.gc.d.reclaimed"],
  ["%d live messages again", "con.gc.d.liveAgain"],
  ["the file stays", "con.gc.d.stays"],
  ["no live messages", "con.gc.d.noLive"],
  ["%d entries, none live", "con.gc.d.noneLive"],
  ["%d zero bytes at %d", "con.gc.d.zeroes"],
  ["%d bytes from %d to %d", "con.gc.d.bytesFromTo"],
  ["%d messages moved", "con.gc.d.moved"],
  ["index updated", "con.gc.d.indexUpdated"],
  ["truncate to %d once no reader uses the file", "con.gc.d.truncateLater"],
  ["%d live messages", "con.gc.d.live"],
  ["%d to move", "con.gc.d.toMove"],
  ["the file can shrink to %d bytes", "con.gc.d.canShrink"],
  ["the file is gone", "con.gc.d.fileGone"],
  ["from %d to %d bytes", "con.gc.d.fromTo"],
].map(([format, key]) => ({ ...formatRegExp(format), key }));

/** gcPiece says one piece of a step's detail, or null. */
function gcPiece(s, l) {
  for (const p of GC_TEXTS) {
    const m = p.re.exec(s);
    if (m) {
      const params = {};
      m.slice(1).forEach((g, i) => (params[String.fromCharCode(97 + i)] = p.verbs[i] === "s" ? (gcPiece(g, l) ?? g) : g));
      return t(p.key, params, l);
    }
  }
  return null;
}

/** gcDetail says a step's detail, or null when a piece is none it knows. */
function gcDetail(s, l) {
  const pieces = s.split("; ").map((p) => gcPiece(p, l));
  return pieces.includes(null) ? null : pieces.join(t("list.semicolon", null, l));
}

/** gcJob says a job's name: combine 1 into 0, compact 1, delete 2. */
function gcJob(s, l) {
  const m = /^(combine|delete|compact|truncate) (\d+)(?: into (\d+))?$/.exec(s);
  return m ? t(`con.gc.job.${m[1]}`, m[3] ? { a: m[2], b: m[3] } : { a: m[2] }, l) : s;
}

/** gcFiles says the files of a job: "0.rdq size=.. live=.. dead=.., 1.rdq gone". */
function gcFiles(s, l) {
  return s
    .split(", ")
    .map((f) => f.replace(/^(\S+) gone$/, (w, name) => t("con.gc.fileGone", { name }, l)))
    .join(t("list.comma", null, l));
}

/** gcStepText says a line of the garbage collection's log (without show
 * gc's "gc " in front) in lang, or null when it is none of its lines. */
export function gcStepText(s, lang) {
  const l = normLang(lang);
  if (l === "en") {
    return s;
  }
  let m;
  if ((m = /^(.+?): start t=(\S+) (\S+) (.*)$/.exec(s))) {
    return t("con.gc.start", { job: gcJob(m[1], l), at: m[2], store: m[3], files: gcFiles(m[4], l) }, l);
  }
  if ((m = /^(.+?): moved ([0-9a-f]+) from (\S+) to (\S+) \((\d+) bytes\)$/.exec(s))) {
    return t("con.gc.moved", { job: gcJob(m[1], l), id: m[2], from: m[3], to: m[4], n: m[5] }, l);
  }
  if ((m = /^(.+?): end t=(\S+) after (\S+), (\d+) moved; (.*)$/.exec(s))) {
    return t("con.gc.end", { job: gcJob(m[1], l), at: m[2], took: m[3], moved: m[4], files: gcFiles(m[5], l) }, l);
  }
  if ((m = /^(.*?): (\S+) (\S+) \((.*)\)$/.exec(s))) {
    const detail = gcDetail(m[4], l);
    return detail === null ? null : t("con.gc.step", { job: gcJob(m[1], l), op: m[2], file: m[3], detail }, l);
  }
  if ((m = /^(.*?): (\S+) (\S+)$/.exec(s))) {
    return t("con.gc.stepBare", { job: gcJob(m[1], l), op: m[2], file: m[3] }, l);
  }
  return null;
}
