package engine

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// bigNumber finds numbers large enough to make one fuzz input slow (count=,
// ms=, size=, events=).
var bigNumber = regexp.MustCompile(`[0-9]{5,}|=[2-9][0-9]{3}\b`)

// FuzzExecLines runs scripts of console lines and checks what any input
// must keep: nothing panics, and a line that is refused (one `error:`
// line) leaves the simulation exactly as it was. The seeds are the
// conformance corpus's scenarios.
func FuzzExecLines(f *testing.F) {
	files, _ := filepath.Glob(filepath.Join("testdata", "conformance", "*.txt"))
	for _, name := range files {
		data, err := os.ReadFile(name)
		if err != nil {
			f.Fatal(err)
		}
		var cmds []string
		for _, l := range strings.Split(string(data), "\n") {
			if l != "" && !strings.HasPrefix(l, "#") && !strings.HasPrefix(l, "c") && l != "----" {
				cmds = append(cmds, l)
			}
		}
		f.Add(strings.Join(cmds, "\n"))
	}
	f.Add("set schedulers=2\nsubmit basic.publish key=q body=x count=3\nstep n=2\nset schedulers=4\nset_policy name=p pattern=( max-length=1")
	f.Fuzz(func(t *testing.T, text string) {
		s := New(Options{Record: true})
		lines := strings.Split(text, "\n")
		if len(lines) > 40 {
			lines = lines[:40]
		}
		for i, line := range lines {
			if bigNumber.MatchString(line) {
				continue
			}
			before := snapJSON(t, s)
			trace := len(s.Transcript())
			out := s.ExecLine(line)
			if len(out) == 1 && strings.HasPrefix(out[0], "error: ") {
				if after := snapJSON(t, s); after != before {
					t.Fatalf("line %d %q was refused (%s) but changed the simulation:\nbefore %s\nafter  %s", i+1, line, out[0], before, after)
				}
				if len(s.Transcript()) != trace {
					t.Fatalf("line %d %q was refused (%s) but added to the trace", i+1, line, out[0])
				}
			}
		}
	})
}
