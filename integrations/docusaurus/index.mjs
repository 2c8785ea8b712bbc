// warren's remark plugin for Docusaurus (MDX 3): a ```warren fence becomes
// a <warren-scenario> widget, its script as written (the plugin hands MDX
// the script as text, so {i} is not read as code and # not as a heading),
// with the fence line's options as the element's attributes:
//
//   ```warren title="Three jobs" view=table open=start
//
// warrenHead(origin) is the widget's script and style sheet for the site's
// config.

/** VALUED and BOOLEAN are the attributes a fence line may give. */
const VALUED = ["id", "title", "view", "open", "event", "speed", "version", "lang", "name", "src", "share-to", "goals", "solution", "hints", "load", "theme"];
const BOOLEAN = ["autoplay", "error-ok", "editor"];

/** warrenHead is what the site's config spreads in: ...warrenHead(origin). */
export function warrenHead(origin) {
  const o = String(origin).replace(/\/+$/, "");
  return {
    scripts: [{ src: `${o}/widget.js`, defer: true }],
    stylesheets: [`${o}/widget.css`],
  };
}

/** options reads a fence line's options after the language: name="a b",
 * name='a b', name=value or name alone, in braces or not. */
export function options(meta) {
  const out = [];
  const re = /([a-z][\w-]*)(?:=(?:"([^"]*)"|'([^']*)'|([^\s}]+)))?/g;
  for (const m of String(meta || "").replace(/^[{\s]+|[}\s]+$/g, "").matchAll(re)) {
    const [, name, dq, sq, bare] = m;
    const value = dq ?? sq ?? bare;
    if (VALUED.includes(name) && value !== undefined) {
      out.push([name, value]);
    } else if (BOOLEAN.includes(name)) {
      out.push([name, ""]);
    }
  }
  return out;
}

/** widget is the MDX element of a warren code node. */
function widget(node) {
  return {
    type: "mdxJsxFlowElement",
    name: "warren-scenario",
    attributes: options(node.meta).map(([name, value]) => ({ type: "mdxJsxAttribute", name, value })),
    // the script as the element's text: a <pre> here would be the
    // theme's code block, which MDX maps every pre to
    children: [{ type: "text", value: `${node.value}\n` }],
    position: node.position,
  };
}

/** remarkWarren is the remark plugin: docs: { remarkPlugins: [remarkWarren] }. */
export function remarkWarren() {
  const walk = (node) => {
    if (!node.children) {
      return;
    }
    node.children = node.children.map((c) => (c.type === "code" && c.lang === "warren" ? widget(c) : (walk(c), c)));
  };
  return (tree) => walk(tree);
}

export default remarkWarren;
