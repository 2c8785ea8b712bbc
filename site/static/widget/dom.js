// dom.js: small DOM helpers for the widget's modules.

const SVG = "http://www.w3.org/2000/svg";

/** h makes an element: h("div.a.b", {attr: v}, child, "text", ...). An
 * attribute onX adds a listener for X; text sets the text. */
export function h(spec, attrs, ...children) {
  const [tag, ...classes] = spec.split(".");
  return fill(document.createElement(tag || "div"), classes, attrs, children);
}

/** s makes an SVG element the way h makes an HTML one. */
export function s(spec, attrs, ...children) {
  const [tag, ...classes] = spec.split(".");
  return fill(document.createElementNS(SVG, tag), classes, attrs, children);
}

function fill(el, classes, attrs, children) {
  if (classes.length) {
    el.setAttribute("class", classes.join(" "));
  }
  if (attrs) {
    for (const [k, v] of Object.entries(attrs)) {
      if (v === null || v === undefined || v === false) {
        continue;
      }
      if (k.startsWith("on")) {
        el.addEventListener(k.slice(2), v);
      } else if (k === "text") {
        el.textContent = v;
      } else {
        el.setAttribute(k, v === true ? "" : String(v));
      }
    }
  }
  for (const c of children.flat()) {
    if (c !== null && c !== undefined && c !== false) {
      el.append(c);
    }
  }
  return el;
}

/** setText changes an element's (or a text node's) text only when it
 * differs. */
export function setText(el, text) {
  if (el.textContent !== text) {
    el.textContent = text;
  }
}

/** syncChips makes the chips of a container match items ({cls, text,
 * title, style}), reusing the chips already there so that only new ones
 * play their entrance; with still, new ones do not (data-still): a whole
 * state drawn at once does not pop in chip by chip. */
export function syncChips(box, items, cls, still = false) {
  if (cls) {
    setClass(box, cls);
  }
  items.forEach((it, i) => {
    let c = box.children[i];
    if (!c) {
      c = box.appendChild(document.createElement("span"));
      if (still) {
        c.setAttribute("data-still", "");
      }
    }
    setClass(c, it.cls);
    setText(c, it.text);
    if ((c.getAttribute("title") || "") !== (it.title || it.text || "")) {
      c.title = it.title || it.text || "";
    }
    if ((c.getAttribute("style") || "") !== (it.style || "")) {
      it.style ? c.setAttribute("style", it.style) : c.removeAttribute("style");
    }
  });
  while (box.children.length > items.length) {
    box.lastElementChild.remove();
  }
  return box;
}

/** syncChildren makes parent's children exactly list, in order, moving
 * only what is out of place (so that transitions keep running). */
export function syncChildren(parent, list) {
  let i = 0;
  for (const want of list) {
    const at = parent.children[i];
    if (at !== want) {
      parent.insertBefore(want, at || null);
    }
    i++;
  }
  while (parent.children.length > list.length) {
    parent.lastElementChild.remove();
  }
}

/** setAttr sets (or, for null, removes) an attribute only when it
 * differs, so that an element drawn again unchanged is not restyled. */
export function setAttr(el, name, value) {
  if (value === null || value === undefined || value === false) {
    if (el.hasAttribute(name)) {
      el.removeAttribute(name);
    }
    return;
  }
  const v = value === true ? "" : String(value);
  if (el.getAttribute(name) !== v) {
    el.setAttribute(name, v);
  }
}

/** setClass sets an element's class attribute only when it differs. */
export function setClass(el, cls) {
  if (el.className !== cls) {
    el.className = cls;
  }
}

/** setStyle sets one style property only when it differs from what
 * setStyle set last (the browser may read a value back written another
 * way). */
export function setStyle(el, prop, value) {
  const was = styled.get(el) || styled.set(el, {}).get(el);
  if (was[prop] !== value) {
    was[prop] = value;
    el.style.setProperty(prop, value);
  }
}

const styled = new WeakMap();

/** Keyed keeps one thing (an element, or a record of the elements of a
 * row) for each key from one render to the next: get makes it the first
 * time a key is asked for, and prune forgets the keys not asked for since
 * the last prune, so that a drawing changes in place instead of being
 * made again. */
export class Keyed {
  constructor() {
    this.items = new Map();
    this.used = new Set();
  }

  /** get is the thing kept for key, made by make() if there is none. */
  get(key, make) {
    let it = this.items.get(key);
    if (it === undefined) {
      it = make();
      this.items.set(key, it);
    }
    this.used.add(key);
    return it;
  }

  /** prune forgets every key not asked for since the last prune. */
  prune() {
    for (const k of this.items.keys()) {
      if (!this.used.has(k)) {
        this.items.delete(k);
      }
    }
    this.used.clear();
  }
}
