// sheet.js: the widget's style sheets, fetched once and shared by every
// shadow root: widget.css from the widget's base (the page links the same
// file for the element itself), rates.css and files.css, the charts' and
// the file view's own, and teach.css, the captions', markers' and
// hints', beside this module.

let sheetsPromise = null;

// Enough to read the widget if widget.css cannot be fetched.
const FALLBACK_CSS = `:host{display:block;all:initial;font:14px system-ui,sans-serif;color:#111;background:#fff}
  [hidden]{display:none!important}.sr-only{position:absolute;width:1px;height:1px;overflow:hidden;clip-path:inset(50%)}`;

/** loadSheets resolves to the style sheets for a shadow root. */
export function loadSheets(base) {
  if (!sheetsPromise) {
    sheetsPromise = Promise.all([sheet(base + "widget.css", FALLBACK_CSS), sheet(new URL("rates.css", import.meta.url).href, ""), sheet(new URL("files.css", import.meta.url).href, ""), sheet(new URL("teach.css", import.meta.url).href, "")]);
  }
  return sheetsPromise;
}

function sheet(url, fallback) {
  return fetch(url)
    .then((r) => (r.ok ? r.text() : ""))
    .catch(() => "")
    .then((text) => {
      const s = new CSSStyleSheet();
      s.replaceSync(text || fallback);
      return s;
    });
}
