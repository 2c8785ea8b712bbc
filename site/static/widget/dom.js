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

/** setText changes an element's text only when it differs. */
export function setText(el, text) {
  if (el.textContent !== text) {
    el.textContent = text;
  }
}

/** syncChips makes the chips of a container match items ({cls, text,
 * title, style}), reusing the chips already there so that only new ones
 * play their entrance. */
export function syncChips(box, items, cls) {
  if (cls) {
    box.className = cls;
  }
  items.forEach((it, i) => {
    let c = box.children[i];
    if (!c) {
      c = box.appendChild(document.createElement("span"));
    }
    if (c.className !== it.cls) {
      c.className = it.cls;
    }
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
