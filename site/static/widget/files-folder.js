// files-folder.js: a real broker's vhost folder in the Files view. The
// reader drops a msg_stores/vhosts/<hash> folder, or a .tar or .zip of one, or
// picks it with a button; the engine reads it as scripts/inspect does
// (wasm/folder.go: the same report, and a problem naming the file and the
// offset for what does not decode) and each file opens as annotated bytes,
// the way the simulation's own files do.

import { h } from "./dom.js";
import { formatBytes } from "./format.js";
import { errorText } from "./i18n.js";

/** untar lists the files of a tar archive (ustar, with the GNU long names
 * and pax paths that tar writes for long paths): [[path, bytes], ...], a
 * folder's path ending in "/". A header that does not add up throws, with
 * its offset. */
export function untar(bytes) {
  const out = [];
  const text = (off, len) => {
    const b = bytes.subarray(off, off + len);
    const end = b.indexOf(0);
    return new TextDecoder().decode(end >= 0 ? b.subarray(0, end) : b);
  };
  let longName = null;
  let paxPath = null;
  let off = 0;
  for (; off + 512 <= bytes.length; ) {
    if (bytes.subarray(off, off + 512).every((b) => b === 0)) {
      return out; // the end-of-archive blocks
    }
    const sizeText = text(off + 124, 12).trim();
    const size = /^[0-7]*$/.test(sizeText) ? parseInt(sizeText || "0", 8) : NaN;
    if (!Number.isFinite(size) || off + 512 + size > bytes.length) {
      throw new Error(`not a tar archive, or a cut one: the header at offset ${off} gives size ${JSON.stringify(sizeText)} for ${bytes.length - off - 512} bytes left`);
    }
    const type = String.fromCharCode(bytes[off + 156] || 48);
    const body = bytes.subarray(off + 512, off + 512 + size);
    const magic = text(off + 257, 6);
    let name = text(off, 100);
    if (magic.startsWith("ustar") && bytes[off + 345]) {
      name = `${text(off + 345, 155)}/${name}`;
    }
    if (type === "L") {
      longName = new TextDecoder().decode(body).replace(/\0+$/, "");
    } else if (type === "x") {
      const m = /(?:^|\n)\d+ path=([^\n]*)\n/.exec(new TextDecoder().decode(body));
      paxPath = m ? m[1] : null;
    } else if (type !== "g") {
      name = paxPath || longName || name;
      longName = paxPath = null;
      if (type === "5") {
        out.push([name.endsWith("/") ? name : `${name}/`, new Uint8Array(0)]);
      } else if (type === "0" || type === "7") {
        out.push([name, body.slice()]);
      }
    }
    off += 512 + Math.ceil(size / 512) * 512;
  }
  if (off !== bytes.length) {
    throw new Error(`not a tar archive, or a cut one: it ends at byte ${bytes.length}, with no whole header at offset ${off} nor the end blocks`);
  }
  return out;
}

/** unzip lists the files of a zip archive as untar does: stored and
 * deflated members (DecompressionStream), by the central directory. What it
 * cannot read (zip64, encryption, another method, a cut archive) throws,
 * naming the member or the offset. */
export async function unzip(bytes) {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const u16 = (o) => view.getUint16(o, true);
  const u32 = (o) => view.getUint32(o, true);
  let end = -1;
  for (let o = bytes.length - 22; o >= Math.max(0, bytes.length - 22 - 65535); o--) {
    if (u32(o) === 0x06054b50) {
      end = o;
      break;
    }
  }
  if (end < 0) {
    throw new Error("not a zip archive, or a cut one: it has no end of central directory");
  }
  const count = u16(end + 10);
  let o = u32(end + 16);
  if (o === 0xffffffff || count === 0xffff) {
    throw new Error("a zip64 archive: make a .tar of the folder instead");
  }
  const out = [];
  for (let k = 0; k < count; k++) {
    if (o + 46 > bytes.length || u32(o) !== 0x02014b50) {
      throw new Error(`not a zip archive, or a cut one: no central directory entry at offset ${o}`);
    }
    const flags = u16(o + 8);
    const method = u16(o + 10);
    const packed = u32(o + 20);
    const size = u32(o + 24);
    const nameLen = u16(o + 28);
    const local = u32(o + 42);
    const name = new TextDecoder().decode(bytes.subarray(o + 46, o + 46 + nameLen));
    o += 46 + nameLen + u16(o + 30) + u16(o + 32);
    if (name.endsWith("/")) {
      out.push([name, new Uint8Array(0)]);
      continue;
    }
    if (flags & 1) {
      throw new Error(`${name} is encrypted in the zip archive`);
    }
    if (packed === 0xffffffff || size === 0xffffffff || local === 0xffffffff) {
      throw new Error(`${name}: a zip64 member; make a .tar of the folder instead`);
    }
    if (local + 30 > bytes.length || u32(local) !== 0x04034b50) {
      throw new Error(`${name}: no local header at offset ${local} of the zip archive`);
    }
    const at = local + 30 + u16(local + 26) + u16(local + 28);
    if (at + packed > bytes.length) {
      throw new Error(`${name}: the zip archive is cut at byte ${bytes.length}, inside its data at offset ${at}`);
    }
    const raw = bytes.subarray(at, at + packed);
    let data;
    if (method === 0) {
      data = raw.slice();
    } else if (method === 8) {
      const stream = new Blob([raw]).stream().pipeThrough(new DecompressionStream("deflate-raw"));
      data = new Uint8Array(await new Response(stream).arrayBuffer());
    } else {
      throw new Error(`${name}: compression method ${method} of the zip archive is not one a browser reads (0 or 8)`);
    }
    if (data.length !== size) {
      throw new Error(`${name}: ${data.length} bytes in the zip archive, its directory says ${size}`);
    }
    out.push([name, data]);
  }
  return out;
}

/** bytesOfFile reads a File. */
const bytesOfFile = (f) => f.arrayBuffer().then((b) => new Uint8Array(b));

/** archived reads a file that is an archive (.tar, .zip) as its members,
 * or as itself at path. */
async function archived(file, path) {
  if (/\.tar$/i.test(file.name)) {
    return untar(await bytesOfFile(file));
  }
  if (/\.zip$/i.test(file.name)) {
    return unzip(await bytesOfFile(file));
  }
  return [[path, await bytesOfFile(file)]];
}

/** fromEntry reads a dropped file system entry, a folder whole. */
async function fromEntry(entry, out) {
  if (entry.isFile) {
    const file = await new Promise((ok, fail) => entry.file(ok, fail));
    out.push(...(await archived(file, entry.fullPath.replace(/^\//, ""))));
    return;
  }
  out.push([`${entry.fullPath.replace(/^\//, "")}/`, new Uint8Array(0)]);
  const reader = entry.createReader();
  for (;;) {
    const batch = await new Promise((ok, fail) => reader.readEntries(ok, fail));
    if (!batch.length) {
      return;
    }
    for (const e of batch) {
      await fromEntry(e, out);
    }
  }
}

/** fromFiles reads picked or dropped files: a folder's by their path in
 * it (webkitRelativePath), a .tar's by its members. */
async function fromFiles(files) {
  const out = [];
  for (const f of files) {
    out.push(...(await archived(f, f.webkitRelativePath || f.name)));
  }
  return out;
}

/** fromDrop reads what was dropped: folders through their entries, where
 * the browser gives them, else the files. */
export async function fromDrop(dt) {
  const entries = [...(dt.items || [])].map((i) => (i.kind === "file" && i.webkitGetAsEntry ? i.webkitGetAsEntry() : null));
  if (entries.length && entries.every(Boolean) && entries.some((e) => e.isDirectory)) {
    const out = [];
    for (const e of entries) {
      await fromEntry(e, out);
    }
    return out;
  }
  return fromFiles([...dt.files]);
}

/**
 * FolderView is the Files view's part for a broker's folder: the buttons
 * that open one, the drop on the whole view, and once read, the report of
 * scripts/inspect, its problems and every file with a Bytes button.
 * engine() gives {engine, id} of the widget's simulation; bytes is the
 * view's BytesView and readFile its annotation (files.js).
 */
export class FolderView {
  constructor(tr, act, engine, bytes, readFile, start = null) {
    this.tr = tr;
    this.start = start;
    this.act = act;
    this.engine = engine;
    this.bytes = bytes;
    this.readFile = readFile;
    this.open = null;
    this.asked = 0;
    // the files are taken while the event is dispatched: the input is in a
    // shadow root, so the event's target is null once dispatch is over, and
    // load may run later, after what the widget is still doing
    const picked = (e) => {
      const input = e.target;
      const files = [...input.files];
      this.load(() => fromFiles(files), input);
    };
    const pick = (attrs) => h("input", { type: "file", hidden: true, tabindex: "-1", ...attrs, onchange: picked });
    this.dirInput = pick({ webkitdirectory: true, multiple: true });
    this.tarInput = pick({ accept: ".tar,.zip,application/x-tar,application/zip" });
    this.status = h("p.folder-status", { role: "status" });
    this.body = h("div.folder-body");
    this.el = h(
      "section.folder",
      { "data-role": "folder", "aria-label": tr("folder.label") },
      h(
        "p.folder-open",
        null,
        h("button.folder-btn", { type: "button", text: tr("folder.open"), onclick: () => this.dirInput.click() }),
        " ",
        h("button.folder-tar", { type: "button", text: tr("folder.openTar"), onclick: () => this.tarInput.click() }),
        " ",
        h("span.folder-hint", { text: tr("folder.hint") }),
      ),
      this.dirInput,
      this.tarInput,
      this.status,
      this.body,
    );
  }

  /** drop reads what the reader dropped on the view. */
  drop(e) {
    e.preventDefault();
    const dt = e.dataTransfer;
    // the items are gone once the event returns: read their entries now
    const read = fromDrop(dt);
    this.load(() => read, null);
  }

  /** load reads the files read() gives and hands them to the engine. */
  load(read, input) {
    return this.act(async () => {
      const tr = this.tr;
      const { engine, id } = this.engine();
      this.status.textContent = tr("folder.reading");
      let files;
      let r;
      try {
        files = await read();
        if (input) {
          input.value = "";
        }
        if (!engine) {
          throw new Error(tr("folder.noEngine"));
        }
        r = await engine.openFolder(id, files);
      } catch (err) {
        this.status.textContent = tr("folder.failed", { why: errorText(String(err.message || err), tr.lang || "en") });
        this.el.dataset.state = "failed";
        return;
      }
      this.el.dataset.state = "open";
      this.open = null;
      this.show(r, files.length);
    });
  }

  show(r, n) {
    const tr = this.tr;
    this.result = r;
    const size = r.files.reduce((a, f) => a + f.size, 0);
    this.status.textContent = tr("folder.opened", { root: r.root || ".", n: r.files.length, size: formatBytes(size) });
    const skipped = r.skipped.length ? h("p.folder-skipped", { text: tr("folder.skipped", { n: r.skipped.length, names: r.skipped.slice(0, 5).join(", ") }) }) : null;
    const problems = r.problems.length
      ? h(
          "div.folder-problems",
          { role: "alert" },
          h("p", { text: tr("folder.problems", { n: r.problems.length }) }),
          h(
            "ul",
            null,
            r.problems.map((p) => h("li", { text: p.error })),
          ),
        )
      : null;
    const report = h("details.folder-report", null, h("summary", { text: tr("folder.report") }), h("pre.folder-text", { text: r.report }));
    this.list = h(
      "ul.files-list.folder-files",
      null,
      r.files.map((f) => {
        const readable = f.size > 0;
        const btn = readable
          ? h("button.bytes-btn", {
              type: "button",
              "aria-expanded": "false",
              "aria-label": tr("files.bytesButtonLabel", { path: f.path }),
              text: tr("files.bytesButton"),
              onclick: () => this.act(() => this.toggle(f.path)),
            })
          : null;
        return h(
          "li.file",
          { "data-path": f.path, "data-kind": f.kind, "data-size": f.size, "data-error": f.error || null },
          h(
            "div.file-head",
            null,
            h("span.file-label", null, h("code", { text: f.path })),
            h("span.file-size", { text: formatBytes(f.size) }),
            btn,
          ),
          f.error ? h("p.file-error", { text: f.error }) : null,
        );
      }),
    );
    this.recovered = h("div.folder-recovered", { role: "status" });
    this.defs = h("textarea.folder-defs", { rows: 3, spellcheck: "false", "aria-label": tr("folder.defsLabel"), placeholder: tr("folder.defsHint") });
    const recover = h(
      "section.folder-recover",
      { "aria-label": tr("folder.recoverLabel") },
      h("p", { text: tr("folder.recoverIntro") }),
      this.defs,
      h("p", null, h("button.folder-recover-btn", { type: "button", text: tr("folder.recover"), onclick: () => this.act(() => this.recover()) })),
      this.recovered,
    );
    this.body.replaceChildren(...[skipped, problems, report, recover, this.list].filter(Boolean));
    this.n = n;
  }

  /** recover starts the folder as RabbitMQ 3.10.8 would on boot and lists
   * what comes back, what does not and why; the reader can then start the
   * simulated node from it. */
  async recover() {
    const tr = this.tr;
    const { engine, id } = this.engine();
    let r;
    try {
      if (!engine) {
        throw new Error(tr("folder.noEngine"));
      }
      r = await engine.recoverFolder(id, this.defs.value);
    } catch (err) {
      this.recovered.dataset.state = "failed";
      this.recovered.replaceChildren(h("p.folder-recover-failed", { text: tr("folder.recoverFailed", { why: errorText(String(err.message || err), tr.lang || "en") }) }));
      return;
    }
    this.recovered.dataset.state = "done";
    const why = (code, text) => (code ? tr(`folder.why.${code}`) : text);
    const queues = r.queues.map((q) => {
      const lost = {};
      for (const l of q.lost) {
        lost[l.why] = lost[l.why] || { n: 0, text: l.text };
        lost[l.why].n++;
      }
      return h(
        "li.recovered-queue",
        { "data-queue": q.name, "data-messages": q.messages.length, "data-lost": q.lost.length },
        h("p.recovered-name", null, h("code", { text: q.name }), " ", tr("folder.queueBack", { n: q.messages.length, args: q.args === "{}" ? "" : q.args }), q.assumed ? ` ${tr("folder.assumed")}` : ""),
        h(
          "ol.recovered-messages",
          null,
          q.messages.map((m) =>
            h("li.recovered-message", { "data-priority": m.priority }, h("code", { text: m.body + (m.size > m.body.length ? "…" : "") }), " ", tr("folder.message", { size: formatBytes(m.size), priority: m.priority < 0 ? "-" : m.priority })),
          ),
        ),
        Object.entries(lost).map(([code, l]) => h("p.recovered-lost", { "data-why": code, text: tr("folder.lost", { n: l.n, why: why(code, l.text) }) })),
      );
    });
    const gone = r.gone.map((g) => h("li.recovered-gone", { "data-dir": g.dir, text: tr("folder.gone", { dir: g.dir, name: g.name || "?", n: g.messages, why: why(g.why, g.text) }) }));
    const start = this.start
      ? h("button.folder-start-btn", {
          type: "button",
          text: tr("folder.start"),
          onclick: () => this.start(r.script.join("\n")),
        })
      : null;
    this.recovered.replaceChildren(
      h("p.recovered-summary", { text: tr("folder.recovered", { n: r.queues.length, named: tr(`folder.named.${r.named}`) }) }),
      r.queues.length ? h("p.recovered-why", { text: tr("folder.why.redelivered") }) : null,
      h("ul.recovered-queues", null, queues),
      gone.length ? h("ul.recovered-gone-list", null, gone) : null,
      start ? h("p", null, start) : null,
      h("details.recovered-script", null, h("summary", { text: tr("folder.script") }), h("pre", { text: r.script.join("\n") })),
    );
  }

  /** toggle opens or closes a file's bytes. */
  async toggle(path) {
    this.open = this.open === path ? null : path;
    for (const li of this.list.children) {
      const b = li.querySelector("button.bytes-btn");
      if (b) {
        b.setAttribute("aria-expanded", String(li.dataset.path === this.open));
      }
    }
    if (!this.open) {
      this.bytes.el.remove();
      return;
    }
    const li = [...this.list.children].find((x) => x.dataset.path === path);
    li.append(this.bytes.el);
    const n = ++this.asked;
    const { engine, id } = this.engine();
    let fb;
    try {
      fb = await engine.folderBytes(id, path);
    } catch (err) {
      this.bytes.summary.textContent = String(err.message || err);
      return;
    }
    if (n !== this.asked || this.open !== path) {
      return;
    }
    const width = this.list.clientWidth >= 620 || this.list.clientWidth === 0 ? 16 : 8;
    this.bytes.show(this.readFile(fb), width);
  }
}
