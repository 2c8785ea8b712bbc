package scenario

import (
	"fmt"
	"strings"
)

// Rewrite returns the file with each case's expected output replaced by
// actual[i], everything else kept as it was. An output holding a blank line
// is written in the double-separator form. The layout is the one
// cockroachdb/datadriven's -rewrite produces, so either tool can rewrite a
// file the other wrote without a diff.
func (f *File) Rewrite(actual [][]string) ([]byte, error) {
	if len(actual) != len(f.Cases) {
		return nil, fmt.Errorf("%s: rewrite: %d outputs for %d cases", f.Name, len(actual), len(f.Cases))
	}
	var b strings.Builder
	prev := 0
	for i, sp := range f.spans {
		for _, l := range f.lines[prev:sp.start] {
			b.WriteString(l)
			b.WriteByte('\n')
		}
		writeOutput(&b, actual[i])
		prev = sp.end
	}
	for _, l := range f.lines[prev:] {
		b.WriteString(l)
		b.WriteByte('\n')
	}
	out := b.String()
	if strings.HasSuffix(out, "\n\n") {
		out = out[:len(out)-1]
	}
	return []byte(out), nil
}

func writeOutput(b *strings.Builder, out []string) {
	b.WriteString(Separator + "\n")
	double := false
	for _, l := range out {
		if strings.TrimSpace(l) == "" {
			double = true
		}
	}
	if double {
		b.WriteString(Separator + "\n")
	}
	for _, l := range out {
		b.WriteString(l)
		b.WriteByte('\n')
	}
	if double {
		b.WriteString(Separator + "\n" + Separator + "\n")
	}
	b.WriteByte('\n')
}
