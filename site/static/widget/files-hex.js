// files-hex.js: the layout of a file's annotated bytes as a hex and ASCII
// dump, without the DOM (widgettest/files-hex.test.mjs tests it). The
// engine names every byte (engine/store/format Annotation.AppendJSON):
// each field carries its
// bytes whole, or its first 32 and last 16 when it is longer than 64; the
// dump shows the bytes it has, each marked with its field, and one gap
// row for the bytes left out of a long field.

/** bytesOf decodes a hex string to numbers. */
export function bytesOf(hex) {
  const out = new Array(hex.length >> 1);
  for (let i = 0; i < out.length; i++) {
    out[i] = parseInt(hex.substr(i * 2, 2), 16);
  }
  return out;
}

/** hex2 writes a byte as two hex digits. */
export const hex2 = (b) => b.toString(16).padStart(2, "0");

/** ascii is a byte as the dump prints it: itself when printable, else ".". */
export const ascii = (b) => (b >= 0x20 && b < 0x7f ? String.fromCharCode(b) : ".");

/** offsetText writes an offset as 8 hex digits. */
export const offsetText = (off) => off.toString(16).padStart(8, "0");

/**
 * hexRows lays out the fields' bytes in rows of `width` bytes aligned to
 * multiples of width: [{off, cells}] where cells has width entries, each
 * null (a byte not shown in this row) or {b, field, first}; first marks
 * the first byte of a field. A long field's left-out bytes are one row
 * {gap: n, field}, and the row after it starts at the tail's row.
 */
export function hexRows(fields, width = 16) {
  const rows = [];
  let row = null;
  const put = (off, b, field, first) => {
    const start = off - (off % width);
    if (!row || row.off !== start) {
      row = { off: start, cells: new Array(width).fill(null) };
      rows.push(row);
    }
    row.cells[off - start] = { b, field, first };
  };
  fields.forEach((f, i) => {
    const head = bytesOf(f.head || "");
    head.forEach((b, k) => put(f.off + k, b, i, k === 0));
    if (f.tail) {
      const tail = bytesOf(f.tail);
      const from = f.off + f.len - tail.length;
      rows.push({ gap: from - (f.off + head.length), field: i });
      row = null;
      tail.forEach((b, k) => put(from + k, b, i, false));
    }
  });
  return rows;
}

/** entryAt is the index of the entry a byte offset lies in, or -1. */
export function entryAt(entries, off) {
  let lo = 0;
  let hi = entries.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    const e = entries[mid];
    if (off < e.off) {
      hi = mid;
    } else if (off >= e.off + e.len) {
      lo = mid + 1;
    } else {
      return mid;
    }
  }
  return -1;
}

/** unsynced says whether an entry ends past what a power loss keeps. */
export const unsynced = (entry, synced) => entry.off + entry.len > synced;

/** fieldIndexAt is the index of the field holding byte off, or -1. */
export function fieldIndexAt(fields, off) {
  return entryAt(fields, off);
}
