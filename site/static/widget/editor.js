// editor.js: the scenario editor of a widget that asks for one (the
// playground's): the whole script in a text area, beside the console. One
// can paste a scenario into it, edit it and run it from the top (the
// widget starts a fresh node and runs every line), or share it: the link
// carries the script as it ran. While the reader has not edited it, it
// follows the widget: the commands typed in the console are added to it,
// as a share link would carry them. A definitions file (the JSON of
// rabbitmqctl export_definitions) dropped on it or pasted into it becomes
// lines of the language at the top of the script (definitions.js).

import { definitionsScript, looksLikeDefinitions } from "./definitions.js";
import { h, setText } from "./dom.js";

/** Editor is the editor of one widget. Its host is the element:
 * host.runScript(text) runs a script from the top, host.share() makes a
 * link, host.tr(key) says a word and host.tx(key, params) with
 * parameters. */
export class Editor {
  constructor(uid, host) {
    this.host = host;
    const tr = host.tr;
    this.dirty = false; // edited since it last ran
    this.area = h("textarea.script", {
      id: `e-${uid}`,
      rows: "14",
      spellcheck: "false",
      autocapitalize: "off",
      autocomplete: "off",
      wrap: "off",
      "aria-describedby": `eh-${uid}`,
      oninput: () => this.edited(),
      onpaste: (e) => {
        const text = e.clipboardData ? e.clipboardData.getData("text/plain") : "";
        if (looksLikeDefinitions(text)) {
          e.preventDefault();
          this.addDefinitions(text);
        }
      },
      ondragover: (e) => {
        if (e.dataTransfer && [...e.dataTransfer.types].includes("Files")) {
          e.preventDefault();
        }
      },
      ondrop: (e) => {
        const file = e.dataTransfer && e.dataTransfer.files[0];
        if (file) {
          e.preventDefault();
          this.dropped(file);
        }
      },
      onkeydown: (e) => {
        if (e.key === "Enter" && (e.ctrlKey || e.metaKey)) {
          e.preventDefault();
          this.run();
        }
      },
    });
    this.runBtn = h("button.run-script", { type: "button", onclick: () => this.run() }, tr("editor.run"));
    this.shareBtn = h("button.share-script", { type: "button", onclick: () => this.share() }, tr("editor.share"));
    this.state = h("p.editor-state", { "aria-live": "polite" });
    this.el = h(
      "section.editor",
      { "aria-labelledby": `el-${uid}`, "data-keys": "native" },
      h("h3", null, h("label", { id: `el-${uid}`, for: `e-${uid}`, text: tr("editor.title") })),
      this.area,
      h("p.hint", { id: `eh-${uid}`, text: tr("editor.help") }),
      h("div.editor-buttons", null, this.runBtn, this.shareBtn, this.state),
    );
  }

  /** show puts the script the widget ran into the editor, unless the
   * reader is editing it. */
  show(script) {
    if (!this.dirty && this.area.value !== script) {
      this.area.value = script;
    }
  }

  edited() {
    if (!this.dirty) {
      this.dirty = true;
      setText(this.state, this.host.tr("editor.edited"));
    }
  }

  /** dropped reads a dropped file: definitions go to the top of the
   * script, a scenario replaces it. */
  async dropped(file) {
    const text = await file.text();
    if (looksLikeDefinitions(text)) {
      this.addDefinitions(text);
      return;
    }
    this.area.value = text;
    this.edited();
  }

  /** addDefinitions puts a definitions file, as lines of the language, at
   * the top of the script; a file the engine cannot read says why. */
  addDefinitions(text) {
    let lines;
    try {
      lines = definitionsScript(text);
    } catch (err) {
      setText(this.state, this.host.tx("editor.defsBad", { why: err.message }));
      return;
    }
    const rest = this.area.value;
    this.area.value = lines.join("\n") + (rest.trim() ? "\n" + rest : "\n");
    this.dirty = true;
    const n = lines.filter((l) => !l.startsWith("#")).length;
    setText(this.state, this.host.tx("editor.defsAdded", { n }));
  }

  setEnabled(on) {
    this.runBtn.disabled = !on;
    this.shareBtn.disabled = !on;
  }

  /** run runs the script from the top on a fresh node. */
  async run() {
    const text = this.area.value;
    this.dirty = false;
    setText(this.state, "");
    await this.host.runScript(text);
    setText(this.state, this.host.tr("editor.ran"));
  }

  /** share runs the script when it was edited, then makes its link. */
  async share() {
    if (this.dirty) {
      await this.run();
    }
    await this.host.share();
  }
}
