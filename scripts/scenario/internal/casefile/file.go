package casefile

import (
	"fmt"
	"strings"
)

// Separator is the line between a case's commands and its expected output.
const Separator = "----"

// Line is one command line of a case.
type Line struct {
	Num  int // 1-based line number in the file
	Text string
}

// Case is one test case: one or more command lines, then the output they
// are expected to print.
type Case struct {
	Line     int // line number of the first command, for messages
	Commands []Line
	Expected []string // nil when the case has no `----` section yet
}

// File is a parsed scenario file. It keeps every line so that Rewrite can
// reproduce everything but the expected outputs exactly.
type File struct {
	Name  string
	Cases []Case
	lines []string
	spans []span // per case, the lines Rewrite replaces
}

// span is a half-open range of line indexes.
type span struct{ start, end int }

// Parse reads a scenario file. name is used in error messages and results.
func Parse(name, src string) (*File, error) {
	f := &File{Name: name, lines: splitLines(src)}
	lines := f.lines
	for i := 0; i < len(lines); {
		t := strings.TrimSpace(lines[i])
		if t == "" || strings.HasPrefix(t, "#") {
			i++
			continue
		}
		if lines[i] == Separator {
			return nil, fmt.Errorf("%s:%d: %s with no command before it", name, i+1, Separator)
		}
		c := Case{Line: i + 1}
		for ; i < len(lines) && lines[i] != Separator; i++ {
			t := strings.TrimSpace(lines[i])
			if t == "" || strings.HasPrefix(t, "#") {
				continue
			}
			c.Commands = append(c.Commands, Line{Num: i + 1, Text: lines[i]})
		}
		if i == len(lines) {
			f.Cases = append(f.Cases, c)
			f.spans = append(f.spans, span{i, i})
			break
		}
		start := i
		i++ // the separator
		var err error
		c.Expected, i, err = readExpected(name, lines, i)
		if err != nil {
			return nil, err
		}
		f.Cases = append(f.Cases, c)
		f.spans = append(f.spans, span{start, i})
	}
	return f, nil
}

// readExpected reads the output that starts at line index i, just after
// the separator, and returns it with the index of the first line after it
// (the blank line that ends an output belongs to the output).
func readExpected(name string, lines []string, i int) ([]string, int, error) {
	out := []string{}
	if i < len(lines) && lines[i] == Separator {
		// The double-separator form: the output may hold blank lines and
		// ends at two separator lines in a row.
		open := i + 1
		for i++; ; i++ {
			if i >= len(lines) {
				return nil, 0, fmt.Errorf("%s:%d: output opened with a double %s is never closed", name, open-1, Separator)
			}
			if lines[i] == Separator && i+1 < len(lines) && lines[i+1] == Separator {
				i += 2
				break
			}
			out = append(out, lines[i])
		}
		if i < len(lines) {
			if strings.TrimSpace(lines[i]) != "" {
				return nil, 0, fmt.Errorf("%s:%d: a blank line must follow the closing %s %s", name, i+1, Separator, Separator)
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

// splitLines splits src into lines without their newline; a final newline
// does not start an extra empty line.
func splitLines(src string) []string {
	src = strings.ReplaceAll(src, "\r\n", "\n")
	if src == "" {
		return nil
	}
	return strings.Split(strings.TrimSuffix(src, "\n"), "\n")
}
