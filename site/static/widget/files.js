// files.js: the Files view: every file on the simulated node's disk as a
// strip of its entries, index slots or stored messages, live or dead, with
// what has not been synced yet (what a power loss would lose) marked. It is
// drawn from the snapshot, so stepping and scrubbing show files growing,
// acks zeroing slots, segments disappearing, rolling and compaction.

import { h } from "./dom.js";
import { formatBytes } from "./format.js";
import { translator } from "./i18n.js";

/** KINDS are the kinds of file, whose names are the catalog's files.kind.KIND. */
const KINDS = ["qi", "qs", "rdq", "idx", "jif", "other"];

const kindName = (tr, kind) => (KINDS.includes(kind) ? tr(kind === "other" ? "files.kindFile" : `files.kind.${kind}`) : kind);

/** MARKS name an entry's mark: L live, l live not synced, D dead, d dead not synced. */
const MARKS = { L: "files.mark.live", l: "files.mark.liveUnsynced", D: "files.mark.dead", d: "files.mark.deadUnsynced" };

/** markClass is an entry's classes: live or dead, and unsynced. */
function markClass(m) {
  return `span.mark.${m.toUpperCase() === "L" ? "live" : "dead"}${m === m.toLowerCase() ? ".unsynced" : ""}`;
}

/** describe is a file's line for a screen reader and the table view. */
export function describeFile(f, tr = translator("en")) {
  const parts = [tr("files.describe", { path: f.path, kind: kindName(tr, f.kind), size: formatBytes(f.size) })];
  if (f.synced < f.size) {
    parts.push(tr("files.notSynced", { size: formatBytes(f.size - f.synced) }));
  }
  if (f.kind === "qi" || f.kind === "qs" || f.kind === "rdq") {
    parts.push(tr(f.kind === "qi" ? "files.slots" : "files.entries", { n: f.entries, live: f.live }));
  }
  return parts.join(tr("list.comma"));
}

export class FilesView {
  constructor(tr = translator("en")) {
    this.tr = tr;
    this.empty = h("p.empty", { text: tr("files.empty") });
    this.list = h("ul.files-list");
    this.legend = h(
      "p.files-legend",
      null,
      h("span.mark.live", { "aria-hidden": "true" }),
      ` ${tr("files.legend.live")} `,
      h("span.mark.dead", { "aria-hidden": "true" }),
      ` ${tr("files.legend.dead")} `,
      h("span.mark.live.unsynced", { "aria-hidden": "true" }),
      ` ${tr("files.legend.unsynced")}`,
    );
    this.el = h("div.files", { "data-role": "files", role: "group", "aria-label": tr("files.label") }, this.legend, this.empty, this.list);
    this.el.hidden = true;
  }

  render(s) {
    const tr = this.tr;
    const files = s.files || [];
    this.empty.hidden = files.length > 0;
    this.legend.hidden = files.length === 0;
    this.list.replaceChildren(
      ...files.map((f) => {
        const marks = f.marks || "";
        const strip = h(
          "div.strip",
          { "aria-hidden": "true" },
          [...marks].map((m) => h(markClass(m), { title: MARKS[m] ? tr(MARKS[m]) : m, "data-mark": m })),
        );
        if (f.entries > marks.length) {
          strip.append(h("span.more", { text: `+${f.entries - marks.length}` }));
        }
        const synced = f.size > 0 ? Math.round((f.synced / f.size) * 100) : 100;
        const bar = h("div.size-bar", { "aria-hidden": "true", title: tr("files.synced", { synced: formatBytes(f.synced), size: formatBytes(f.size) }) }, h("span.synced", { style: `width:${synced}%` }));
        const label = h("span.file-label", null, h("code", { text: f.path }), h("span.file-kind", { text: ` ${kindName(tr, f.kind)}` }));
        const sizes = h("span.file-size", { text: formatBytes(f.size) + (f.synced < f.size ? tr("list.comma") + tr("files.unsynced", { size: formatBytes(f.size - f.synced) }) : "") });
        const counts = f.kind === "qi" || f.kind === "qs" || f.kind === "rdq" ? h("span.file-counts", { text: tr("files.liveOf", { live: f.live, n: f.entries }) }) : null;
        const item = h("li.file", { "data-path": f.path, "data-kind": f.kind }, h("div.file-head", null, label, sizes, counts), bar, marks ? strip : null);
        item.setAttribute("aria-label", describeFile(f, tr));
        return item;
      }),
    );
  }
}
