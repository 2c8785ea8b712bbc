// lang.js: the language switch of every page keeps the reader's place. The
// switch links to the same page in the other language; this script adds
// the address's #fragment (the section read, or a share link's scenario)
// to it, now and whenever the fragment changes.
(() => {
  "use strict";
  const update = () => {
    for (const a of document.querySelectorAll("a[data-lang-switch]")) {
      const u = new URL(a.href, location.href);
      u.hash = location.hash;
      a.href = u.href;
    }
  };
  addEventListener("hashchange", update);
  document.addEventListener("click", (e) => {
    if (e.target instanceof Element && e.target.closest("a[data-lang-switch]")) {
      update();
    }
  }, true);
  update();
})();
