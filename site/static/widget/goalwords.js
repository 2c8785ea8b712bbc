// goalwords.js: an exercise's goal said in words. parseGoal reads an
// `expect` line as the command language does (key=value, key="a value",
// flags); goalSentence makes one plain sentence from what it read, for
// every form of goal the engine checks (engine/cmd_expect.go and
// engine/goal_more.go): a queue's columns, a line a channel saw, a
// process, the credit between two processes, a file, an alarm, something
// that never happened, and a limit on virtual time. The words are the
// catalog's (i18n.js), in the widget's language. No DOM here: the
// sentences are unit-tested under node:test.

import { normLang, number, t } from "./i18n.js";

/** tokens splits a line at spaces and tabs; a value may be quoted
 * (key="a value", with \" and \\ inside), as engine/script tokenizes. */
export function tokens(line) {
  const out = [];
  let i = 0;
  while (i < line.length) {
    while (i < line.length && (line[i] === " " || line[i] === "\t")) {
      i++;
    }
    const start = i;
    let word = "";
    while (i < line.length && line[i] !== " " && line[i] !== "\t") {
      const c = line[i];
      if (c !== '"' || word.indexOf("=") !== word.length - 1 || i - start !== word.length) {
        word += c;
        i++;
        continue;
      }
      i++; // the quote that opens a value
      while (i < line.length) {
        if (line[i] === "\\" && (line[i + 1] === '"' || line[i + 1] === "\\")) {
          word += line[i + 1];
          i += 2;
          continue;
        }
        if (line[i++] === '"') {
          break;
        }
        word += line[i - 1];
      }
    }
    if (i > start) {
      out.push(word);
    }
  }
  return out;
}

/** The keys that name what a goal is about; the others are its fields. */
const SUBJECTS = ["process", "credit", "file", "alarm", "never", "queue", "saw"];

/** parseGoal reads an expect line: {form, subject, on, fields: [[key,
 * value]], flags: [], within: ms or null}, or null when the line is not an
 * expect command. form is one of SUBJECTS. */
export function parseGoal(line) {
  const words = tokens(line.trim());
  if (words[0] !== "expect") {
    return null;
  }
  const named = new Map();
  const fields = [];
  const flags = [];
  let within = null;
  for (const w of words.slice(1)) {
    if (w.startsWith("#")) {
      break; // a comment
    }
    const eq = w.indexOf("=");
    if (eq < 0) {
      flags.push(w);
      continue;
    }
    const key = w.slice(0, eq);
    const val = w.slice(eq + 1);
    if (key === "within-ms") {
      within = Number(val);
    } else if (SUBJECTS.includes(key) || key === "on") {
      named.set(key, val);
    } else {
      fields.push([key, val]);
    }
  }
  const form = ["process", "credit", "file", "alarm", "never", "queue"].find((k) => named.has(k)) || "saw";
  return { form, subject: named.get(form) ?? "", on: named.get("on") ?? "", fields, flags, within };
}

/** yes reads a yes/no field value. */
function yes(v) {
  return v === "yes" || v === "true";
}

/** The restarts an after= goal names, by their catalog key: a saw= goal
 * with after=KIND counts only a line after the node's last restart of
 * that kind (engine/goal_more.go). */
const AFTER_KEYS = { "power-loss": "goal.afterPowerLoss", crash: "goal.afterCrash", clean: "goal.afterClean" };

/** The kinds of line a channel can see, by their catalog key. */
export const SAW_KEYS = {
  "declare-ok": "goal.saw.declareOk",
  "delete-ok": "goal.saw.deleteOk",
  "purge-ok": "goal.saw.purgeOk",
  "consume-ok": "goal.saw.consumeOk",
  deliver: "goal.saw.deliver",
  "get-ok": "goal.saw.getOk",
  "get-empty": "goal.saw.getEmpty",
  "confirm-ack": "goal.saw.confirmAck",
  "confirm-nack": "goal.saw.confirmNack",
  return: "goal.saw.return",
  cancelled: "goal.saw.cancelled",
  closed: "goal.saw.closed",
  blocked: "goal.saw.blocked",
  unblocked: "goal.saw.unblocked",
  "connection-lost": "goal.saw.connectionLost",
};

/** goalSentence says a parsed goal as one plain sentence in lang
 * (English by default), ending in a full stop. */
export function goalSentence(g, lang) {
  const say = sayer(lang);
  let s = (Object.hasOwn(FORM_SENTENCES, g.form) ? FORM_SENTENCES[g.form] : sawSentence)(g, say, new Map(g.fields));
  if (g.within !== null && Number.isFinite(g.within)) {
    s = say.tr("goal.within", { s, ms: number(g.within, lang) });
  }
  return say.tr("goal.sentence", { s: normLang(lang) === "en" ? `${s[0].toUpperCase()}${s.slice(1)}` : s });
}

/** sayer is what the sentences of goals say their parts with, in lang:
 * tr a key, num a number as written, n a number's plural form (2 when it
 * is no number), list phrases joined ("a", "a and b", "a, b and c"). */
function sayer(lang) {
  const tr = (key, params) => t(key, params, lang);
  return {
    tr,
    num: (v) => (/^-?\d+$/.test(v) ? number(Number(v), lang) : v),
    n: (v) => (/^-?\d+$/.test(v) ? Number(v) : 2),
    list(parts) {
      if (parts.length <= 1) {
        return parts.join("");
      }
      let out = parts[0];
      for (let i = 1; i < parts.length - 1; i++) {
        out = tr("goal.comma", { a: out, b: parts[i] });
      }
      return tr("goal.and", { a: out, b: parts[parts.length - 1] });
    },
  };
}

/** FORM_SENTENCES say a goal of each form but a saw goal (sawSentence),
 * from the goal, a sayer and its fields. */
const FORM_SENTENCES = {
  queue(g, { tr, num, n, list }) {
    const parts = g.fields.map(([k, v]) => queueField(tr, k, v, num, n));
    return parts.length ? tr("goal.queue", { name: g.subject, parts: list(parts) }) : tr("goal.queueExists", { name: g.subject });
  },
  process(g, { tr, num, n, list }, fields) {
    const parts = [];
    if (fields.has("state")) {
      parts.push(tr("goal.p.state", { state: fields.get("state") }));
    }
    if (fields.has("mailbox")) {
      parts.push(tr("goal.p.mailbox", { n: n(fields.get("mailbox")), count: num(fields.get("mailbox")) }));
    }
    if (fields.has("blocked")) {
      parts.push(yes(fields.get("blocked")) ? tr("goal.p.flow") : tr("goal.p.noFlow"));
    }
    return parts.length ? tr("goal.process", { name: g.subject, parts: list(parts) }) : tr("goal.processExists", { name: g.subject });
  },
  credit(g, { tr, num, n, list }, fields) {
    const [from, to] = g.subject.split("->").map((x) => x.trim());
    const parts = [];
    if (fields.has("left")) {
      parts.push(tr("goal.c.left", { n: n(fields.get("left")), count: num(fields.get("left")) }));
    }
    if (fields.has("blocked")) {
      parts.push(yes(fields.get("blocked")) ? tr("goal.c.out") : tr("goal.c.notOut"));
    }
    return tr(parts.length ? "goal.credit" : "goal.creditAny", { from: from || g.subject, to: to || "?", parts: list(parts) });
  },
  file(g, { tr, num, n, list }, fields) {
    if (g.flags.includes("gone")) {
      return tr("goal.fileGone", { name: g.subject });
    }
    const parts = [];
    if (fields.has("entries")) {
      parts.push(tr("goal.f.entries", { n: n(fields.get("entries")), count: num(fields.get("entries")) }));
    }
    if (fields.has("live")) {
      parts.push(tr("goal.f.live", { count: num(fields.get("live")) }));
    }
    if (fields.has("dead")) {
      parts.push(tr("goal.f.dead", { count: num(fields.get("dead")) }));
    }
    if (fields.has("size")) {
      parts.push(tr("goal.f.size", { n: n(fields.get("size")), count: num(fields.get("size")) }));
    }
    return parts.length ? tr("goal.file", { name: g.subject, parts: list(parts) }) : tr("goal.fileExists", { name: g.subject });
  },
  alarm(g, { tr }) {
    return g.subject === "none" ? tr("goal.alarmNone") : g.subject === "disk" ? tr("goal.alarmDisk") : tr("goal.alarmMemory");
  },
  never(g, { tr }) {
    return g.subject === "blocked" ? tr("goal.neverBlocked", { on: g.on || "?" }) : tr("goal.neverDropped", { on: g.on || "?" });
  },
};

/** sawSentence says a goal that a connection or channel saw something. */
function sawSentence(g, { tr, list }, fields) {
  const what = SAW_KEYS[g.subject] ? tr(SAW_KEYS[g.subject]) : tr("goal.saw.kind", { kind: g.subject || "?" });
  const bits = g.fields.filter(([k]) => k !== "after").map(([k, v]) => sawField(tr, k, v));
  for (const f of g.flags) {
    bits.push(f === "redelivered" ? tr("goal.s.redelivered") : f === "persistent" ? tr("goal.s.persistent") : f);
  }
  const seen = bits.length ? tr("goal.sawWith", { what, fields: list(bits) }) : what;
  const s = tr(g.on.includes(".") ? "goal.sawChannel" : "goal.sawConnection", { on: g.on || "?", what: seen });
  const after = AFTER_KEYS[fields.get("after")];
  return after ? tr(after, { s }) : s;
}

/** queueField says one list_queues column of a queue. */
function queueField(tr, k, v, num, n) {
  switch (k) {
    case "messages":
      return tr("goal.q.messages", { n: n(v), count: num(v) });
    case "messages_ready":
      return tr("goal.q.ready", { n: n(v), count: num(v) });
    case "messages_unacknowledged":
      return tr("goal.q.unacked", { n: n(v), count: num(v) });
    case "consumers":
      return tr("goal.q.consumers", { n: n(v), count: num(v) });
    case "node":
      return tr("goal.q.node", { node: v });
    case "policy":
      return v ? tr("goal.q.policy", { policy: v }) : tr("goal.q.noPolicy");
    case "arguments":
      return v === "[]" || v === "" ? tr("goal.q.noArguments") : tr("goal.q.arguments", { args: v });
    case "durable":
      return yes(v) ? tr("goal.q.durable") : tr("goal.q.notDurable");
    case "auto_delete":
      return yes(v) ? tr("goal.q.autoDelete") : tr("goal.q.notAutoDelete");
    case "exclusive":
      return yes(v) ? tr("goal.q.exclusive") : tr("goal.q.notExclusive");
    case "message_bytes":
      return tr("goal.q.bytes", { n: n(v), count: num(v) });
    case "memory":
      return tr("goal.q.memory", { n: n(v), count: num(v) });
    case "state":
      return tr("goal.q.state", { state: v });
    case "consumer_utilisation":
      return tr("goal.q.utilisation", { value: v });
    default:
      return tr("goal.q.field", { key: k, value: v });
  }
}

/** sawField says one field of a trace line. */
function sawField(tr, k, v) {
  switch (k) {
    case "body":
      return tr("goal.s.body", { value: v });
    case "tag":
      return tr("goal.s.tag", { value: v });
    case "priority":
      return tr("goal.s.priority", { value: v });
    default:
      return tr("goal.s.field", { key: k, value: v });
  }
}

/** goalWords is the sentence of an expect line in lang, or the line
 * itself when it is not one. */
export function goalWords(line, lang) {
  const g = parseGoal(line);
  return g ? goalSentence(g, lang) : line;
}
