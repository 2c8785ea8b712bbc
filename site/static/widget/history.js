// What a widget's share script keeps of what the reader did: DOM-free, so
// that node:test checks it (site/widgettest/history.test.mjs).

/** typedEntries are the lines a command typed into the console adds to
 * the share script: none when the engine refused it (a refused command
 * changes nothing, so a link has nothing of it to replay, and its reader
 * would open a scenario with a mistake); otherwise a `#@seek` when it was
 * typed after a seek back (pos before end: new history starts there), the
 * `#@cut` the time budget stopped it at, if it did, and the line. */
export function typedEntries({ line, ok, pos, end, cut }) {
  if (!ok) {
    return [];
  }
  const out = [];
  if (pos < end) {
    out.push(`#@seek ${pos}`);
  }
  if (cut) {
    out.push(`#@cut ${cut}`);
  }
  out.push(line);
  return out;
}

/** withCuts puts into a script's lines the cuts of the commands the time
 * budget stopped: each [i, n, replace] puts `#@cut n` before line i, or in
 * place of line i when replace (a `#@cut` the time budget stopped sooner
 * says where it stopped). It returns the new lines. */
export function withCuts(lines, cuts) {
  const out = [...lines];
  for (const [i, n, replace] of [...cuts].sort((a, b) => b[0] - a[0])) {
    out.splice(i, replace ? 1 : 0, `#@cut ${n}`);
  }
  return out;
}
