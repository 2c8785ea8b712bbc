// Package scenario reads, runs and rewrites scenario files: the command
// language laid out the cockroachdb/datadriven way (command lines, a `----`
// line, the output they print, a blank line between cases; `#` comments),
// and the scenario blocks of the lessons, which are the same lines without
// `----` and quote the output they teach in `#>` comments.
//
// One parser reads them all (Parse, ParseAt), with each command's line
// number for its errors. A File runs on a Target (the engine's Sim or a
// real broker), each case's output compared with what the file records
// (Run, RunFile), and Rewrite writes the actual output back in place,
// everything else byte for byte. The engine's corpus tests, the lessons'
// and tutorials' tests and scripts/scenario all use it.
//
// NB: the browser's build does not link it (nothing under wasm/ imports
// it); it imports the command language (engine/script) and not the engine,
// so that the engine's own tests can use it.
package scenario
