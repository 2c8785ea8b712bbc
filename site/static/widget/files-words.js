// files-words.js: an annotated file's words in the reader's language. The
// engine reads a file's bytes field by field (engine/store/format
// Annotate, in inspect.wasm) and gives each field's name as a key of the
// catalogs (files.f.*), and its value, an entry's label and why a read
// stopped as words: a string said as it is (a number, hex digits, a quoted
// name), or a key (files.v.*, files.l.*, files.s.*, files.w.*) with its
// arguments {a}, {b}, ..., each words again. Nothing here reads English.

/** said is words of an annotation in the reader's words ("" for none). */
export function said(w, tr) {
  if (!w || typeof w !== "object") {
    return typeof w === "string" ? w : "";
  }
  const params = {};
  (w.args || []).forEach((a, i) => {
    params[String.fromCharCode(97 + i)] = said(a, tr);
  });
  return tr(w.key, params);
}
