// share.js: share links, #w=<script>&e=<event>&v=<view>, the script being
// every command that made the state (deflate-raw, then base64url), and the
// widget's share button with the box that shows the link.

import { h, setText } from "./dom.js";
import { errorText, translator } from "./i18n.js";

/** VIEWS are the views a link (v=) or the view attribute can name. */
export const VIEWS = ["diagram", "rates", "files", "table"];

/** MAX_SCRIPT_BYTES is the most a share link's script may hold, in UTF-8
 * bytes once inflated: far more than any lesson or playground session
 * needs, and little enough that a small link of compressed blank lines
 * cannot fill the tab's memory. */
export const MAX_SCRIPT_BYTES = 1 << 20;

// INFLATE_SLICE is how much compressed data inflate hands the decompressor
// at once: deflate expands a byte to at most about 1,032, so no step makes
// more than about 264 kB before the bound is checked.
const INFLATE_SLICE = 256;

/** LinkError says a share link cannot be read: message in English, and
 * key and params, the catalog text that says it in the reader's language
 * (said, in element.js and ShareBox); cause is what went wrong inside. */
export class LinkError extends Error {
  constructor(message, key, params = {}, cause = undefined) {
    super(message, cause ? { cause } : undefined);
    this.key = key;
    this.params = params;
  }
}

/** said is an error in the reader's words (tr, a translator): a keyed
 * error by its catalog text, with what went wrong inside by its own key
 * where it has one, else its message. */
export function said(e, tr) {
  if (!e || !e.key || !tr.lang || tr.lang === "en") {
    return e && e.message ? e.message : String(e); // the message is the English
  }
  const inner = e.cause ? said(e.cause, tr) : "";
  return tr(e.key, { ...e.params, error: inner || e.params.error || "" });
}

async function deflate(text) {
  const bytes = new TextEncoder().encode(text);
  if (bytes.length > MAX_SCRIPT_BYTES) {
    const [size, max] = [bytes.length.toLocaleString("en"), MAX_SCRIPT_BYTES.toLocaleString("en")];
    throw new LinkError(`the scenario is ${size} bytes, more than a link carries (${max})`, "link.tooBig", { size, max });
  }
  const stream = new Blob([bytes]).stream().pipeThrough(new CompressionStream("deflate-raw"));
  return base64url(new Uint8Array(await new Response(stream).arrayBuffer()));
}

/** inflate unpacks a link's data, stopping as soon as it passes
 * MAX_SCRIPT_BYTES: the compressed bytes go in slice by slice, and the
 * decompressor makes no more until its output has been read. */
async function inflate(data) {
  const bytes = unbase64url(data);
  const ds = new DecompressionStream("deflate-raw");
  const writer = ds.writable.getWriter();
  const reader = ds.readable.getReader();
  const feeding = (async () => {
    for (let i = 0; i < bytes.length; i += INFLATE_SLICE) {
      await writer.write(bytes.subarray(i, i + INFLATE_SLICE));
    }
    await writer.close();
  })();
  feeding.catch(() => {}); // its failure is the reader's too
  const chunks = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) {
      break;
    }
    size += value.length;
    if (size > MAX_SCRIPT_BYTES) {
      await reader.cancel().catch(() => {});
      const max = MAX_SCRIPT_BYTES.toLocaleString("en");
      throw new LinkError(`the scenario in the link unpacks to more than ${max} bytes, the most a link may carry; it was not run`, "link.unpacksTooBig", { max });
    }
    chunks.push(value);
  }
  await feeding;
  const buf = new Uint8Array(size);
  let at = 0;
  for (const c of chunks) {
    buf.set(c, at);
    at += c.length;
  }
  return new TextDecoder("utf-8", { fatal: true }).decode(buf);
}

function base64url(bytes) {
  let bin = "";
  for (let i = 0; i < bytes.length; i += 0x8000) {
    bin += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  }
  return btoa(bin).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
}

function unbase64url(s) {
  if (!/^[A-Za-z0-9_-]*$/.test(s)) {
    throw new LinkError("it has characters a link's data never has", "link.badCharacters");
  }
  const bin = atob(s.replace(/-/g, "+").replace(/_/g, "/") + "===".slice((s.length + 3) % 4));
  return Uint8Array.from(bin, (c) => c.charCodeAt(0));
}

/** ShareState is what a share link holds. */
export class ShareState {
  constructor(script, event, view) {
    this.script = script;
    this.event = event;
    this.view = view;
  }
  async encode() {
    const p = [`w=${await deflate(this.script)}`];
    if (this.event !== null && this.event !== undefined) {
      p.push(`e=${this.event}`);
    }
    if (this.view) {
      p.push(`v=${encodeURIComponent(this.view)}`);
    }
    return "#" + p.join("&");
  }
  /** decode reads a hash; null when it is not a share link at all. */
  static async decode(hash) {
    const params = new URLSearchParams(hash.replace(/^#/, ""));
    if (!params.has("w")) {
      return null;
    }
    let script;
    try {
      script = await inflate(params.get("w"));
    } catch (e) {
      if (e instanceof LinkError && e.key !== "link.badCharacters") {
        throw e;
      }
      // the browser's own words for what failed (a truncated stream) are
      // said as the data being damaged, in the reader's language
      const cause = e.key ? e : new LinkError(e.message || String(e), "link.badData");
      throw new LinkError(`the scenario data in the link cannot be read (${e.message || e}); the link may have been cut short when it was copied`, "link.unreadable", { error: e.message || String(e) }, cause);
    }
    let event = null;
    if (params.has("e")) {
      const e = params.get("e");
      if (!/^\d{1,15}$/.test(e)) {
        throw new LinkError(`e=${e} is not an event number`, "link.badEvent", { e });
      }
      event = Number(e);
    }
    const view = params.get("v");
    if (view !== null && !VIEWS.includes(view)) {
      throw new LinkError(`v=${view} is not a view (${VIEWS.join(", ")})`, "link.badView", { view, views: VIEWS.join(", ") });
    }
    return new ShareState(script, event, view);
  }
}

/** shareTarget is the page a share link opens: the share-to attribute
 * (resolved against base, the widget's address), the playground when it
 * is absent (in the widget's language: zh/playground/ for Chinese, so
 * that a link keeps the reader's language). Only an http or https address is a page: anything else
 * (javascript:, data:) is refused with a LinkError. */
export function shareTarget(attr, base, lang = "en") {
  let url;
  try {
    url = new URL(attr || (lang === "en" ? "playground/" : `${lang}/playground/`), base);
  } catch {
    throw new LinkError(`share-to="${attr}" is not an address`, "link.badShareTo", { attr });
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") {
    throw new LinkError(`share-to="${attr}" is not an http or https address`, "link.shareToNotHTTP", { attr });
  }
  return url;
}

/** ShareBox is the share button and the box that shows the link made:
 * link() makes it, announce(text) tells a screen reader. */
export class ShareBox {
  constructor(uid, link, announce, tr = translator("en")) {
    this.link = link;
    this.announce = announce;
    this.tr = tr;
    this.button = h("button.share", { type: "button", onclick: () => this.share() }, tr("share.button"));
    this.url = h("input.share-url", { type: "text", readonly: true, "aria-label": tr("share.button"), id: `u-${uid}` });
    this.note = h("span.share-note", { "aria-live": "polite" });
    this.box = h("div.sharebox", { hidden: true }, this.url, this.note);
  }

  async share() {
    let url;
    try {
      url = await this.link();
    } catch (e) {
      setText(this.note, this.tr("share.cannot", { error: e.key ? said(e, this.tr) : errorText(e.message, this.tr.lang) }));
      return;
    }
    this.box.hidden = false;
    this.url.value = url;
    this.url.select();
    let copied = false;
    try {
      await navigator.clipboard.writeText(url);
      copied = true;
    } catch {
      copied = false;
    }
    const msg = copied ? this.tr("share.copied", { n: url.length }) : this.tr("share.copy");
    setText(this.note, msg);
    this.announce(msg);
  }
}
