// widget.js defines <warren-scenario>: a live view of a simulated RabbitMQ
// node running a scenario script, with step, play, a timeline to scrub, a
// console in the command language and a link that reproduces the exact
// state. One script tag and one element work on any page; every element of
// a page shares one warren.wasm instance (the engine and its bridge,
// wasm/), loaded once, in one Web Worker (widget/engine-worker.js).
//
// This file only loads the widget: it is a classic script, so that the
// one tag pages carry, <script src=".../widget.js" defer>, works as it
// is, and the widget itself is the ES modules in widget/ beside it
// (widget/element.js first), which it imports from its own address.
//
// Where the other files are (warren.wasm, wasm_exec.js, widget.css, named
// scenarios, the playground): the directory of this script, unless the
// script tag has data-base="https://host/path/" or the page sets
// globalThis.warrenBase before this script runs. From another origin, the
// server must allow it (CORS): modules and warren.wasm are fetched so.
//
// Share links: #w=<script>&e=<event>&v=<view>, the script being every
// command that made the state (deflate-raw, base64url).
//
// Markdown cannot break two raw forms, which this file turns into widgets
// (upgradeRaw), on the page as it loads and on whatever a site's
// client-side navigation puts in it later: <script type="text/warren">
// and <pre class="warren">, each with the element's attributes. CommonMark
// runs either to its closing tag, blank lines and all, and leaves its text
// alone.
(() => {
  "use strict";
  const LOADED = Symbol.for("warren.widget.js");
  if (customElements.get("warren-scenario") || globalThis[LOADED]) {
    return; // the script was included twice
  }
  globalThis[LOADED] = true;

  // What the page's Content-Security-Policy blocks (in a widget's shadow
  // root too: the event is composed), for the message of a widget that
  // cannot start (widget/policy.js says what to add).
  const violations = (globalThis[Symbol.for("warren.violations")] = []);
  document.addEventListener(
    "securitypolicyviolation",
    (e) => violations.push({ directive: e.effectiveDirective || e.violatedDirective, blocked: e.blockedURI }),
    true,
  );

  // NB: every module in widget/, so that they all load at once instead of
  // one import level after another; site tests check the list.
  const MODULES = [
    "element.js",
    "arrival.js",
    "bridge-loader.js",
    "captions.js",
    "changes.js",
    "charts.js",
    "connection.js",
    "console.js",
    "diagram.js",
    "dom.js",
    "drawing.js",
    "definitions.js",
    "editor.js",
    "engine-worker.js",
    "files.js",
    "files-hex.js",
    "files-folder.js",
    "files-words.js",
    "goals.js",
    "goalwords.js",
    "guide.js",
    "guided.js",
    "history.js",
    "i18n.js",
    "i18n-en.js",
    "i18n-zh.js",
    "format.js",
    "markers.js",
    "playback.js",
    "policy.js",
    "progress.js",
    "rates.js",
    "realtools.js",
    "running.js",
    "samples.js",
    "share.js",
    "sheet.js",
    "source.js",
    "tables.js",
    "terms.js",
    "theme.js",
    "timeline.js",
  ];

  const here = document.currentScript;
  const base = (() => {
    const given = (here && here.dataset.base) || globalThis.warrenBase;
    const from = given || (here && here.src) || document.baseURI;
    try {
      return new URL(given ? from : ".", given ? document.baseURI : from).href.replace(/\/?$/, "/");
    } catch {
      return "/";
    }
  })();
  // NB: the build sets VERSION to the folder of this build's widget
  // files (v/<hash>/), which never change and are cached for a year: the
  // modules bundled into one (widget/bundle.js), the worker, the style
  // sheets, warren.wasm and wasm_exec.js. This file, which names them, is
  // the one a browser asks for again.
  const VERSION = "";
  const own = new URL(VERSION || "./", (here && here.src) || base).href;
  const dir = own + "widget/";
  const entry = VERSION ? "bundle.js" : "element.js";

  if (!VERSION) {
    for (const m of MODULES) {
      const link = document.createElement("link");
      link.rel = "modulepreload";
      link.href = dir + m;
      document.head.appendChild(link);
    }
  }
  upgradeRaw();
  import(dir + entry).then(
    (m) => m.define(base, VERSION ? own : base),
    (e) => unavailable(`cannot load ${dir}${entry}: ${e && e.message ? e.message : e}`),
  );

  /** upgradeRaw puts a <warren-scenario> before every raw form of the page
   * and of what is added to it later, with the raw form's attributes (but
   * its type and class) and its text as the script, and hides the raw
   * form. The raw form stays where it was, so that a framework that
   * rendered it still finds it; when it is removed (the site navigated
   * away), its widget goes too. */
  function upgradeRaw() {
    const RAW = 'script[type="text/warren"], pre.warren';
    const made = new Map(); // raw form -> its widget
    const upgrade = (raw) => {
      if (made.has(raw) || raw.closest("warren-scenario")) {
        return; // done, or a widget's own script, which it reads itself
      }
      const w = document.createElement("warren-scenario");
      for (const a of raw.attributes) {
        if (a.name !== "type" && a.name !== "class") {
          w.setAttribute(a.name, a.value);
        }
      }
      raw.removeAttribute("id");
      const pre = document.createElement("pre");
      // the parser drops a newline right after <pre>, not after <script>
      pre.textContent = raw.textContent.replace(/^\r?\n/, "").replace(/\s*$/, "\n");
      w.append(pre);
      raw.hidden = true;
      raw.before(w);
      made.set(raw, w);
    };
    const scan = (root) => {
      if (root.matches && root.matches(RAW)) {
        upgrade(root);
      } else if (root.querySelectorAll) {
        root.querySelectorAll(RAW).forEach(upgrade);
      }
    };
    // NB: a framework that hydrates the page's server-rendered HTML
    // (VitePress, Docusaurus) must find it as it left it, or it gives up on
    // the rest of the page: the page's own raw forms are upgraded once it
    // has loaded and the browser is idle, those added later at once.
    const later = () => (typeof requestIdleCallback === "function" ? requestIdleCallback(() => scan(document), { timeout: 1000 }) : setTimeout(() => scan(document), 0));
    if (document.readyState === "complete") {
      later();
    } else {
      addEventListener("load", later, { once: true });
    }
    new MutationObserver((records) => {
      let removed = false;
      for (const r of records) {
        r.addedNodes.forEach(scan);
        removed ||= r.removedNodes.length > 0;
      }
      if (removed) {
        for (const [raw, w] of made) {
          if (!raw.isConnected) {
            w.remove();
            made.delete(raw);
          }
        }
      }
    }).observe(document.documentElement, { childList: true, subtree: true });
  }

  /** unavailable makes every element say why it cannot run, above the
   * script it holds. */
  function unavailable(why) {
    console.error(`warren: ${why}`);
    if (customElements.get("warren-scenario")) {
      return;
    }
    customElements.define(
      "warren-scenario",
      class extends HTMLElement {
        connectedCallback() {
          if (this.shadowRoot) {
            return;
          }
          const p = document.createElement("p");
          p.setAttribute("role", "alert");
          p.textContent = `This scenario cannot run here (${why}). Its script:`;
          this.attachShadow({ mode: "open" }).append(p, document.createElement("slot"));
        }
      },
    );
  }
})();
