// source.js: where a widget's scenario comes from: a share link in the
// page address (for a full-page widget), the src or name attribute, or
// the element's own text (a <pre> or a <script type="text/warren"> in it,
// or its text), which arrival.js checks arrived as written.

import { arrivalProblem } from "./arrival.js";
import { ShareState } from "./share.js";

const DEFAULT_VERSION = "3.10"; // the engine's default profile

/** readSource finds the script of widget w: {source} and, from a share
 * link, {share}. A scenario name is read from base/scenarios/. */
export async function readSource(w, base) {
  if (w.fromURL) {
    const share = await ShareState.decode(location.hash);
    if (share) {
      return { share, source: share.script };
    }
  }
  const src = w.getAttribute("src");
  const name = w.getAttribute("name");
  if (src || name) {
    if (name && globalThis.warrenScenarios && typeof globalThis.warrenScenarios[name] === "string") {
      return { source: globalThis.warrenScenarios[name] };
    }
    const url = src ? new URL(src, document.baseURI) : new URL(`scenarios/${encodeURIComponent(name)}.txt`, base);
    let r;
    try {
      r = await fetch(url);
    } catch (e) {
      throw Object.assign(new Error(`cannot fetch ${url}: ${e.message}`), { key: "source.cannotFetch", params: { url: String(url), error: e.message } });
    }
    if (!r.ok) {
      throw Object.assign(new Error(`cannot fetch ${url}: HTTP ${r.status}`), { key: "source.httpStatus", params: { url: String(url), status: r.status } });
    }
    return { source: await r.text() };
  }
  const pre = w.querySelector(':scope > pre, :scope > script[type="text/warren"]');
  let source = (pre ? pre.textContent : w.textContent).replace(/\r\n?/g, "\n");
  const children = [...w.childNodes].map((n) => ({ tag: n.nodeType === Node.ELEMENT_NODE ? n.localName : n.nodeName, text: n.textContent }));
  const changed = arrivalProblem(children, source);
  if (changed) {
    throw changed;
  }
  // A version other than the default becomes the script's first line,
  // so that a share link keeps it.
  const version = w.getAttribute("version");
  if (version && version !== DEFAULT_VERSION && /^\d+\.\d+$/.test(version)) {
    source = `set version=${version}\n${source}`;
  }
  return { source };
}
