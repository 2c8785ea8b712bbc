// embedding.js fills the embedding page's snippets with the address the
// page is served from, when the site was built without -origin: every
// element marked data-origin names https://HOST until then.
(function () {
  "use strict";
  var placeholder = "https://HOST";
  document.querySelectorAll("[data-origin]").forEach(function (el) {
    if (el.textContent.indexOf(placeholder) >= 0) {
      el.textContent = el.textContent.split(placeholder).join(window.location.origin);
    }
  });
})();
