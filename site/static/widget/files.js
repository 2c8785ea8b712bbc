// files.js: the Files view: every file on the simulated node's disk as a
// strip of its entries, index slots or stored messages, live or dead, with
// what has not been synced yet (what a power loss would lose) marked. It is
// drawn from the snapshot, so stepping and scrubbing show files growing,
// acks zeroing slots, segments disappearing, rolling and compaction.

import { h } from "./dom.js";
import { formatBytes } from "./format.js";

const KINDS = {
  qi: "queue index segment (v2)",
  qs: "queue store (v2)",
  rdq: "message store file",
  idx: "queue index segment (v1)",
  jif: "queue index journal (v1)",
  other: "file",
};

const MARK_TEXT = { L: "live", l: "live, not synced", D: "dead", d: "dead, not synced" };

/** markClass is an entry's classes: live or dead, and unsynced. */
function markClass(m) {
  return `span.mark.${m.toUpperCase() === "L" ? "live" : "dead"}${m === m.toLowerCase() ? ".unsynced" : ""}`;
}

/** describe is a file's line for a screen reader and the table view. */
export function describeFile(f) {
  const parts = [`${f.path}: ${KINDS[f.kind] || f.kind}, ${formatBytes(f.size)}`];
  if (f.synced < f.size) {
    parts.push(`${formatBytes(f.size - f.synced)} not synced`);
  }
  if (f.kind === "qi" || f.kind === "qs" || f.kind === "rdq") {
    const what = f.kind === "qi" ? "slots" : "entries";
    parts.push(`${f.entries} ${what}, ${f.live} live`);
  }
  return parts.join(", ");
}

export class FilesView {
  constructor() {
    this.empty = h("p.empty", { text: "No files yet: durable queues and persistent messages write them (classic queues, version 1 by default in 3.10; x-queue-version=2 for .qi and .qs files)." });
    this.list = h("ul.files-list");
    this.legend = h(
      "p.files-legend",
      null,
      h("span.mark.live", { "aria-hidden": "true" }),
      " live ",
      h("span.mark.dead", { "aria-hidden": "true" }),
      " dead (acked slot, unreferenced message) ",
      h("span.mark.live.unsynced", { "aria-hidden": "true" }),
      " written, not synced (a power loss loses it)",
    );
    this.el = h("div.files", { "data-role": "files", role: "group", "aria-label": "Files on the node's disk" }, this.legend, this.empty, this.list);
    this.el.hidden = true;
  }

  render(s) {
    const files = s.files || [];
    this.empty.hidden = files.length > 0;
    this.legend.hidden = files.length === 0;
    this.list.replaceChildren(
      ...files.map((f) => {
        const marks = f.marks || "";
        const strip = h(
          "div.strip",
          { "aria-hidden": "true" },
          [...marks].map((m) => h(markClass(m), { title: MARK_TEXT[m] || m, "data-mark": m })),
        );
        if (f.entries > marks.length) {
          strip.append(h("span.more", { text: `+${f.entries - marks.length}` }));
        }
        const synced = f.size > 0 ? Math.round((f.synced / f.size) * 100) : 100;
        const bar = h("div.size-bar", { "aria-hidden": "true", title: `${formatBytes(f.synced)} of ${formatBytes(f.size)} synced` }, h("span.synced", { style: `width:${synced}%` }));
        const label = h("span.file-label", null, h("code", { text: f.path }), h("span.file-kind", { text: ` ${KINDS[f.kind] || f.kind}` }));
        const sizes = h("span.file-size", { text: formatBytes(f.size) + (f.synced < f.size ? `, ${formatBytes(f.size - f.synced)} unsynced` : "") });
        const counts = f.kind === "qi" || f.kind === "qs" || f.kind === "rdq" ? h("span.file-counts", { text: `${f.live}/${f.entries} live` }) : null;
        const item = h("li.file", { "data-path": f.path, "data-kind": f.kind }, h("div.file-head", null, label, sizes, counts), bar, marks ? strip : null);
        item.setAttribute("aria-label", describeFile(f));
        return item;
      }),
    );
  }
}
