// files-words.js: an annotated file's words in the reader's language.
// files-annotate.js names every field and says its value in English (its
// tests read them so, against RabbitMQ 3.10.8's files); the Files view
// shows them through these: a field's name by catalog key, its value, an
// entry's label and why a read stopped by pattern, each pattern's parts
// given to the catalog text as {a}, {b}, ... What no pattern knows (hex,
// numbers, quoted bytes) stays as it is.

/** NAME_KEYS are the catalog keys of the field names. */
const NAME_KEYS = {
  magic: "files.f.magic",
  version: "files.f.version",
  "first seq id": "files.f.firstSeq",
  "end seq id": "files.f.endSeq",
  reserved: "files.f.reserved",
  "acked slot": "files.f.ackedSlot",
  status: "files.f.status",
  flags: "files.f.flags",
  unused: "files.f.unused",
  location: "files.f.location",
  "msg id": "files.f.msgId",
  "qs offset": "files.f.qsOffset",
  "qs size": "files.f.qsSize",
  padding: "files.f.padding",
  "location bytes": "files.f.locationBytes",
  "body size": "files.f.bodySize",
  expiry: "files.f.expiry",
  "term size": "files.f.termSize",
  crc16: "files.f.crc16",
  size: "files.f.size",
  marker: "files.f.marker",
  "embedded size": "files.f.embeddedSize",
  "kind and seq id": "files.f.kindSeq",
  "kind and rel seq": "files.f.kindRelSeq",
  term: "files.f.term",
  "term version": "files.f.termVersion",
  vhost: "files.f.vhost",
  exchange: "files.f.exchange",
  "routing key": "files.f.routingKey",
  properties: "files.f.properties",
  body: "files.f.body",
  "msg id (in term)": "files.f.msgIdInTerm",
  unreadable: "files.f.unreadable",
};

/** Words (a value's own words inside a pattern) by catalog key. */
const WORD_KEYS = {
  persistent: "files.w.persistent",
  transient: "files.w.transient",
};

/** VALUES are the patterns of field values; a part named in WORD_KEYS is
 * said in the reader's language too. */
const VALUES = [
  [/^zeroes$/, "files.v.zeroes"],
  [/^not zero$/, "files.v.notZero"],
  [/^0: none$/, "files.v.noExpiry"],
  [/^(\d+) µs since the epoch$/, "files.v.expiry"],
  [/^(\d+) \(first \+ (\d+)\)$/, "files.v.endSeq"],
  [/^32 zero bytes: acked \(or never written\)$/, "files.v.ackedSlot"],
  [/^1: entry$/, "files.v.entry"],
  [/^0: no entry$/, "files.v.noEntry"],
  [/^1: persistent$/, "files.v.persistent"],
  [/^0: transient$/, "files.v.transient"],
  [/^(\d+): memory only$/, "files.v.memoryOnly"],
  [/^(\d+): shared message store$/, "files.v.sharedStore"],
  [/^(\d+): queue store \(\.qs\)$/, "files.v.queueStore"],
  [/^(\d+): unknown$/, "files.v.unknownLocation"],
  [/^(\d+): matches$/, "files.v.crcMatches"],
  [/^(\d+): does not match$/, "files.v.crcDiffers"],
  [/^(\d+) \(16 \+ term\)$/, "files.v.rdqSize"],
  [/^(0x[0-9A-F]{2}): write OK$/, "files.v.writeOK"],
  [/^(0x[0-9A-F]{2}): not 0xFF, the scan skips this entry$/, "files.v.notWritten"],
  [/^0: the body is in the message store$/, "files.v.inStore"],
  [/^([01]{2}): publish, (persistent|transient), seq (\d+)$/, "files.v.publishSeq"],
  [/^([01]{2}): deliver, seq (\d+)$/, "files.v.deliverSeq"],
  [/^([01]{2}): ack, seq (\d+)$/, "files.v.ackSeq"],
  [/^(1[01]): publish, (persistent|transient), rel seq (\d+)$/, "files.v.publishRel"],
  [/^01: deliver \(first for rel seq (\d+)\)$/, "files.v.deliverRel"],
  [/^01: ack \(second for rel seq (\d+)\)$/, "files.v.ackRel"],
  [/^(\d+) bytes, not a stored message$/, "files.v.notMessage"],
  [/^131: Erlang external term format$/, "files.v.termFormat"],
  [/^tags, lengths and atoms of \{basic_message, \.\.\.\}$/, "files.v.termGap"],
  [/^flags (0x[0-9a-f]{4})((?:, [a-z-]+ \d+)*)$/, "files.v.properties"],
  [/^(\d+) bytes$/, "files.v.body"],
  [/^(\d+) bytes: ("(?:[^"\\]|\\.)*"(?:\.\.\.)?)$/, "files.v.bodyText"],
];

/** LABELS are the patterns of entry labels. */
const LABELS = [
  [/^entry (\d+)$/, "files.l.entry"],
  [/^publish seq (\d+)$/, "files.l.publish"],
  [/^deliver seq (\d+)$/, "files.l.deliver"],
  [/^ack seq (\d+)$/, "files.l.ack"],
];

/** STOPS are the patterns of why a read stopped. */
const STOPS = [
  [/^header is (\d+) bytes, want (\d+)$/, "files.s.shortHeader"],
  [/^wrong magic (.*)$/, "files.s.wrongMagic"],
  [/^entry header is (\d+) bytes, want (\d+)$/, "files.s.shortEntryHeader"],
  [/^entry of (\d+) bytes runs past the end of the file$/, "files.s.entryPastEnd"],
  [/^entry of size (\d+) runs past the end of the file$/, "files.s.sizePastEnd"],
  [/^size field cut short$/, "files.s.sizeCut"],
  [/^zero size field: nothing written after this$/, "files.s.zeroSize"],
  [/^record prefix cut short$/, "files.s.prefixCut"],
  [/^zero record: nothing written after this$/, "files.s.zeroRecord"],
  [/^publish record runs past the end of the file$/, "files.s.publishPastEnd"],
  [/^record prefix 00 is neither publish nor deliver\/ack$/, "files.s.prefix00"],
];

/** byPattern says text by the first of rules it matches, else as it is. */
function byPattern(text, rules, tr) {
  for (const [re, key] of rules) {
    const m = re.exec(text);
    if (m) {
      const params = {};
      m.slice(1).forEach((part, i) => {
        params[String.fromCharCode(97 + i)] = WORD_KEYS[part] ? tr(WORD_KEYS[part]) : part;
      });
      return tr(key, params);
    }
  }
  return text;
}

/** fieldName is a field's name in the reader's words. */
export function fieldName(name, tr) {
  return NAME_KEYS[name] ? tr(NAME_KEYS[name]) : name;
}

/** fieldValue is a field's value in the reader's words (an unreadable
 * field's value is why the read stopped). */
export function fieldValue(value, tr) {
  return byPattern(value, [...VALUES, ...STOPS], tr);
}

/** entryLabel is an entry's label in the reader's words. */
export function entryLabel(label, tr) {
  return byPattern(label, LABELS, tr);
}

/** stopWords is why a read stopped, in the reader's words. */
export function stopWords(stop, tr) {
  return byPattern(stop, STOPS, tr);
}

/** FILE_WORD_KEYS are every catalog key this module asks for (the node
 * test checks that each language has them all). */
export const FILE_WORD_KEYS = [...Object.values(NAME_KEYS), ...Object.values(WORD_KEYS), ...[VALUES, LABELS, STOPS].flatMap((r) => r.map(([, k]) => k))];
