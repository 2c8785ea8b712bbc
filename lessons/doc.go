// Package lessons is warren's course: one Markdown file per lesson, with a
// front matter block (title, summary, order, version) and fenced scenario
// blocks in the command language, embedded in the binary with embed.FS.
//
// A scenario block is a fenced code block whose info string starts with
// `warren`. Its lines are commands, blank lines and `#` comments; a comment
// that starts with `#>` is expected output: the test runs every block on
// the engine and checks that the command before it printed that exact
// line. The info string may carry attributes, `title="..."` for the widget
// and the bare word `error-ok` for a block that shows a refused command on
// purpose.
package lessons
