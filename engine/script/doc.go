// Package script parses warren's command language: one command a line,
// `key=value` arguments and bare flags, checked against each command's
// signature so that both targets (the engine and a real broker) see only
// well-formed commands and a mistake is reported with its line and column.
package script
