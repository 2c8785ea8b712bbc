// Tests of widget/policy.js under node:test: a violation of the host's
// Content-Security-Policy becomes the directive and the source to add.

import { test } from "node:test";
import assert from "node:assert/strict";

import { advice, adviceFor, TRUSTED_TYPES } from "../static/widget/policy.js";

const site = "https://warren.example.org";

test("each directive the widget needs is named with what to add", () => {
  assert.equal(advice({ directive: "worker-src", blocked: "blob" }, site), "add blob: to worker-src");
  assert.equal(advice({ directive: "connect-src", blocked: `${site}/warren.wasm` }, site), `add ${site} to connect-src`);
  assert.equal(advice({ directive: "script-src", blocked: "wasm-eval" }, site), "add 'wasm-unsafe-eval' to script-src (warren.wasm is compiled)");
  assert.equal(advice({ directive: "script-src-elem", blocked: `${site}/widget/element.js` }, site), `add ${site} to script-src-elem`);
  assert.match(advice({ directive: "trusted-types", blocked: "trusted-types-policy" }, site), new RegExp(`add ${TRUSTED_TYPES} to trusted-types`));
});

test("violations of the page's own are not the widget's", () => {
  assert.equal(advice({ directive: "img-src", blocked: "https://ads.example.com/x.png" }, site), "");
  assert.equal(adviceFor([{ directive: "img-src", blocked: "https://ads.example.com/x.png" }], site), "");
});

test("adviceFor says each once", () => {
  const vs = [
    { directive: "worker-src", blocked: "blob" },
    { directive: "worker-src", blocked: "blob" },
    { directive: "connect-src", blocked: `${site}/warren.wasm` },
  ];
  assert.equal(adviceFor(vs, site), `the page's Content-Security-Policy blocked it: add blob: to worker-src; add ${site} to connect-src`);
});
