// Tests of widget/theme.js's decision under node:test: the element's own
// theme first, then what the host page says, then the system.

import { test } from "node:test";
import assert from "node:assert/strict";

import { scheme } from "../static/widget/theme.js";

const none = { dark: false, dataTheme: undefined, colorScheme: "normal" };

test("theme=light and theme=dark win over the page and the system", () => {
  assert.equal(scheme("light", [{ ...none, dark: true }], true), "light");
  assert.equal(scheme("dark", [none, none], false), "dark");
});

test("auto follows the host page: html.dark, data-theme, a color-scheme alone", () => {
  assert.equal(scheme("auto", [{ ...none, dark: true }, none], false), "dark");
  assert.equal(scheme(null, [{ ...none, dataTheme: "dark" }, none], false), "dark");
  assert.equal(scheme(null, [{ ...none, dataTheme: "light" }, none], true), "light");
  assert.equal(scheme(null, [none, { ...none, dark: true }], false), "dark");
  assert.equal(scheme(null, [{ ...none, colorScheme: "dark" }, none], false), "dark");
  assert.equal(scheme(null, [{ ...none, colorScheme: "only light" }, none], true), "light");
});

test("auto falls back to the system when the page says nothing or both", () => {
  assert.equal(scheme(null, [none, none], true), "dark");
  assert.equal(scheme("auto", [{ ...none, colorScheme: "light dark" }, none], false), "light");
  assert.equal(scheme("auto", [{ ...none, colorScheme: "light dark" }, none], true), "dark");
  assert.equal(scheme("bogus", [{ ...none, dataTheme: "sepia" }], true), "dark");
});
