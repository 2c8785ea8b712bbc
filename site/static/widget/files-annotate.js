// files-annotate.js: a file of the simulated node's disk read field by
// field, without the DOM: every byte of a .qi (rabbit_classic_queue_index_v2),
// .qs (rabbit_classic_queue_store_v2), .rdq (rabbit_msg_file), journal.jif
// or .idx (rabbit_queue_index) named as a field of its layout, with its
// offset and its value in words, grouped into the file's entries. The
// Files view draws it as a hex and ASCII dump. engine/store/format's test
// (annotate_test.go) runs it under Node on every file RabbitMQ 3.10.8 wrote
// in the fixtures and checks each field against the layouts and the Go
// decoders; widgettest/files-annotate.test.mjs tests it too.

/** MAX_ENTRIES bounds the entries an annotation lists. */
export const MAX_ENTRIES = 256;

const HEADER = 64; // .qi and .qs header
const SLOT = 32; // .qi slot
const QS_HEADER = 8; // .qs entry header
const RDQ_OVERHEAD = 9; // .rdq size field and marker
const MAX_SEQ_HI = 0x3fffffff; // the high 30 bits of a 62-bit seq id

/** kindOf is a file's kind from its name: qi, qs, rdq, jif, idx or "". */
export function kindOf(name) {
  const m = /\.(qi|qs|rdq|idx|jif)$/.exec(name);
  return m ? m[1] : "";
}

const hexOf = (b) => Array.from(b, (x) => x.toString(16).padStart(2, "0")).join("");
const u32 = (d, o) => ((d[o] << 24) >>> 0) + (d[o + 1] << 16) + (d[o + 2] << 8) + d[o + 3];
const u16 = (d, o) => (d[o] << 8) | d[o + 1];
// u64 as a Number: exact up to 2^53, which every offset and seq id here is
const u64 = (d, o) => u32(d, o) * 4294967296 + u32(d, o + 4);
const allZero = (b) => b.every((x) => x === 0);
const zeroWords = (b) => (allZero(b) ? "zeroes" : "not zero");
const expiryWords = (us) => (us === 0 ? "0: none" : `${us} µs since the epoch`);
const quote = (b) => JSON.stringify(String.fromCharCode(...b));

let crcTable = null;
/** crc32 is the CRC-32 (IEEE) of bytes, as the queue store checks it. */
export function crc32(b) {
  if (!crcTable) {
    crcTable = new Uint32Array(256);
    for (let n = 0; n < 256; n++) {
      let c = n;
      for (let k = 0; k < 8; k++) {
        c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
      }
      crcTable[n] = c >>> 0;
    }
  }
  let c = 0xffffffff;
  for (const x of b) {
    c = crcTable[(c ^ x) & 0xff] ^ (c >>> 8);
  }
  return (c ^ 0xffffffff) >>> 0;
}

/** Annotator builds an annotation, one field after the other. */
class Annotator {
  constructor(kind, data) {
    this.data = data;
    this.a = { kind, size: data.length, fields: [], entries: [], total: 0, stop: "" };
    this.entry = -1;
    this.full = false;
  }

  add(off, len, name, role, value) {
    if (this.full || len <= 0) {
      return;
    }
    this.a.fields.push({ off, len, name, value, role, entry: this.entry });
  }

  begin(e) {
    this.a.total++;
    if (this.a.entries.length >= MAX_ENTRIES) {
      this.full = true;
      return false;
    }
    this.a.entries.push(e);
    this.entry = this.a.entries.length - 1;
    return true;
  }

  segmentHeader(magic) {
    const d = this.data;
    if (d.length < HEADER) {
      if (d.length > 0) {
        this.a.stop = `header is ${d.length} bytes, want ${HEADER}`;
      }
      return 0;
    }
    const m = String.fromCharCode(...d.subarray(0, 4));
    if (m !== magic) {
      this.a.stop = `wrong magic ${quote(d.subarray(0, 4))}`;
      return 0;
    }
    const first = u64(d, 5);
    const end = u64(d, 13);
    this.add(0, 4, "magic", "header", m);
    this.add(4, 1, "version", "header", String(d[4]));
    this.add(5, 8, "first seq id", "header", String(first));
    this.add(13, 8, "end seq id", "header", `${end} (first + ${end - first})`);
    this.add(21, HEADER - 21, "reserved", "pad", zeroWords(d.subarray(21, HEADER)));
    return HEADER;
  }

  indexSlots() {
    const d = this.data;
    const first = u64(d, 5);
    let off = HEADER;
    for (; off + SLOT <= d.length; off += SLOT) {
      const b = d.subarray(off, off + SLOT);
      const seq = first + (off - HEADER) / SLOT;
      const present = b[0] === 1;
      const e = { off, len: SLOT, label: `seq ${seq}`, state: present ? "live" : "acked", seq, msg: "", qsOffset: -1 };
      if (present && b[3] === 1) {
        e.msg = hexOf(b.subarray(4, 20));
      }
      if (present && b[3] === 2) {
        e.qsOffset = u64(b, 4);
      }
      if (!this.begin(e)) {
        continue;
      }
      if (allZero(b)) {
        this.add(off, SLOT, "acked slot", "pad", "32 zero bytes: acked (or never written)");
        continue;
      }
      this.add(off, 1, "status", "status", present ? "1: entry" : "0: no entry");
      this.add(off + 1, 1, "flags", "flags", b[1] & 1 ? "1: persistent" : "0: transient");
      this.add(off + 2, 1, "unused", "pad", String(b[2]));
      const where = ["memory only", "shared message store", "queue store (.qs)"][b[3]] || "unknown";
      this.add(off + 3, 1, "location", "location", `${b[3]}: ${where}`);
      if (b[3] === 1) {
        this.add(off + 4, 16, "msg id", "id", hexOf(b.subarray(4, 20)));
      } else if (b[3] === 2) {
        this.add(off + 4, 8, "qs offset", "location", String(u64(b, 4)));
        this.add(off + 12, 4, "qs size", "size", String(u32(b, 12)));
        this.add(off + 16, 4, "padding", "pad", zeroWords(b.subarray(16, 20)));
      } else {
        this.add(off + 4, 16, "location bytes", "pad", zeroWords(b.subarray(4, 20)));
      }
      this.add(off + 20, 4, "body size", "size", String(u32(b, 20)));
      this.add(off + 24, 8, "expiry", "expiry", expiryWords(u64(b, 24)));
    }
    return off;
  }

  queueStore() {
    const d = this.data;
    let off = HEADER;
    for (let n = 0; off < d.length; n++) {
      const left = d.length - off;
      if (left < QS_HEADER) {
        this.a.stop = `entry header is ${left} bytes, want ${QS_HEADER}`;
        return off;
      }
      const size = u32(d, off);
      if (size === 0 || size > left - QS_HEADER) {
        this.a.stop = `entry of ${size} bytes runs past the end of the file`;
        return off;
      }
      const total = QS_HEADER + size;
      const payload = d.subarray(off + QS_HEADER, off + total);
      if (this.begin({ off, len: total, label: `entry ${n}`, state: "live", seq: -1, msg: "", qsOffset: -1 })) {
        const crc = u16(d, off + 5);
        let flags = "0: no CRC";
        let crcWords = String(crc);
        if (d[off + 4] & 1) {
          flags = "1: CRC present";
          crcWords += (crc32(payload) & 0xffff) === crc ? ": matches" : ": does not match";
        }
        this.add(off, 4, "term size", "size", String(size));
        this.add(off + 4, 1, "flags", "flags", flags);
        this.add(off + 5, 2, "crc16", "crc", crcWords);
        this.add(off + 7, 1, "unused", "pad", String(d[off + 7]));
        this.term(off + QS_HEADER, payload);
      }
      off += total;
    }
    return off;
  }

  msgFile() {
    const d = this.data;
    let off = 0;
    for (let n = 0; off < d.length; n++) {
      const left = d.length - off;
      if (left < 8) {
        this.a.stop = "size field cut short";
        return off;
      }
      const size = u64(d, off);
      if (size === 0) {
        this.a.stop = "zero size field: nothing written after this";
        return off;
      }
      if (size < 16 || size + RDQ_OVERHEAD > left) {
        this.a.stop = `entry of size ${size} runs past the end of the file`;
        return off;
      }
      const total = size + RDQ_OVERHEAD;
      const id = hexOf(d.subarray(off + 8, off + 24));
      const marker = d[off + total - 1];
      if (this.begin({ off, len: total, label: `entry ${n}`, state: marker === 0xff ? "live" : "invalid", seq: -1, msg: id, qsOffset: -1 })) {
        this.add(off, 8, "size", "size", `${size} (16 + term)`);
        this.add(off + 8, 16, "msg id", "id", id);
        this.term(off + 24, d.subarray(off + 24, off + total - 1));
        const mh = `0x${marker.toString(16).toUpperCase().padStart(2, "0")}`;
        this.add(off + total - 1, 1, "marker", "marker", marker === 0xff ? `${mh}: write OK` : `${mh}: not 0xFF, the scan skips this entry`);
      }
      off += total;
    }
    return off;
  }

  /** pubLength is the length of a v1 publish record body at off, or -1. */
  pubLength(off) {
    const d = this.data;
    if (d.length - off < 32) {
      return -1;
    }
    const emb = u32(d, off + 28);
    return emb > d.length - off - 32 ? -1 : 32 + emb;
  }

  pubRecord(off) {
    const d = this.data;
    const emb = u32(d, off + 28);
    this.add(off, 16, "msg id", "id", hexOf(d.subarray(off, off + 16)));
    this.add(off + 16, 8, "expiry", "expiry", expiryWords(u64(d, off + 16)));
    this.add(off + 24, 4, "body size", "size", String(u32(d, off + 24)));
    this.add(off + 28, 4, "embedded size", "size", emb === 0 ? "0: the body is in the message store" : String(emb));
    if (emb > 0) {
      this.term(off + 32, d.subarray(off + 32, off + 32 + emb));
    }
  }

  journal() {
    const d = this.data;
    const kinds = ["publish, persistent", "publish, transient", "deliver", "ack"];
    let off = 0;
    while (off < d.length) {
      if (d.length - off < 8) {
        this.a.stop = "record prefix cut short";
        return off;
      }
      const kind = d[off] >> 6;
      const seq = (u32(d, off) & MAX_SEQ_HI) * 4294967296 + u32(d, off + 4);
      const publish = kind <= 1;
      if (publish && d.length - off >= 40 && allZero(d.subarray(off, off + 40))) {
        this.a.stop = "zero record: nothing written after this";
        return off;
      }
      let n = 8;
      if (publish) {
        const m = this.pubLength(off + 8);
        if (m < 0) {
          this.a.stop = "publish record runs past the end of the file";
          return off;
        }
        n += m;
      }
      const label = kind === 2 ? `deliver seq ${seq}` : kind === 3 ? `ack seq ${seq}` : `publish seq ${seq}`;
      const state = kind === 2 ? "delivered" : kind === 3 ? "acked" : "live";
      if (this.begin({ off, len: n, label, state, seq, msg: publish ? hexOf(d.subarray(off + 8, off + 24)) : "", qsOffset: -1 })) {
        this.add(off, 8, "kind and seq id", "seq", `${kind.toString(2).padStart(2, "0")}: ${kinds[kind]}, seq ${seq}`);
        if (publish) {
          this.pubRecord(off + 8);
        }
      }
      off += n;
    }
    return off;
  }

  idxSegment(name, perSegment) {
    const d = this.data;
    const m = /(\d+)\.idx$/.exec(name);
    const seg = m && perSegment > 0 ? Number(m[1]) : 0;
    const seen = new Map();
    let off = 0;
    while (off < d.length) {
      if (d.length - off < 2) {
        this.a.stop = "record prefix cut short";
        return off;
      }
      const word = u16(d, off);
      const rel = word & 0x3fff;
      const seq = perSegment > 0 ? seg * perSegment + rel : -1;
      let n = 2;
      let label;
      let state;
      let prefix;
      let msg = "";
      if (word & 0x8000) {
        const p = this.pubLength(off + 2);
        if (p < 0) {
          this.a.stop = "publish record runs past the end of the file";
          return off;
        }
        n += p;
        const pers = word & 0x4000 ? "persistent" : "transient";
        [label, state, msg] = [`publish seq ${seq}`, "live", hexOf(d.subarray(off + 2, off + 18))];
        prefix = `1${(word >> 14) & 1}: publish, ${pers}, rel seq ${rel}`;
      } else if (word & 0x4000) {
        const count = seen.get(rel) || 0;
        if (count === 0) {
          [label, state, prefix] = [`deliver seq ${seq}`, "delivered", `01: deliver (first for rel seq ${rel})`];
        } else {
          [label, state, prefix] = [`ack seq ${seq}`, "acked", `01: ack (second for rel seq ${rel})`];
        }
        seen.set(rel, count + 1);
      } else {
        this.a.stop = "record prefix 00 is neither publish nor deliver/ack";
        return off;
      }
      if (this.begin({ off, len: n, label, state, seq, msg, qsOffset: -1 })) {
        this.add(off, 2, "kind and rel seq", "seq", prefix);
        if (n > 2) {
          this.pubRecord(off + 2);
        }
      }
      off += n;
    }
    return off;
  }

  /** term names the bytes of a stored message term at off. */
  term(off, b) {
    if (b.length === 0) {
      return;
    }
    const parts = termParts(b);
    if (!parts) {
      this.add(off, b.length, "term", "term", `${b.length} bytes, not a stored message`);
      return;
    }
    const gap = "tags, lengths and atoms of {basic_message, ...}";
    this.add(off, 1, "term version", "term", "131: Erlang external term format");
    let at = 1;
    for (const p of parts) {
      if (p.off > at) {
        this.add(off + at, p.off - at, "term", "term", gap);
      }
      this.add(off + p.off, p.len, p.name, p.role, p.value);
      at = p.off + p.len;
    }
    if (at < b.length) {
      this.add(off + at, b.length - at, "term", "term", gap);
    }
  }
}

/**
 * readTerm reads the Erlang external term at b[pos] (the kinds a stored
 * message holds); it returns [term, next] where a binary is {bin: [off,
 * len]}, an atom {atom}, a tuple or list an array (lists marked .list), or
 * null when the bytes are not such a term.
 */
function readTerm(b, pos, depth) {
  if (depth > 32 || pos >= b.length) {
    return null;
  }
  const tag = b[pos];
  const need = (n) => pos + 1 + n <= b.length;
  switch (tag) {
    case 97: // small integer
      return need(1) ? [b[pos + 1], pos + 2] : null;
    case 98: // integer
      return need(4) ? [u32(b, pos + 1) | 0, pos + 5] : null;
    case 100: // atom
    case 118: {
      if (!need(2)) {
        return null;
      }
      const n = u16(b, pos + 1);
      return need(2 + n) ? [{ atom: String.fromCharCode(...b.subarray(pos + 3, pos + 3 + n)) }, pos + 3 + n] : null;
    }
    case 115: // small atom
    case 119: {
      if (!need(1)) {
        return null;
      }
      const n = b[pos + 1];
      return need(1 + n) ? [{ atom: String.fromCharCode(...b.subarray(pos + 2, pos + 2 + n)) }, pos + 2 + n] : null;
    }
    case 109: {
      // binary
      if (!need(4)) {
        return null;
      }
      const n = u32(b, pos + 1);
      return need(4 + n) ? [{ bin: [pos + 5, n] }, pos + 5 + n] : null;
    }
    case 104: // small tuple
    case 105: {
      const wide = tag === 105;
      if (!need(wide ? 4 : 1)) {
        return null;
      }
      const n = wide ? u32(b, pos + 1) : b[pos + 1];
      let at = pos + (wide ? 5 : 2);
      const out = [];
      for (let i = 0; i < n; i++) {
        const r = readTerm(b, at, depth + 1);
        if (!r) {
          return null;
        }
        out.push(r[0]);
        at = r[1];
      }
      return [out, at];
    }
    case 106: // nil
      return [Object.assign([], { list: true }), pos + 1];
    case 107: {
      // string: a list of small integers
      if (!need(2)) {
        return null;
      }
      const n = u16(b, pos + 1);
      return need(2 + n) ? [Object.assign(Array.from(b.subarray(pos + 3, pos + 3 + n)), { list: true }), pos + 3 + n] : null;
    }
    case 108: {
      // list
      if (!need(4)) {
        return null;
      }
      const n = u32(b, pos + 1);
      let at = pos + 5;
      const out = Object.assign([], { list: true });
      for (let i = 0; i <= n; i++) {
        const r = readTerm(b, at, depth + 1); // the last is the tail, nil
        if (!r) {
          return null;
        }
        if (i < n) {
          out.push(r[0]);
        }
        at = r[1];
      }
      return [out, at];
    }
  }
  return null;
}

/** termParts finds the binaries of a stored message term, in order; null
 * when the bytes are not one. */
function termParts(b) {
  if (b[0] !== 131) {
    return null;
  }
  const r = readTerm(b, 1, 0);
  if (!r || r[1] !== b.length) {
    return null;
  }
  const rec = r[0];
  if (!Array.isArray(rec) || rec.list || rec.length !== 6 || !rec[0] || rec[0].atom !== "basic_message") {
    return null;
  }
  const parts = [];
  const bin = (t, name, role, words) => {
    if (t && t.bin && t.bin[1] > 0) {
      const [off, len] = t.bin;
      parts.push({ off, len, name, role, value: words(b.subarray(off, off + len)) });
    }
  };
  const res = rec[1];
  if (Array.isArray(res) && res.length === 4) {
    bin(res[1], "vhost", "term", quote);
    bin(res[3], "exchange", "term", quote);
  }
  if (Array.isArray(rec[2])) {
    rec[2].forEach((k) => bin(k, "routing key", "term", quote));
  }
  const c = rec[3];
  if (Array.isArray(c) && c.length === 6) {
    bin(c[3], "properties", "flags", propertyWords);
    if (Array.isArray(c[5])) {
      c[5].forEach((f) => bin(f, "body", "body", bodyWords));
    }
  }
  bin(rec[4], "msg id (in term)", "id", hexOf);
  return parts.sort((x, y) => x.off - y.off);
}

/** propertyWords says what encoded properties hold: their flags, and the
 * delivery mode and priority when set (content-type, content-encoding and
 * headers are skipped by their lengths). */
export function propertyWords(x) {
  if (x.length < 2) {
    return hexOf(x);
  }
  const flags = u16(x, 0);
  let s = `flags 0x${hexOf(x.subarray(0, 2))}`;
  let at = 2;
  for (const [bit, long] of [
    [1 << 15, false],
    [1 << 14, false],
    [1 << 13, true],
  ]) {
    if (flags & bit) {
      if (long ? at + 4 > x.length : at >= x.length) {
        return s;
      }
      at += long ? 4 + u32(x, at) : 1 + x[at];
      if (at > x.length) {
        return s;
      }
    }
  }
  for (const [bit, name] of [
    [1 << 12, "delivery-mode"],
    [1 << 11, "priority"],
  ]) {
    if (flags & bit && at < x.length) {
      s += `, ${name} ${x[at]}`;
      at++;
    }
  }
  return s;
}

/** bodyWords is a body's size and its first bytes as text. */
export function bodyWords(x) {
  const head = x.subarray(0, 16);
  let s = `${x.length} bytes`;
  if (head.every((c) => c >= 0x20 && c <= 0x7e)) {
    s += `: ${quote(head)}`;
    if (x.length > head.length) {
      s += "...";
    }
  }
  return s;
}

/**
 * annotate reads a file by the layout its name says: {kind, size, fields:
 * [{off, len, name, value, role, entry}], entries: [{off, len, label,
 * state, seq, msg, qsOffset}], total, stop}. perSegment is the v1 segment
 * size from the vhost's .config (2048), which turns an .idx record's
 * relative seq into a seq id. Bytes no layout explains (after a truncated
 * record) are one "unreadable" field; fields stop after MAX_ENTRIES
 * entries, and total counts them all.
 */
export function annotate(name, data, perSegment = 0) {
  const w = new Annotator(kindOf(name), data);
  let end = 0;
  switch (w.a.kind) {
    case "qi":
      end = w.segmentHeader("RCQI");
      if (end > 0) {
        end = w.indexSlots();
      }
      break;
    case "qs":
      end = w.segmentHeader("RCQS");
      if (end > 0) {
        end = w.queueStore();
      }
      break;
    case "rdq":
      end = w.msgFile();
      break;
    case "jif":
      end = w.journal();
      break;
    case "idx":
      end = w.idxSegment(name, perSegment);
      break;
  }
  if (end < data.length && !w.full) {
    w.entry = -1;
    w.add(end, data.length - end, "unreadable", "pad", w.a.stop);
  }
  return w.a;
}
