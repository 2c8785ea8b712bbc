// warren's markdown-it plugin for VitePress: a ```warren fence becomes a
// <warren-scenario> widget, its script as written (v-pre keeps Vue from
// reading {{ }} in it, <pre> keeps its lines), with the fence line's
// options as the element's attributes:
//
//   ```warren title="Three jobs" view=table open=start
//
// warrenHead(origin) is the widget's style sheet and script for the site's
// head, and isCustomElement tells Vue that <warren-scenario> is not one of
// its components.

/** VALUED and BOOLEAN are the attributes a fence line may give. */
const VALUED = ["id", "title", "view", "open", "event", "speed", "version", "lang", "name", "src", "share-to", "goals", "solution", "hints", "load", "theme"];
const BOOLEAN = ["autoplay", "error-ok", "editor"];

/** isCustomElement is for vue.template.compilerOptions. */
export const isCustomElement = (tag) => tag === "warren-scenario";

/** warrenHead is the site config's head entries for warren at origin. */
export function warrenHead(origin) {
  const o = String(origin).replace(/\/+$/, "");
  return [
    ["link", { rel: "stylesheet", href: `${o}/widget.css` }],
    ["script", { src: `${o}/widget.js`, defer: "" }],
  ];
}

/** options reads a fence line's options after the language: name="a b",
 * name='a b', name=value or name alone, in braces or not. */
export function options(info) {
  const out = [];
  const re = /([a-z][\w-]*)(?:=(?:"([^"]*)"|'([^']*)'|([^\s}]+)))?/g;
  for (const m of info.replace(/^[{\s]+|[}\s]+$/g, "").matchAll(re)) {
    const [, name, dq, sq, bare] = m;
    const value = dq ?? sq ?? bare;
    if (VALUED.includes(name) && value !== undefined) {
      out.push([name, value]);
    } else if (BOOLEAN.includes(name)) {
      out.push([name, null]);
    }
  }
  return out;
}

/** warren is the markdown-it plugin: markdown: { config: (md) => md.use(warren) }. */
export function warren(md) {
  const fence = md.renderer.rules.fence;
  const esc = md.utils.escapeHtml;
  md.renderer.rules.fence = (tokens, idx, opts, env, self) => {
    const token = tokens[idx];
    const m = /^warren(?:\s+(.*))?$/.exec(token.info.trim());
    if (!m) {
      return fence(tokens, idx, opts, env, self);
    }
    // VitePress' markdown-it-attrs takes a {...} at the end of the line
    // into the token's attributes before this rule sees it
    const given = [...options(m[1] || ""), ...(token.attrs || []).filter(([k]) => VALUED.includes(k) || BOOLEAN.includes(k)).map(([k, v]) => [k, BOOLEAN.includes(k) ? null : v])];
    const attrs = given
      .map(([k, v]) => (v === null ? ` ${k}` : ` ${k}="${esc(v)}"`))
      .join("");
    return `<warren-scenario${attrs} v-pre><pre>${esc(token.content)}</pre></warren-scenario>\n`;
  };
}

export default warren;
