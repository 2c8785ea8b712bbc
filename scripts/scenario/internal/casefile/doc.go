// Package casefile reads and rewrites scenario test files laid out the
// cockroachdb/datadriven way: command lines, a `----` line, the expected
// output, a blank line between cases, `#` comments and blank lines between
// cases. Rewriting replaces only the expected output, so comments and
// commands stay byte for byte as they were.
package casefile
