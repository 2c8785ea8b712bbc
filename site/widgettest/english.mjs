// english.mjs: finds English prose in a text that a Chinese widget shows,
// for the tests of the console's and the events list's Chinese
// (console-zh.test.mjs, zh-lines.mjs).

/** englishRun finds a run of three or more English words in text that are
 * not the command language's own (code: a set of command names, argument
 * keys and values, columns, views), or null. A quoted text (RabbitMQ's
 * reply in text="...", a value the reader typed in "...") and all-capital
 * words (AMQP reply names, placeholders such as Q or BYTES) are left out. */
export function englishRun(text, code) {
  const bare = text
    .replace(/"(?:[^"\\]|\\.)*"/g, " \u0000 ")
    .replace(/'[^']*'/g, " \u0000 ")
    .replace(/[\u3000-\u303f\u3400-\u9fff\uff00-\uffef]+/g, " \u0000 ");
  let run = [];
  for (const tok of bare.split(/[\s,;]+/)) {
    if (/^[A-Za-z]+$/.test(tok) && !code.has(tok) && !/^[A-Z]+$/.test(tok)) {
      run.push(tok);
      if (run.length >= 3) {
        return run.join(" ");
      }
    } else {
      run = [];
    }
  }
  return null;
}
