// arrival.js: whether a widget's script arrived as it was written. A
// page's Markdown processor may have turned it into HTML before the widget
// reads it: CommonMark ends an HTML block such as <warren-scenario> at a
// blank line and makes the lines after it paragraphs and headings (a "#
// comment" becomes an <h1>), Vue condenses whitespace and joins the lines
// into one, and a typographer makes quotes curly. Such a script is not run:
// prose would run as commands, and a joined script whose first line is a
// comment would run as one comment and show nothing. DOM-free: source.js
// hands it the element's children as {tag, text}.

import { t } from "./i18n.js";

/** A command as the command language writes one: a dotted method and an
 * argument (queue.declare queue=q). */
const COMMAND = /(?:^|\s)[a-z]+\.[a-z_]+\s+[a-z][\w.-]*=/g;

/** arrivalProblem says what of a widget's script a processor changed:
 * null when it arrived as written, else an Error with a message key and
 * its parameters, in English. children are the element's children
 * ({tag: "#text" or a lower-case tag name, text}); source is the script
 * the widget would run. */
export function arrivalProblem(children, source) {
  const made = children.filter((c) => c.tag !== "#text" && c.tag !== "#comment" && c.tag !== "pre" && c.tag !== "script");
  if (made.length) {
    const shown = made.slice(0, 3).map((c) => `<${c.tag}> "${clip(c.text)}"`);
    if (made.length > 3) {
      shown.push(`+${made.length - 3}`);
    }
    const elements = shown.join(", ");
    return problem("arrival.elements", { elements });
  }
  const text = source.trim();
  if (!text.includes("\n")) {
    const commands = (text.match(COMMAND) || []).length;
    if (text.startsWith("#") && commands >= 1) {
      return problem("arrival.joinedComment", { commands });
    }
    if (commands >= 2) {
      return problem("arrival.joined", { commands });
    }
  }
  const lines = source.split("\n");
  for (let i = 0; i < lines.length; i++) {
    const m = /[a-z][\w.-]*=[“”„‘’«»][^“”„‘’«»]*[“”„‘’«»]?/.exec(lines[i]);
    if (m && !lines[i].trimStart().startsWith("#")) {
      const value = clip(m[0]);
      return problem("arrival.quotes", { line: i + 1, value });
    }
  }
  return null;
}

/** problem is the Error of message key with params; its message is the
 * English text (the catalogs say what each key tells the writer to use
 * instead). */
function problem(key, params) {
  return Object.assign(new Error(t(key, params, "en")), { key, params, arrival: true });
}

/** clip shortens an element's text for the message, on one line. */
function clip(s) {
  const one = s.replace(/\s+/g, " ").trim();
  return one.length > 40 ? `${one.slice(0, 39)}…` : one;
}
