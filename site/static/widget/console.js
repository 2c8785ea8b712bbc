// console.js: the widget's console: a log of every command with its
// output (a command is a button that goes to where it ended on the
// timeline), a prompt with history and Tab completion from the engine's
// command signatures, and the switch that hands client commands to the
// node without running it.

import { h, setText } from "./dom.js";
import { consoleLine, consoleSaid, translator } from "./i18n.js";

// The console's bounds, so that what a script prints cannot fill the
// page: the lines shown of one command, the characters shown of one line
// (a name may be long), and the commands and output lines the log keeps
// (the oldest go first).
const MAX_OUTPUT_LINES = 200;
const MAX_LINE_CHARS = 2000;
const MAX_CONSOLE_ENTRIES = 400;
const MAX_CONSOLE_LINES = 4000;

/** clip shortens a line past MAX_LINE_CHARS, saying by how much: a
 * console line, or the words of the widget's problem banner. */
export function clip(line, tr) {
  if (line.length <= MAX_LINE_CHARS) {
    return line;
  }
  return `${line.slice(0, MAX_LINE_CHARS)} … ${tr("console.moreChars", { n: (line.length - MAX_LINE_CHARS).toLocaleString("en") })}`;
}

/** Console is the console of one widget. Its host is the element:
 * host.engine completes, host.typed(line) runs what the reader typed,
 * host.pause() and host.seekTo(n, speak) go to where a command ended. */
export class Console {
  constructor(uid, host) {
    this.host = host;
    const tr = (this.tr = host.tr || translator("en"));
    this.entries = [];
    this.lineCount = 0; // output lines shown in the log
    this.history = [];
    this.historyAt = 0;
    this.log = h("div.log", { role: "log", "aria-label": tr("console.output"), "data-role": "console", "data-keys": "native", tabindex: "0" });
    this.input = h("input.cmd", {
      type: "text",
      id: `c-${uid}`,
      autocomplete: "off",
      autocapitalize: "off",
      spellcheck: "false",
      "aria-describedby": `ch-${uid}`,
      placeholder: "queue.declare queue=q",
      onkeydown: (e) => this.key(e),
      onpaste: (e) => this.paste(e),
    });
    this.hint = h("p.hint", { id: `ch-${uid}`, text: tr("console.hint") });
    this.mode = h("input", { type: "checkbox", id: `m-${uid}` });
    this.el = h(
      "section.console",
      { "aria-label": tr("console.label") },
      this.log,
      h(
        "form.prompt",
        { onsubmit: (e) => (e.preventDefault(), this.submit()) },
        h("label.sr-only", { for: `c-${uid}`, text: tr("console.command") }),
        h("span.ps", { "aria-hidden": "true", text: "›" }),
        this.input,
        h("button.run", { type: "submit" }, tr("console.run")),
      ),
      this.hint,
      h("p.mode", null, this.mode, h("label", { for: `m-${uid}`, text: ` ${tr("console.stepMode")}` })),
    );
  }

  /** stepMode: client commands are handed to the node, not run. */
  get stepMode() {
    return this.mode.checked;
  }

  setEnabled(on) {
    this.input.disabled = !on;
  }

  submit() {
    this.host.typed(this.input.value);
    this.input.value = "";
    this.clearCompletion();
  }

  /** paste runs a pasted block of several lines line by line (an input
   * would join them into one line): what was typed before the cursor
   * starts the first line; blank lines and comments are left out. */
  paste(e) {
    const text = e.clipboardData ? e.clipboardData.getData("text/plain") : "";
    if (!/[\r\n]/.test(text.replace(/[\r\n]+$/, ""))) {
      return; // one line: the input takes it
    }
    e.preventDefault();
    const input = this.input;
    const cur = input.selectionStart ?? input.value.length;
    const lines = (input.value.slice(0, cur) + text)
      .split(/\r?\n|\r/)
      .map((l) => l.trim())
      .filter((l) => l && !l.startsWith("#"));
    input.value = "";
    this.clearCompletion();
    this.host.typedLines(lines);
  }

  /** remember puts a command the reader ran in the history. */
  remember(line) {
    if (this.history[this.history.length - 1] !== line) {
      this.history.push(line);
    }
    this.historyAt = this.history.length;
  }

  /** add shows a command ({cmd, lines, at, to, note}) and its output,
   * within the console's bounds; the entry keeps no more of its lines
   * than it shows. */
  add(entry) {
    const e = h("div.entry");
    const cmd = h("button.cmdline", { type: "button", title: this.tr("console.goTo") }, h("span.ps", { "aria-hidden": "true", text: "› " }), clip(entry.cmd, this.tr));
    if (entry.to !== undefined) {
      cmd.addEventListener("click", () => {
        this.host.pause();
        this.host.seekTo(entry.to, true);
      });
    } else {
      cmd.disabled = true;
    }
    entry.cmdEl = cmd;
    e.append(cmd);
    const shown = entry.lines.slice(0, MAX_OUTPUT_LINES);
    const sentences = entry.lines.said;
    const meanings = entry.lines.explain;
    for (const [i, l] of shown.entries()) {
      // warren's own words in the reader's language, the English line
      // in the title; RabbitMQ's reply stays, with what it means under it
      const sentence = sentences && sentences.get(i);
      const why = meanings && meanings.get(i);
      const said = sentence && sentence.text === l ? consoleSaid(sentence, this.tr.lang, why) : consoleLine(l, this.tr.lang, why);
      e.append(h(l.startsWith("error: ") ? "div.out.err" : entry.note ? "div.out.note" : "div.out", { text: clip(said.text, this.tr), title: said.en ? clip(said.en, this.tr) : null }));
      if (said.explain) {
        e.append(h("div.out.explain", { text: said.explain }));
      }
    }
    if (entry.lines.length > shown.length) {
      e.append(h("div.out.more", { text: `… ${this.tr("console.moreLines", { n: (entry.lines.length - shown.length).toLocaleString("en") })}` }));
    }
    entry.shownLines = shown.length;
    entry.lines = shown;
    this.entries.push(entry);
    this.lineCount += shown.length;
    this.log.append(e);
    while (this.entries.length > 1 && (this.entries.length > MAX_CONSOLE_ENTRIES || this.lineCount > MAX_CONSOLE_LINES)) {
      this.log.firstElementChild.remove();
      this.lineCount -= this.entries.shift().shownLines;
    }
    this.log.scrollTop = this.log.scrollHeight;
  }

  clear() {
    this.entries = [];
    this.lineCount = 0;
    this.log.replaceChildren();
  }

  /** markFuture dims the commands that ran after event pos of end. */
  markFuture(pos, end) {
    for (const e of this.entries) {
      if (e.cmdEl) {
        e.cmdEl.parentElement.classList.toggle("future", e.at >= pos && pos < end);
      }
    }
  }

  /** markDropped strikes out the commands after event pos (of entries,
   * all by default): new history replaces them. */
  markDropped(pos, entries = this.entries) {
    for (const e of entries) {
      if (e.at >= pos && e.cmdEl) {
        e.cmdEl.parentElement.classList.add("dropped");
        e.cmdEl.parentElement.title = this.tr("console.undone");
      }
    }
  }

  key(e) {
    const input = this.input;
    if (e.key === "ArrowUp" && this.history.length) {
      e.preventDefault();
      this.historyAt = Math.max(0, this.historyAt - 1);
      input.value = this.history[this.historyAt];
    } else if (e.key === "ArrowDown" && this.history.length) {
      e.preventDefault();
      this.historyAt = Math.min(this.history.length, this.historyAt + 1);
      input.value = this.historyAt < this.history.length ? this.history[this.historyAt] : "";
    } else if (e.key === "Tab" && !e.shiftKey && input.value.trim() !== "") {
      if (this.complete()) {
        e.preventDefault();
      }
    } else if (e.key === "Escape") {
      this.clearCompletion();
    }
  }

  clearCompletion() {
    setText(this.hint, this.tr("console.hint"));
  }

  /** complete extends the word before the cursor; true if it did anything. */
  complete() {
    const input = this.input;
    const cur = input.selectionStart ?? input.value.length;
    const before = input.value.slice(0, cur);
    const c = completion(before, this.host.engine, this.tr);
    if (c.insert !== undefined) {
      input.value = before.slice(0, c.start) + c.insert + input.value.slice(cur);
      const at = c.start + c.insert.length;
      input.setSelectionRange(at, at);
    }
    setText(this.hint, c.say);
    return true;
  }


  /** usage is a command's usage as the hint shows it: its syntax, which
   * stays as it is, said as usage in the reader's language. */
}

/** completion is what Tab does to the line before the cursor (before),
 * from the engine's command names and usages (engine.names,
 * engine.usage(name)), tr saying it: {start, insert, say} puts insert in
 * place of the word from start and says say under the prompt, {say}
 * only says it. */
export function completion(before, engine, tr) {
  const start = before.search(/\S*$/);
  const word = before.slice(start);
  const words = before.trimStart().split(/\s+/);
  if (words[0] === "submit" && words.length > 1) {
    words.shift(); // complete the command it hands over
  }
  const offered = words.length <= 1 ? { options: engine.names } : argumentOptions(words, word, engine, tr);
  if (offered.say !== undefined) {
    return offered;
  }
  const matches = offered.options.filter((o) => o.startsWith(word));
  if (!matches.length) {
    const u = words.length > 1 ? engine.usage(words[0]) : null;
    return { say: u ? tr("console.noMatch", { usage: usageText(u, tr) }) : tr("console.noCommand") };
  }
  const common = commonPrefix(matches);
  if (matches.length > 1) {
    return { start, insert: common, say: matches.slice(0, 12).join("  ") + (matches.length > 12 ? "  …" : "") };
  }
  const u = engine.usage(words.length <= 1 ? matches[0] : words[0]);
  return { start, insert: common.endsWith("=") ? common : `${common} `, say: u ? usageText(u, tr) : "" };
}

/** argumentOptions are the arguments Tab may offer for word, the last of
 * words, a command's: {options}, or {say} when there are none to offer
 * (an unknown command, or a key whose values are no list). */
function argumentOptions(words, word, engine, tr) {
  const u = engine.usage(words[0]);
  if (!u) {
    return { say: tr("console.unknown", { name: words[0] }) };
  }
  const key = word.split("=")[0];
  if (word.includes("=")) {
    const p = u.params.find((p) => p.key === key);
    const values = p && p.values ? p.values : p && p.kind === "bool" ? ["true", "false"] : [];
    if (!values.length) {
      return { say: p ? tr("console.paramKind", { key, kind: tr(`console.kind.${p.kind}`), usage: u.usage }) : usageText(u, tr) };
    }
    return { options: values.map((v) => `${key}=${v}`) };
  }
  const used = new Set(words.slice(1, -1).map((w) => w.split("=")[0]));
  const options = u.params.filter((p) => !used.has(p.key)).map((p) => (p.kind === "flag" ? p.key : `${p.key}=`));
  if (u.words) {
    options.push(...u.words.filter((w) => !used.has(w)));
  }
  return { options };
}

/** commonPrefix is the longest start every one of words shares. */
function commonPrefix(words) {
  let common = words[0];
  for (const w of words) {
    while (!w.startsWith(common)) {
      common = common.slice(0, -1);
    }
  }
  return common;
}

/** usageText says a command's usage (u, the engine's). */
function usageText(u, tr) {
  return tr("console.usage", { usage: u.usage });
}
