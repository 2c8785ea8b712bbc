// zh-lines.mjs FILE: reads {"names": [...], "lines": [...]} (console lines
// the engine printed, a line it says as data as its sentence {text, key,
// args}, as the bridge gives it, and a line with what its reply means as
// {line, explain}) and prints, as JSON, each line whose Chinese form
// (widget/i18n.js consoleLine) still holds English prose of warren's own:
// [[line, shown, run], ...]. site's TestChineseConsoleOfEveryLesson runs it
// on the output of every Chinese lesson's blocks.

import { readFileSync } from "node:fs";

import { consoleLine, consoleSaid } from "../static/widget/i18n.js";
import { englishRun } from "./english.mjs";

const data = JSON.parse(readFileSync(process.argv[2], "utf8"));
const code = new Set(data.names);
const bad = [];
for (const entry of data.lines) {
  const { line: said, explain: why } = entry && typeof entry === "object" && "line" in entry ? entry : { line: entry };
  const line = typeof said === "string" ? said : said.text;
  const out = typeof said === "string" ? consoleLine(said, "zh", why) : consoleSaid(said, "zh", why);
  // rabbitmqctl's refusals stay in its words, with a Chinese line under them
  // and a message's body is the publisher's, the last field of its line
  const text = out.explain && /^error: (Validation failed|Parameter does not exist)/.test(line) ? "" : out.text.replace(/ body=.*$/s, "");
  const run = englishRun(text, code) || (out.explain && englishRun(out.explain, code));
  if (run) {
    bad.push([line, out.text, run]);
  }
}
process.stdout.write(JSON.stringify(bad));
