// Tests of widget/arrival.js under node:test: a script that a page's
// Markdown processor changed is refused with what it could not read, and
// one that arrived as written is not.

import { test } from "node:test";
import assert from "node:assert/strict";

import { arrivalProblem } from "../static/widget/arrival.js";
import { t } from "../static/widget/i18n.js";

const text = (s) => ({ tag: "#text", text: s });

test("a script as written arrives: comments, blank lines, braces and quotes", () => {
  const script = '# three jobs, one worker\nqueue.declare queue=jobs\n\n# {i} counts from 1\nbasic.publish key=jobs body="job {i}" count=3\n';
  assert.equal(arrivalProblem([text(script)], script), null);
  assert.equal(arrivalProblem([text("\n"), { tag: "pre", text: script }, text("\n")], script), null);
  assert.equal(arrivalProblem([{ tag: "script", text: script }], script), null);
  assert.equal(arrivalProblem([text("queue.declare queue=q")], "queue.declare queue=q"), null);
  assert.equal(arrivalProblem([], '# a comment about body=“this”\nqueue.declare queue=q'), null);
});

test("paragraphs and headings a processor made are named, not run", () => {
  const children = [text("queue.declare queue=jobs\n"), { tag: "h1", text: "the worker" }, { tag: "p", text: "After   the\njobs come the workers, who take one each" }];
  const e = arrivalProblem(children, children.map((c) => c.text).join(""));
  assert.equal(e.key, "arrival.elements");
  assert.match(e.message, /holds <h1> "the worker", <p> "After the jobs come the workers, who ta…"/);
  assert.match(e.message, /<script type="text\/warren">/);
  const many = arrivalProblem([1, 2, 3, 4, 5].map((i) => ({ tag: "p", text: `p${i}` })), "");
  assert.equal(many.params.elements, '<p> "p1", <p> "p2", <p> "p3", +2');
});

test("lines joined into one are refused, whether or not they start with a comment", () => {
  const comment = arrivalProblem([], '# three jobs, one worker queue.declare queue=jobs basic.publish key=jobs body="job {i}" count=3');
  assert.equal(comment.key, "arrival.joinedComment");
  assert.equal(comment.params.commands, 2);
  assert.match(comment.message, /all of it would be one comment/);
  const joined = arrivalProblem([], "queue.declare queue=jobs basic.publish key=jobs count=3");
  assert.equal(joined.key, "arrival.joined");
});

test("typographic quotes are named with their line", () => {
  const e = arrivalProblem([], "queue.declare queue=jobs\n\nbasic.publish key=jobs body=“job {i}” count=3");
  assert.equal(e.key, "arrival.quotes");
  assert.deepEqual(e.params, { line: 3, value: "body=“job {i}”" });
  assert.equal(e.message, t("arrival.quotes", e.params, "en"));
});
