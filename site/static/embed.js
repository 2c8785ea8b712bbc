// embed.js fills the embed page's <warren-scenario> from the page address
// before the widget's deferred script runs: `scenario`, `title`, `version`
// and `lang`, from the query string or, taking precedence, from the part
// after `#` written the same way (#scenario=...&title=...).
(function () {
  "use strict";
  var el = document.getElementById("embedded");
  if (!el) {
    return;
  }
  var params = new URLSearchParams(window.location.search);
  var hash = window.location.hash.replace(/^#/, "");
  if (hash.indexOf("=") >= 0) {
    new URLSearchParams(hash).forEach(function (value, key) {
      params.set(key, value);
    });
  }
  var script = params.get("scenario");
  if (script !== null) {
    var pre = document.createElement("pre");
    pre.className = "warren-script";
    pre.tabIndex = 0;
    var code = document.createElement("code");
    code.className = "language-warren";
    code.textContent = script.replace(/\r\n?/g, "\n").replace(/\n+$/, "");
    pre.appendChild(code);
    el.replaceChildren(pre);
  }
  var title = params.get("title");
  if (title) {
    el.setAttribute("title", title);
    document.title = title + " · warren";
  }
  var lang = params.get("lang");
  if (lang && /^[A-Za-z]{2,3}(-[A-Za-z0-9]{2,8})*$/.test(lang)) {
    el.setAttribute("lang", lang);
  }
  var version = params.get("version");
  if (version && /^[0-9]+\.[0-9]+$/.test(version)) {
    el.setAttribute("version", version);
  }
})();
