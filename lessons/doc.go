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
//
// Lines that start with `#@` are directives for the widget (moment.go,
// question.go): `#@mark NAME` names the moment where it stands, `#@when
// NAME GOAL` the first event from there at which an expect goal holds,
// `#@caption TEXT` narrates from where it stands (or from the when right
// before it) until the next caption, and `#@holds GOAL` right after a
// caption claims a figure the caption quotes: GOAL holds at every event
// the caption is on the screen, or, written `#@holds at=landing GOAL`,
// at the event where it lands, for words that say what has just
// happened. The tests check every claim along its caption's stretch.
// `#@question` and the lines after it ask the reader to predict a moment.
package lessons
