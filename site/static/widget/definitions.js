// definitions.js: a definitions file (the JSON that rabbitmqctl
// export_definitions and the management UI write for RabbitMQ 3.10.8) as
// lines of the command language, for the scenario editor: the same lines
// engine/definitions.Script writes natively, which a Go test
// (site/definitions_script_test.go) checks on the same files. NB: the browser
// build of the engine does not read the JSON itself (warren.wasm's size
// budget): these lines are what runs there. DOM-free.

/** KINDS are what a file may hold that is not imported, in the order the
 * lines name them. */
const KINDS = ["users", "vhosts", "permissions", "topic_permissions", "parameters", "global_parameters",
  "exchanges in other vhosts", "queues in other vhosts", "bindings in other vhosts", "policies in other vhosts",
  "exchanges named amq.*", "queues named amq.*", "quorum queues", "stream queues", "keys"];

const LISTS = ["users", "vhosts", "permissions", "topic_permissions", "parameters", "global_parameters",
  "policies", "queues", "exchanges", "bindings"];

const REQUIRED = {
  exchanges: ["name", "type"],
  queues: ["name"],
  bindings: ["source", "destination", "destination_type"],
  policies: ["name", "pattern"],
};

function fieldKind(key) {
  switch (key) {
    case "durable": case "auto_delete": case "internal":
      return "boolean";
    case "priority":
      return "integer";
    case "arguments": case "definition":
      return "object";
    case "name": case "vhost": case "type": case "source": case "destination": case "destination_type":
    case "routing_key": case "pattern": case "apply-to": case "user": case "component":
      return "string";
  }
  return "";
}

const KIND_WORDS = { boolean: "true or false", integer: "an integer", object: "an object", string: "a string" };

function why(kind) {
  if (kind === "users") return "warren has no users; every connection is guest";
  if (kind === "permissions" || kind === "topic_permissions") return "warren checks no permissions";
  if (kind === "vhosts" || kind.endsWith(" in other vhosts")) return "warren simulates one vhost, /";
  if (kind === "parameters") return "warren models no runtime parameters (federation, shovels, limits)";
  if (kind === "global_parameters") return "warren models no global parameters";
  if (kind === "queues named amq.*") return "RabbitMQ 3.10.8 skips queues whose name begins with amq. on import";
  if (kind === "exchanges named amq.*") return "RabbitMQ 3.10.8 skips the default exchange and those whose name begins with amq. on import";
  if (kind.endsWith(" queues")) return "warren's RabbitMQ 3.10 simulates classic queues";
  return "not a key of RabbitMQ 3.10.8's definitions";
}

/** leftLine says what was left out of one kind, as Left.Line does. */
function leftLine(l) {
  const names = l.names.length > 3 ? l.names.slice(0, 3).join(", ") + ", ..." : l.names.join(", ");
  return `not imported: ${l.kind} (${l.names.length}: ${names}): ${l.why}`;
}

const kindOf = (v) => (v === null ? "null" : Array.isArray(v) ? "array" : Number.isInteger(v) ? "integer" : typeof v);

/** Fail is a file that cannot be read: where, and what is wrong. */
function fail(where, msg) {
  throw new Error(`${where}: ${msg}`);
}

/** value types a JSON value as a field-table value: {kind, v}. */
function value(v, where) {
  switch (kindOf(v)) {
    case "string": return { kind: "str", v };
    case "boolean": return { kind: "bool", v };
    case "integer": return { kind: "int", v };
    case "number": return fail(where, "a number with a fraction or an exponent: warren models whole numbers only");
    case "array": return { kind: "array", v: v.map((e) => value(e, where)) };
    case "object": return { kind: "table", v: table(v, where) };
  }
  return fail(where, "null is not allowed (null_not_allowed)");
}

/** table is an object's fields in sorted key order. */
function table(o, where) {
  if (!o || Array.isArray(o)) {
    return [];
  }
  const keys = Object.keys(o).sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
  return keys.map((k) => {
    try {
      return [k, value(o[k], where)];
    } catch (e) {
      return fail(where, `${k}: ${e.message.slice(where.length + 2)}`);
    }
  });
}

/** parse reads a definitions file as engine/definitions.Parse does. */
export function parseDefinitions(text) {
  let root;
  try {
    root = JSON.parse(text);
  } catch (e) {
    throw new Error(`not JSON: ${e.message}`);
  }
  if (kindOf(root) !== "object") {
    fail("the file", "must be a JSON object, as rabbitmqctl export_definitions writes");
  }
  const d = { exchanges: [], queues: [], bindings: [], policies: [], left: [] };
  const left = new Map();
  const leave = (kind, name) => {
    if (!left.has(kind)) {
      left.set(kind, { kind, why: why(kind), names: [] });
    }
    left.get(kind).names.push(name);
  };
  for (const [key, v] of Object.entries(root)) {
    if (["rabbit_version", "rabbitmq_version", "product_name", "product_version"].includes(key)) {
      continue;
    }
    if (!LISTS.includes(key)) {
      leave("keys", key);
      continue;
    }
    if (!Array.isArray(v)) {
      fail(key, "must be a list");
    }
    v.forEach((o, j) => read(d, leave, key, `${key}[${j}]`, o));
  }
  for (const kind of KINDS) {
    if (left.has(kind)) {
      d.left.push(left.get(kind));
    }
  }
  return d;
}

function read(d, leave, key, where, o) {
  if (kindOf(o) !== "object") {
    fail(where, "must be an object");
  }
  for (const [k, v] of Object.entries(o)) {
    const want = fieldKind(k);
    const got = kindOf(v);
    if (want && want !== got && !(want === "object" && got === "array" && v.length === 0)) {
      fail(`${where}.${k}`, `must be ${KIND_WORDS[want]}`);
    }
  }
  for (const k of REQUIRED[key] || []) {
    if (!(k in o)) {
      fail(`${where}.${k}`, "is missing");
    }
  }
  const s = (k) => (typeof o[k] === "string" ? o[k] : "");
  let name = s("name");
  const vhost = s("vhost") || "/";
  switch (key) {
    case "users": case "global_parameters":
      return leave(key, name);
    case "vhosts":
      return name !== "/" ? leave(key, name) : undefined;
    case "permissions": case "topic_permissions":
      return leave(key, `${s("user")} in ${vhost}`);
    case "parameters":
      return leave(key, `${s("component")} ${name}`);
    case "bindings":
      name = `${s("source")} -> ${s("destination")}`;
  }
  if (vhost !== "/") {
    return leave(`${key} in other vhosts`, `${vhost} ${name}`);
  }
  const args = table(o.arguments, `${where}.arguments`);
  switch (key) {
    case "exchanges":
      if (name === "" || name.startsWith("amq.")) {
        return leave("exchanges named amq.*", name === "" ? '""' : name);
      }
      d.exchanges.push({ name, type: s("type"), durable: !!o.durable, autoDelete: !!o.auto_delete, internal: !!o.internal, args });
      return undefined;
    case "queues": {
      if (name.startsWith("amq.")) {
        return leave("queues named amq.*", name);
      }
      const t = args.find(([k]) => k === "x-queue-type");
      if (t && (t[1].v === "stream" || t[1].v === "quorum")) {
        return leave(`${t[1].v} queues`, name);
      }
      d.queues.push({ name, durable: !!o.durable, autoDelete: !!o.auto_delete, args });
      return undefined;
    }
    case "bindings": {
      const t = s("destination_type");
      if (t !== "queue" && t !== "exchange") {
        fail(`${where}.destination_type`, `must be queue or exchange, got ${JSON.stringify(t)}`);
      }
      d.bindings.push({ source: s("source"), destination: s("destination"), type: t, key: s("routing_key"), args });
      return undefined;
    }
    case "policies": {
      const applyTo = s("apply-to") || "all";
      if (!["queues", "exchanges", "all"].includes(applyTo)) {
        fail(`${where}.apply-to`, `must be queues, exchanges or all, got ${JSON.stringify(applyTo)}`);
      }
      d.policies.push({ name, pattern: s("pattern"), applyTo, priority: o.priority || 0, definition: table(o.definition, `${where}.definition`) });
      return undefined;
    }
  }
  return undefined;
}

const INT32 = (n) => n >= -(2 ** 31) && n < 2 ** 31;

/** word writes a name or value, quoted when the language would read it
 * otherwise. */
function word(s) {
  return /[ \t"]/.test(s) || s.startsWith("(") ? quote(s) : s;
}

function quote(s) {
  return `"${s.replaceAll("\\", "\\\\").replaceAll('"', '\\"')}"`;
}

/** valueWord writes a field value so that the language types it back the
 * same, or null when it cannot. */
function valueWord(val) {
  switch (val.kind) {
    case "str":
      return /^-?[0-9]+$/.test(val.v) && INT32(Number(val.v)) || val.v === "true" || val.v === "false" ? quote(val.v) : word(val.v);
    case "bool":
      return String(val.v);
    case "int":
      return INT32(val.v) ? String(val.v) : null;
  }
  return null;
}

function withArgs(line, args, prefix) {
  const notes = [];
  for (const [k, val] of args) {
    const v = valueWord(val);
    if (v === null || !k.startsWith(prefix) || /[ \t"=]/.test(k)) {
      notes.push(`# not imported: argument ${k} of the line below: the language cannot write it`);
      continue;
    }
    line += ` ${k}=${v}`;
  }
  return [...notes, line];
}

const flag = (on, name) => (on ? ` ${name}` : "");

/** definitionsScript writes a definitions file as lines of the language,
 * in the order rabbit_definitions imports them, for a node that has only
 * the built-in exchanges; it throws an Error that says where a file is
 * wrong. */
export function definitionsScript(text) {
  const d = parseDefinitions(text);
  const out = d.left.map((l) => `# ${leftLine(l)}`);
  const xs = new Set(d.exchanges.map((x) => x.name));
  const qs = new Set(d.queues.map((q) => q.name));
  const exists = (x) => xs.has(x) || x === "" || x.startsWith("amq.");
  const kept = [];
  const dangling = { kind: "bindings whose exchange or queue does not exist", why: "RabbitMQ 3.10.8 skips them on import", names: [] };
  for (const b of d.bindings) {
    const dest = b.type === "exchange" ? exists(b.destination) : qs.has(b.destination);
    if (b.source !== "" && exists(b.source) && dest) {
      kept.push(b);
    } else {
      dangling.names.push(`${b.source === "" ? '""' : b.source} -> ${b.destination}`);
    }
  }
  if (dangling.names.length > 0) {
    out.push(`# ${leftLine(dangling)}`);
  }
  for (const x of d.exchanges) {
    out.push(...withArgs(`exchange.declare exchange=${word(x.name)} type=${word(x.type)}${flag(x.durable, "durable")}${flag(x.autoDelete, "auto-delete")}${flag(x.internal, "internal")}`, x.args, ""));
  }
  for (const p of d.policies) {
    out.push(...withArgs(`set_policy name=${word(p.name)} pattern=${word(p.pattern)} apply-to=${p.applyTo} priority=${p.priority}`, p.definition, ""));
  }
  for (const q of d.queues) {
    out.push(...withArgs(`queue.declare queue=${word(q.name)}${flag(q.durable, "durable")}${flag(q.autoDelete, "auto-delete")}`, q.args, "x-"));
  }
  for (const b of kept) {
    let line = b.type === "exchange"
      ? `exchange.bind destination=${word(b.destination)} source=${word(b.source)}`
      : `queue.bind queue=${word(b.destination)} exchange=${word(b.source)}`;
    if (b.key !== "") {
      line += ` key=${word(b.key)}`;
    }
    out.push(...withArgs(line, b.args, ""));
  }
  return out;
}

/** looksLikeDefinitions says whether text is a definitions file rather
 * than lines of the language: a JSON object naming one of its lists. */
export function looksLikeDefinitions(text) {
  const t = text.trim();
  return t.startsWith("{") && /"(queues|exchanges|bindings|policies|vhosts|users)"\s*:/.test(t);
}
