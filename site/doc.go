// Package site builds warren's static site: the home page, one page per
// lesson (Markdown rendered with goldmark, scenario blocks turned into
// <warren-scenario> widgets), the playground, the embed page and its
// documentation, all rendered with templ components; it copies the static
// assets, compiles the engine's bridge to warren.wasm and writes gzip
// copies next to each text asset. Handler serves the result for local use.
package site
