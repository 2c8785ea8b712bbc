// theme.js: whether a widget is drawn light or dark. theme="light" or
// theme="dark" on the element says so; theme="auto", the default, follows
// the host page first and then the operating system, and changes when the
// host's toggle does. The page says dark with a class "dark" on <html> or
// <body> (VitePress, Tailwind), with data-theme="dark" or "light" on either
// (Docusaurus, Starlight), or with a color-scheme of "dark" or "light"
// alone. The element carries the answer as data-scheme="light|dark", which
// widget.css's colours (custom properties on :host) follow.

/** scheme decides, DOM-free: theme is the element's attribute; page is
 * what the host page says ({dark: class, dataTheme, colorScheme}) for
 * <html> and <body>, in that order; osDark whether the system prefers
 * dark. */
export function scheme(theme, pages, osDark) {
  if (theme === "light" || theme === "dark") {
    return theme;
  }
  for (const p of pages) {
    if (p.dark) {
      return "dark";
    }
    if (p.dataTheme === "dark" || p.dataTheme === "light") {
      return p.dataTheme;
    }
    const cs = (p.colorScheme || "").trim().split(/\s+/).filter((w) => w === "dark" || w === "light");
    if (cs.length === 1) {
      return cs[0];
    }
  }
  return osDark ? "dark" : "light";
}

/** watchScheme sets el's data-scheme now and whenever its theme, the host
 * page or the system's preference changes; it returns what stops it. */
export function watchScheme(el) {
  const os = matchMedia("(prefers-color-scheme: dark)");
  const said = (e) => (e ? { dark: e.classList.contains("dark"), dataTheme: e.dataset.theme, colorScheme: getComputedStyle(e).colorScheme } : {});
  const apply = () => {
    const s = scheme(el.getAttribute("theme"), [said(document.documentElement), said(document.body)], os.matches);
    if (el.dataset.scheme !== s) {
      el.dataset.scheme = s;
    }
  };
  apply();
  const mo = new MutationObserver(apply);
  const attributes = { attributes: true, attributeFilter: ["class", "data-theme", "style"] };
  mo.observe(document.documentElement, attributes);
  if (document.body) {
    mo.observe(document.body, attributes);
  }
  mo.observe(el, { attributes: true, attributeFilter: ["theme"] });
  os.addEventListener("change", apply);
  return () => {
    mo.disconnect();
    os.removeEventListener("change", apply);
  };
}
