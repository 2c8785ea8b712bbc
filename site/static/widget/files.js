// files.js: the Files view: every file on the simulated node's disk as a
// strip of its entries, index slots or stored messages, live or dead, with
// what has not been synced yet (what a power loss would lose) marked. It is
// drawn from the snapshot, so stepping and scrubbing show files growing,
// acks zeroing slots, segments disappearing, rolling and compaction.
// "Bytes" opens a file as annotated bytes: a hex and ASCII dump with every
// field of its layout marked, and a table of the fields, offset, size, name
// and value, that the keyboard walks (arrows, Page Up/Down by entry, Home,
// End). The engine names every field and says every entry's state
// (engine/store/format Annotate, which inspect.wasm runs); this view draws
// what it says.
// A broker's own vhost folder, dropped on the view, opens below the node's
// files the same way (files-folder.js).

import { mark } from "./changes.js";
import { h } from "./dom.js";
import { formatBytes } from "./format.js";
import { ascii, hex2, hexRows, offsetText, unsynced } from "./files-hex.js";
import { FolderView } from "./files-folder.js";
import { said } from "./files-words.js";
import { engineSays, t } from "./i18n.js";

const KIND_KEYS = { qi: "files.kind.qi", qs: "files.kind.qs", rdq: "files.kind.rdq", idx: "files.kind.idx", jif: "files.kind.jif", other: "files.kind.file" };

/** STATE_KEYS name an entry's state (engine/store/format Entry.State). */
const STATE_KEYS = { live: "files.state.live", dead: "files.state.dead", acked: "files.state.acked", delivered: "files.state.delivered", invalid: "files.state.invalid" };

/** MARK_KEYS name the marks of FileView.Marks. */
const MARK_KEYS = {
  L: "files.mark.live",
  l: "files.mark.liveUnsynced",
  A: "files.mark.acked",
  a: "files.mark.ackedUnsynced",
  D: "files.mark.dead",
  d: "files.mark.deadUnsynced",
};

/** MARK_STATES are the drawn states of the marks, by upper-case letter. */
const MARK_STATES = { L: "live", A: "acked", D: "dead" };

/** markClass is an entry's classes: live, acked (live in the file, acked
 * by the queue, which has not written the ack yet) or dead, and unsynced. */
function markClass(m) {
  return `span.mark.${MARK_STATES[m.toUpperCase()] || "dead"}${m === m.toLowerCase() ? ".unsynced" : ""}`;
}

const english = (k, p) => t(k, p, "en");

/** MARK_STEP is the room one mark takes in a strip, in px: its 7 and the
 * gap after it (files.css). */
const MARK_STEP = 8;

/** RUN_MOST is the most marks a run holds while the strip's width is not
 * known yet. */
const RUN_MOST = 16;

/**
 * markRuns splits a file's marks into the runs a strip draws: marks alike
 * (the same state, and changed or not by the last step, as changed(i)
 * says) next to each other are one element as wide as they are. A run
 * ends where a row of the strip does (perRow marks, when known), so that
 * the runs wrap as one element per mark would; else after RUN_MOST.
 * A strip of 512 entries is then tens of elements, not 512, that the
 * browser styles and lays out at every step.
 * @returns {{m: string, at: number, n: number, changed: boolean}[]}
 */
export function markRuns(marks, changed = () => false, perRow = 0) {
  const out = [];
  let run = null;
  for (let i = 0; i < marks.length; i++) {
    const m = marks[i];
    const c = changed(i);
    const rowStarts = perRow > 0 ? i % perRow === 0 : run && run.n === RUN_MOST;
    if (!run || run.m !== m || run.changed !== c || rowStarts) {
      run = { m, at: i, n: 0, changed: c };
      out.push(run);
    }
    run.n++;
  }
  return out;
}

/** gcStep is the latest step of the GC job at work on a file, in tr's
 * language: the engine's sentence (gcSaid). */
function gcStep(f, tr) {
  return f.gcSaid ? engineSays(f.gcSaid, tr.lang || "en") : f.gc;
}

/** describeFile is a file's line for a screen reader and the table view. */
export function describeFile(f, tr = english) {
  const parts = [tr("files.describe", { path: f.path, kind: tr(KIND_KEYS[f.kind] || "files.kind.file"), size: formatBytes(f.size) })];
  if (f.synced < f.size) {
    parts.push(tr("files.notSynced", { size: formatBytes(f.size - f.synced) }));
  }
  if (f.kind === "qi" || f.kind === "qs" || f.kind === "rdq") {
    parts.push(tr(f.kind === "qi" ? "files.slotsLive" : "files.entriesLive", { n: f.entries, live: f.live }));
  }
  if (f.gc) {
    parts.push(tr("files.gcStep", { step: gcStep(f, tr) }));
  }
  return parts.join(tr("list.comma"));
}

/**
 * readFile is a file as the engine reads it, field by field ({path, kind,
 * size, synced, annotation}: engine/store/format Annotation.AppendJSON),
 * as the view draws it: {path, size, synced, read, fields: [{off, len,
 * name, value, role, entry, head, tail}], entries: [{off, len, label,
 * state, ...}], total, stop}, each field with its bytes in hex (whole up
 * to 64, else the first 32 as head and the last 16 as tail).
 */
export function readFile(f) {
  return { ...f.annotation, path: f.path, size: f.size, synced: f.synced };
}

/** PIECE is how many rows of the dump, or fields of the table, are drawn
 * in one task. */
const PIECE = 128;

/** BytesView is one file as annotated bytes. */
export class BytesView {
  constructor(tr) {
    this.tr = tr;
    this.sel = -1; // the selected field
    this.fb = null;
    this.summary = h("p.bytes-summary");
    this.hex = h("div.hex", { "aria-hidden": "true", onclick: (e) => this.clickByte(e) });
    this.table = h("table.fields", { onkeydown: (e) => this.key(e), onfocusin: (e) => this.focused(e) });
    this.el = h("div.bytes", { role: "region" }, this.summary, this.hex, this.table);
  }

  /** show draws a file read by the engine; width is the bytes per row.
   * The dump and the table are drawn PIECE rows at a time, the first at
   * once and each next one in a task of its own, so that a file of
   * thousands of fields never holds the page for long; a later show drops
   * the pieces still to draw. */
  show(fb, width) {
    const tr = this.tr;
    this.drawing = (this.drawing || 0) + 1;
    const keepOff = this.fb && this.fb.path === fb.path && this.sel >= 0 ? this.fb.fields[this.sel].off : -1;
    this.fb = fb;
    this.el.setAttribute("aria-label", tr("files.bytesOf", { path: fb.path }));
    this.el.dataset.path = fb.path;
    const counts = {};
    for (const e of fb.entries) {
      counts[e.state] = (counts[e.state] || 0) + 1;
    }
    const states = Object.entries(counts).map(([s, n]) => `${n} ${tr(STATE_KEYS[s] || s)}`);
    let text = tr("files.bytesSummary", { path: fb.path, size: formatBytes(fb.size), n: fb.total });
    if (states.length) {
      text += ` (${states.join(tr("list.comma"))})`;
    }
    if (fb.total > fb.entries.length) {
      text += ` ${tr("files.firstEntries", { shown: fb.entries.length, n: fb.total })}`;
    }
    if (fb.stop) {
      text += ` ${tr("files.stopped", { why: said(fb.stop, tr) })}`;
    }
    if (fb.read < fb.size) {
      text += ` ${tr("files.firstBytes", { n: fb.read })}`;
    }
    this.summary.textContent = text;
    this.drawHex(width);
    this.drawTable();
    const i = keepOff >= 0 ? fb.fields.findIndex((f) => f.off === keepOff) : -1;
    this.select(i >= 0 ? i : 0, this.hadFocus);
    this.hadFocus = false;
  }

  drawHex(width) {
    const fb = this.fb;
    const rows = hexRows(fb.fields, width);
    this.cells = fb.fields.map(() => []);
    this.hex.style.setProperty("--w", String(width));
    const draw = (r) => {
      if (r.gap !== undefined) {
        const f = fb.fields[r.field];
        return h("div.row.gap", { text: this.tr("files.gap", { n: r.gap, name: this.tr(f.name) }) });
      }
      const hexCells = [];
      const chars = [];
      r.cells.forEach((c, k) => {
        if (!c) {
          hexCells.push(h("span.b.none", { text: "  " }));
          chars.push(h("span.c.none", { text: " " }));
          return;
        }
        const f = fb.fields[c.field];
        const e = f.entry >= 0 ? fb.entries[f.entry] : null;
        let cls = `.role-${f.role}${c.field % 2 ? ".odd" : ""}${c.first ? ".first" : ""}`;
        if (e && (e.state === "dead" || e.state === "acked" || e.state === "invalid")) {
          cls += ".gone";
        }
        if (e && unsynced(e, fb.synced)) {
          cls += ".unsynced";
        }
        if (e && e.off === r.off + k) {
          cls += ".entry-start";
        }
        const b = h(`span.b${cls}`, { "data-f": c.field, text: hex2(c.b) });
        const ch = h(`span.c${cls}`, { "data-f": c.field, text: ascii(c.b) });
        this.cells[c.field].push(b, ch);
        hexCells.push(b);
        chars.push(ch);
      });
      return h("div.row", null, h("span.off", { text: offsetText(r.off) }), h("span.hexcells", null, hexCells), h("span.chars", null, chars));
    };
    this.hex.replaceChildren();
    this.inPieces(rows, (part) => this.hex.append(...part.map(draw)));
  }

  /** inPieces draws items PIECE at a time with draw: the first piece now,
   * each next in a later task, until show draws something else. */
  inPieces(items, draw) {
    const drawing = this.drawing;
    const next = (i) => {
      if (this.drawing !== drawing || i >= items.length) {
        return;
      }
      draw(items.slice(i, i + PIECE));
      if (i > 0) {
        this.markSelected(); // what the new piece holds of the selection
      }
      setTimeout(() => next(i + PIECE), 0);
    };
    next(0);
  }

  drawTable() {
    const fb = this.fb;
    const tr = this.tr;
    this.rows = [];
    const head = h("tr", null, ...["files.col.offset", "files.col.size", "files.col.field", "files.col.value"].map((k) => h("th", { scope: "col", text: tr(k) })));
    const body = h("tbody");
    let entry = -2;
    const draw = (f, i) => {
      const out = [];
      if (f.entry !== entry) {
        entry = f.entry;
        const e = entry >= 0 ? fb.entries[entry] : null;
        const label = e ? `${said(e.label, tr)}: ${tr(STATE_KEYS[e.state] || e.state)}${unsynced(e, fb.synced) ? `, ${tr("files.state.unsynced")}` : ""}` : f.name === "files.f.unreadable" ? tr("files.unreadable") : tr("files.header");
        out.push(h(`tr.entry${e ? `.state-${e.state}` : ""}`, null, h("th", { colspan: "4", scope: "colgroup", text: label })));
      }
      const row = h(
        `tr.field.role-${f.role}`,
        { tabindex: "-1", "data-f": i, "aria-label": tr("files.fieldLabel", { name: tr(f.name), value: said(f.value, tr), off: f.off, n: f.len }) },
        h("td.num", { text: `${f.off} (0x${f.off.toString(16)})` }),
        h("td.num", { text: String(f.len) }),
        h("td", { text: tr(f.name) }),
        h("td", { text: said(f.value, tr) }),
      );
      this.rows.push(row);
      out.push(row);
      return out;
    };
    this.table.replaceChildren(h("caption", { text: tr("files.fieldsCaption") }), h("thead", null, head), body);
    this.inPieces(
      fb.fields.map((f, i) => [f, i]),
      (part) => body.append(...part.flatMap(([f, i]) => draw(f, i))),
    );
  }

  /** markSelected marks the selected field where it is drawn. */
  markSelected() {
    const i = this.sel;
    if (i < 0 || !this.cells[i]) {
      return;
    }
    this.cells[i].forEach((c) => c.classList.add("sel"));
    const row = this.rows[i];
    if (row) {
      row.tabIndex = 0;
      row.classList.add("sel");
    }
  }

  /** select marks field i in the dump and the table; focus moves there when asked. */
  select(i, focus) {
    if (!this.fb || i < 0 || i >= this.fb.fields.length) {
      return;
    }
    if (this.sel >= 0 && this.cells[this.sel]) {
      this.cells[this.sel].forEach((c) => c.classList.remove("sel"));
      const old = this.rows[this.sel];
      if (old) {
        old.tabIndex = -1;
        old.classList.remove("sel");
      }
    }
    this.sel = i;
    this.markSelected();
    const row = this.rows[i];
    if (focus && row) {
      row.focus();
      const first = this.cells[i][0];
      if (first && first.scrollIntoView) {
        first.scrollIntoView({ block: "nearest" });
      }
    }
  }

  focused(e) {
    const row = e.target.closest("tr.field");
    if (row && Number(row.dataset.f) !== this.sel) {
      this.select(Number(row.dataset.f), false);
    }
  }

  clickByte(e) {
    const b = e.target.closest("[data-f]");
    if (b) {
      this.select(Number(b.dataset.f), true);
    }
  }

  /** key walks the fields: arrows by field, Page Up/Down by entry. */
  key(e) {
    const fb = this.fb;
    if (!fb || this.sel < 0) {
      return;
    }
    const n = fb.fields.length;
    const entryStart = (from, dir) => {
      const cur = fb.fields[from].entry;
      let i = from;
      while (i + dir >= 0 && i + dir < n && fb.fields[i + dir].entry === cur) {
        i += dir;
      }
      if (dir > 0) {
        return Math.min(i + 1, n - 1);
      }
      // to the first field of the entry before (or of this one, if not at its start)
      if (i !== from) {
        return i;
      }
      if (i === 0) {
        return 0;
      }
      const prev = fb.fields[i - 1].entry;
      let j = i - 1;
      while (j > 0 && fb.fields[j - 1].entry === prev) {
        j--;
      }
      return j;
    };
    let to = -1;
    switch (e.key) {
      case "ArrowDown":
        to = Math.min(this.sel + 1, n - 1);
        break;
      case "ArrowUp":
        to = Math.max(this.sel - 1, 0);
        break;
      case "PageDown":
        to = entryStart(this.sel, 1);
        break;
      case "PageUp":
        to = entryStart(this.sel, -1);
        break;
      case "Home":
        to = 0;
        break;
      case "End":
        to = n - 1;
        break;
      default:
        return;
    }
    e.preventDefault();
    e.stopPropagation();
    this.select(to, true);
  }
}

export class FilesView {
  /** tr gives the words; act runs a reader's action in the widget's queue
   * of work (element.js act), so that what follows waits for it. */
  constructor(tr = english, act = (fn) => fn(), start = null) {
    this.tr = tr;
    this.act = act;
    this.open = null; // the path whose bytes are shown
    this.asked = 0;
    this.bytes = new BytesView(tr);
    this.bytesNote = h("p.bytes-note");
    this.empty = h("p.empty", { text: tr("files.empty") });
    this.list = h("ul.files-list");
    this.perRow = 0; // marks in a row of a strip, once measured
    if (typeof ResizeObserver === "function") {
      new ResizeObserver(() => requestAnimationFrame(() => this.measure())).observe(this.list);
    }
    this.legend = h(
      "p.files-legend",
      null,
      h("span.mark.live", { "aria-hidden": "true" }),
      ` ${tr("files.legend.live")} `,
      h("span.mark.acked", { "aria-hidden": "true" }),
      ` ${tr("files.legend.acked")} `,
      h("span.mark.dead", { "aria-hidden": "true" }),
      ` ${tr("files.legend.dead")} `,
      h("span.mark.live.unsynced", { "aria-hidden": "true" }),
      ` ${tr("files.legend.unsynced")}`,
    );
    // A broker's own folder, dropped on the view or picked, read beside
    // the simulation (files-folder.js), its bytes in a view of their own.
    // start runs a recovered folder's script as the widget's scenario.
    this.folder = new FolderView(tr, act, () => this.last || {}, new BytesView(tr), readFile, start);
    this.el = h(
      "div.files",
      {
        "data-role": "files",
        role: "group",
        "aria-label": tr("files.label"),
        ondragover: (e) => {
          if ([...(e.dataTransfer.types || [])].includes("Files")) {
            e.preventDefault();
            e.dataTransfer.dropEffect = "copy";
          }
        },
        ondrop: (e) => this.folder.drop(e),
      },
      this.legend,
      this.empty,
      this.list,
      this.folder.el,
    );
    this.el.hidden = true;
  }

  /** fillStrip draws a strip's marks (strip.marks: the file's path, its
   * marks and how many entries more it has) as runs, at the strip's
   * width as last measured, with the entries that changed marked. */
  fillStrip(strip) {
    const tr = this.tr;
    const { path, marks, more } = strip.marks;
    const { changed, gen } = this.last;
    const names = {};
    const runs = markRuns(marks, changed ? (i) => changed.has(`${path}#${i}`) : undefined, this.perRow);
    strip.replaceChildren(
      ...runs.map((r) => {
        const el = h(markClass(r.m), { title: (names[r.m] ??= MARK_KEYS[r.m] ? tr(MARK_KEYS[r.m]) : r.m), "data-mark": r.m, "data-at": r.at, "data-n": r.n });
        if (r.n > 1) {
          el.style.width = `${r.n * MARK_STEP - 1}px`;
        }
        mark(el, r.changed, gen);
        return el;
      }),
    );
    if (more > 0) {
      strip.append(h("span.more", { text: `+${more}` }));
    }
  }

  /** measure takes the marks a row of a strip holds from the list's
   * width, and draws the strips again when that changed (the view shown
   * the first time, a phone turned). */
  measure() {
    const w = this.list.clientWidth; // a strip's too: nothing pads them
    const perRow = w > 0 ? Math.floor((w + 1) / MARK_STEP) : 0;
    if (perRow > 0 && perRow !== this.perRow) {
      this.perRow = perRow;
      for (const s of this.list.querySelectorAll(".strip")) {
        this.fillStrip(s);
      }
    }
  }

  /** render draws the snapshot's files; with the engine, the open file's
   * bytes too. changed has the entries ("path#i") that the last step
   * changed (changes.js), and gen its number, for marking them. */
  render(s, engine, id, changed = null, gen = 0) {
    this.last = { s, engine, id, changed, gen };
    const tr = this.tr;
    const files = s.files || [];
    this.empty.hidden = files.length > 0;
    this.legend.hidden = files.length === 0;
    let openItem = null;
    // Redrawing the list takes the focus away: a reader walking the fields
    // keeps their place.
    const active = this.el.isConnected ? this.el.getRootNode().activeElement : null;
    this.bytes.hadFocus = this.bytes.hadFocus || Boolean(active && this.bytes.table.contains(active));
    this.list.replaceChildren(
      ...files.map((f) => {
        const marks = f.marks || "";
        const strip = h("div.strip", { "aria-hidden": "true" });
        strip.marks = { path: f.path, marks, more: f.entries - marks.length };
        this.fillStrip(strip);
        const synced = f.size > 0 ? Math.round((f.synced / f.size) * 100) : 100;
        const bar = h("div.size-bar", { "aria-hidden": "true", title: tr("files.syncedOf", { synced: formatBytes(f.synced), size: formatBytes(f.size) }) }, h("span.synced", { style: `width:${synced}%` }));
        const label = h("span.file-label", null, h("code", { text: f.path }), h("span.file-kind", { text: ` ${tr(KIND_KEYS[f.kind] || "files.kind.file")}` }));
        const sizes = h("span.file-size", { text: formatBytes(f.size) + (f.synced < f.size ? `, ${tr("files.unsynced", { size: formatBytes(f.size - f.synced) })}` : "") });
        const counts = f.kind === "qi" || f.kind === "qs" || f.kind === "rdq" ? h("span.file-counts", { text: tr("files.counts", { live: f.live, n: f.entries }) }) : null;
        const readable = f.kind !== "other" && f.size > 0;
        const isOpen = this.open === f.path;
        const btn = readable
          ? h("button.bytes-btn", {
              type: "button",
              "aria-expanded": String(isOpen),
              "aria-label": tr("files.bytesButtonLabel", { path: f.path }),
              text: tr("files.bytesButton"),
              onclick: () => this.act(() => this.toggle(f.path)),
              onpointerenter: () => this.prepare(),
              onfocus: () => this.prepare(),
            })
          : null;
        const gc = f.gc ? h("p.file-gc", { text: tr("files.gcStep", { step: gcStep(f, tr) }) }) : null;
        const item = h("li.file", { "data-path": f.path, "data-kind": f.kind }, h("div.file-head", null, label, sizes, counts, btn), bar, marks ? strip : null, gc);
        item.setAttribute("aria-label", describeFile(f, tr));
        if (isOpen) {
          openItem = item;
        }
        return item;
      }),
    );
    if (this.open && !openItem) {
      // the file is gone at this moment (deleted, merged away)
      this.bytesNote.textContent = tr("files.gone", { path: this.open });
      this.list.append(h("li.file.gone-file", null, this.bytesNote));
      return Promise.resolve();
    }
    if (openItem && engine) {
      openItem.append(this.bytes.el);
      return this.fetch(engine, id, this.open);
    }
    return Promise.resolve();
  }

  /** prepare has the engine load what reading a file's bytes needs
   * (inspect.wasm) when a reader points at or tabs to a Bytes button, so
   * that the first file they open does not wait for it; once a view. */
  prepare() {
    const { engine, id } = this.last || {};
    if (!this.prepared && engine && engine.prepareBytes) {
      this.prepared = engine.prepareBytes(id).catch(() => {
        this.prepared = null; // fileBytes will say why
      });
    }
  }

  /** toggle opens or closes the bytes of a file. */
  toggle(path) {
    const { s, engine, id, changed, gen } = this.last;
    this.open = this.open === path ? null : path;
    if (!this.open) {
      this.bytes.fb = null;
      this.bytes.sel = -1;
    }
    return this.render(s, engine, id, changed, gen).then(() => {
      if (this.open && this.bytes.el.isConnected && this.bytes.el.scrollIntoView) {
        this.bytes.el.scrollIntoView({ block: "nearest" });
      }
      const btn = [...this.list.querySelectorAll("li.file")].find((li) => li.dataset.path === path);
      const b = btn && btn.querySelector("button.bytes-btn");
      if (b) {
        b.focus();
      }
    });
  }

  async fetch(engine, id, path) {
    const n = ++this.asked;
    let fb;
    try {
      fb = await engine.fileBytes(id, path);
    } catch (err) {
      if (n === this.asked) {
        this.bytes.summary.textContent = String(err.message || err);
      }
      return;
    }
    if (n !== this.asked || this.open !== path) {
      return; // a later render asked again
    }
    fb = readFile(fb);
    const width = this.list.clientWidth >= 620 || this.list.clientWidth === 0 ? 16 : 8;
    this.bytes.show(fb, width);
  }
}
