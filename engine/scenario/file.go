package scenario

import (
	"fmt"
	"strings"
)

// Separator is the line between a case's commands and its expected output.
const Separator = "----"

// QuotePrefix starts a comment line that quotes a line of output: the
// command before it prints that line (among others). The lessons' blocks
// quote what they teach this way.
const QuotePrefix = "#>"

// Step is one command line of a case, with the output lines quoted after
// it.
type Step struct {
	// Line is the 1-based line the command is on.
	Line int
	// Command is the line as written.
	Command string
	// Expect lists the QuotePrefix lines that follow the command, without
	// the prefix and one space after it.
	Expect []string
}

// Case is one test case: one or more command lines, then the output they
// are expected to print.
type Case struct {
	// Line is the line of the first command, for messages.
	Line  int
	Steps []Step
	// Expected is the recorded output, nil when the case has no
	// Separator (yet): a lesson's block, or a case to record.
	Expected []string
}

// File is a parsed scenario file. It keeps every line so that Rewrite and
// Script reproduce everything but the expected outputs exactly.
type File struct {
	Name  string
	Cases []Case
	first int // the line number of lines[0]
	lines []string
	spans []span // per case, the lines Rewrite replaces
}

// span is a half-open range of line indexes.
type span struct{ start, end int }

// Parse reads a scenario file. name is used in error messages.
func Parse(name, src string) (*File, error) { return ParseAt(name, 1, src) }

// ParseAt reads scenario lines that start at line first of a larger file
// (a lesson's block starts after its fence), so that lines are numbered as
// in that file. Errors say `name:N: ...`, or `line N: ...` without a name.
func ParseAt(name string, first int, src string) (*File, error) {
	f := &File{Name: name, first: first, lines: splitLines(src)}
	lines := f.lines
	for i := 0; i < len(lines); {
		t := strings.TrimSpace(lines[i])
		if strings.HasPrefix(t, QuotePrefix) {
			return nil, f.errorf(i, "%s quotes output before any command", QuotePrefix)
		}
		if t == "" || strings.HasPrefix(t, "#") {
			i++
			continue
		}
		if lines[i] == Separator {
			return nil, f.errorf(i, "%s with no command before it", Separator)
		}
		c := Case{Line: f.num(i)}
		for ; i < len(lines) && lines[i] != Separator; i++ {
			t := strings.TrimSpace(lines[i])
			switch {
			case strings.HasPrefix(t, QuotePrefix):
				if len(c.Steps) == 0 {
					return nil, f.errorf(i, "%s quotes output before any command", QuotePrefix)
				}
				last := &c.Steps[len(c.Steps)-1]
				last.Expect = append(last.Expect, strings.TrimPrefix(strings.TrimPrefix(t, QuotePrefix), " "))
			case t == "" || strings.HasPrefix(t, "#"):
			default:
				c.Steps = append(c.Steps, Step{Line: f.num(i), Command: lines[i]})
			}
		}
		if i == len(lines) {
			f.Cases = append(f.Cases, c)
			f.spans = append(f.spans, span{i, i})
			break
		}
		start := i
		i++ // the separator
		var err error
		c.Expected, i, err = f.readExpected(i)
		if err != nil {
			return nil, err
		}
		f.Cases = append(f.Cases, c)
		f.spans = append(f.spans, span{start, i})
	}
	return f, nil
}

// num is the line number of the line at index i.
func (f *File) num(i int) int { return f.first + i }

// errorf is an error at the line at index i.
func (f *File) errorf(i int, format string, args ...any) error {
	where := fmt.Sprintf("line %d", f.num(i))
	if f.Name != "" {
		where = fmt.Sprintf("%s:%d", f.Name, f.num(i))
	}
	return fmt.Errorf("%s: %s", where, fmt.Sprintf(format, args...))
}

// readExpected reads the output that starts at line index i, just after
// the separator, and returns it with the index of the first line after it
// (the blank line that ends an output belongs to the output).
func (f *File) readExpected(i int) ([]string, int, error) {
	lines := f.lines
	out := []string{}
	if i < len(lines) && lines[i] == Separator {
		// The double-separator form: the output may hold blank lines and
		// ends at two separator lines in a row.
		open := i - 1
		for i++; ; i++ {
			if i >= len(lines) {
				return nil, 0, f.errorf(open, "output opened with a double %s is never closed", Separator)
			}
			if lines[i] == Separator && i+1 < len(lines) && lines[i+1] == Separator {
				i += 2
				break
			}
			out = append(out, lines[i])
		}
		if i < len(lines) {
			if strings.TrimSpace(lines[i]) != "" {
				return nil, 0, f.errorf(i, "a blank line must follow the closing %s %s", Separator, Separator)
			}
			i++
		}
		return out, i, nil
	}
	for ; i < len(lines); i++ {
		if strings.TrimSpace(lines[i]) == "" {
			i++
			break
		}
		out = append(out, lines[i])
	}
	return out, i, nil
}

// Steps returns every command of the file, in order.
func (f *File) Steps() []Step {
	var out []Step
	for _, c := range f.Cases {
		out = append(out, c.Steps...)
	}
	return out
}

// Script returns the file without its recorded output: its comments and
// commands as a scenario to run (what the playground opens). The blank
// line that ended an output stays.
func (f *File) Script() string {
	var b strings.Builder
	prev := 0
	write := func(lines []string) {
		for _, l := range lines {
			b.WriteString(l)
			b.WriteByte('\n')
		}
	}
	for _, sp := range f.spans {
		write(f.lines[prev:sp.start])
		if sp.end > sp.start+1 && strings.TrimSpace(f.lines[sp.end-1]) == "" {
			b.WriteByte('\n')
		}
		prev = sp.end
	}
	write(f.lines[prev:])
	return strings.TrimRight(b.String(), "\n") + "\n"
}

// splitLines splits src into lines without their newline; a final newline
// does not start an extra empty line.
func splitLines(src string) []string {
	src = strings.ReplaceAll(src, "\r\n", "\n")
	if src == "" {
		return nil
	}
	return strings.Split(strings.TrimSuffix(src, "\n"), "\n")
}
