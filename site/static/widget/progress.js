// progress.js: what a reader has done, kept in the browser's localStorage:
// an exercise counts as done once every one of its goals was met, a
// question once the reader has answered it (guided.js). A page
// with the lesson list shows each lesson's exercises done, and offers to
// export the progress as a file and to import one (an instructor collects
// a room's files, a reader moves to another browser).

import { h, setText } from "./dom.js";
import { errorText, langOf, translator } from "./i18n.js";

const KEY = "warren-progress";
const FORMAT = "warren-progress/1";

/** load reads the progress: {format, done: {"/lessons/slug/#title": iso}}. */
export function load() {
  try {
    const p = JSON.parse(localStorage.getItem(KEY) || "null");
    if (p && p.format === FORMAT && p.done && typeof p.done === "object") {
      return p;
    }
  } catch {
    // unreadable: start again
  }
  return { format: FORMAT, done: {} };
}

function save(p) {
  try {
    localStorage.setItem(KEY, JSON.stringify(p));
  } catch {
    // storage is off or full: the progress lives only as long as the page
  }
}

/** exerciseKey names an exercise: its lesson's path and its title. */
export function exerciseKey(path, title) {
  return `${path}#${title}`;
}

/** markDone records an exercise whose goals are all met. */
export function markDone(path, title) {
  const p = load();
  const k = exerciseKey(path, title);
  if (!p.done[k]) {
    p.done[k] = new Date().toISOString();
    save(p);
  }
}

/** parseProgress checks a progress file; it throws with what is wrong. */
export function parseProgress(text) {
  let p;
  try {
    p = JSON.parse(text);
  } catch (e) {
    throw new Error(`not JSON (${e.message})`);
  }
  if (!p || p.format !== FORMAT) {
    throw new Error(`not a warren progress file (want "format": "${FORMAT}")`);
  }
  if (!p.done || typeof p.done !== "object" || Array.isArray(p.done)) {
    throw new Error(`"done" must be an object of exercise: time`);
  }
  for (const [k, v] of Object.entries(p.done)) {
    if (typeof v !== "string" || !k.startsWith("/lessons/")) {
      throw new Error(`the entry ${JSON.stringify(k)} is not an exercise of a lesson`);
    }
  }
  return p;
}

/** merge adds a progress file's exercises to what is kept here. */
export function merge(text) {
  const p = load();
  const add = parseProgress(text);
  let n = 0;
  for (const [k, v] of Object.entries(add.done)) {
    if (!p.done[k]) {
      p.done[k] = v;
      n++;
    }
  }
  save(p);
  return n;
}

/** showLessonProgress marks, in every lesson list of the page, what is
 * done, and adds the export and import controls after the last list. */
export function showLessonProgress(doc) {
  const lists = doc.querySelectorAll("ol.lesson-list");
  if (!lists.length) {
    return;
  }
  const tr = translator(langOf(doc.documentElement));
  const render = () => {
    const done = Object.keys(load().done);
    for (const li of doc.querySelectorAll("ol.lesson-list > li[data-href]")) {
      const questions = Number(li.dataset.questions || 0);
      const total = Number(li.dataset.exercises || 0) + questions;
      const n = done.filter((k) => k.startsWith(`${li.dataset.href}#`)).length;
      let badge = li.querySelector(".progress");
      if (!badge) {
        badge = h("p.progress", { "data-role": "progress" });
        li.append(badge);
      }
      badge.hidden = total === 0;
      const kind = questions ? "progress.withQuestions" : "progress";
      setText(badge, total === 0 ? "" : n >= total ? tr(`${kind}.allDone`, { n: total }) : tr(`${kind}.done`, { done: n, n: total }));
      li.classList.toggle("done", total > 0 && n >= total);
    }
  };
  render();
  const status = h("p.progress-status", { role: "status" });
  const file = h("input", { type: "file", accept: "application/json,.json", hidden: true, "data-role": "import-file" });
  file.addEventListener("change", async () => {
    const f = file.files && file.files[0];
    if (!f) {
      return;
    }
    try {
      const n = merge(await f.text());
      setText(status, tr("progress.imported", { file: f.name, n }));
      render();
    } catch (e) {
      setText(status, tr("progress.notImported", { file: f.name, error: errorText(e.message, tr.lang) }));
    }
    file.value = "";
  });
  const exportBtn = h("button.button", { type: "button", "data-role": "export", onclick: () => {
    saved.href = `data:application/json;charset=utf-8,${encodeURIComponent(JSON.stringify(load(), null, 2))}`;
    saved.hidden = false;
    saved.click();
    setText(status, tr("progress.saved", { file: "warren-progress.json" }));
  } }, tr("progress.export"));
  const saved = h("a.progress-file", { download: "warren-progress.json", hidden: true, "data-role": "export-file", text: "warren-progress.json" });
  const importBtn = h("button.button", { type: "button", "data-role": "import", onclick: () => file.click() }, tr("progress.import"));
  const tools = h("div.progress-tools", { "data-role": "progress-tools" },
    h("p", { text: tr("progress.help") }),
    exportBtn, " ", importBtn, " ", saved, file, status);
  lists[lists.length - 1].after(tools);
}
