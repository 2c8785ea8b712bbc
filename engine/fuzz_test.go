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
		f.Add(strings.Join(scenarioCommands(string(data)), "\n"))
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

// scenarioCommands returns the command lines of a datadriven scenario
// file: each block's lines before its ----, without comments; the
// expected output after the ---- runs to the blank line that ends the
// block.
func scenarioCommands(file string) []string {
	var cmds []string
	output := false
	for _, l := range strings.Split(file, "\n") {
		switch {
		case l == "----":
			output = true
		case strings.TrimSpace(l) == "":
			output = false
		case output || strings.HasPrefix(l, "#"):
		default:
			cmds = append(cmds, l)
		}
	}
	return cmds
}

// TestSeedsKeepEveryCommand: the fuzz seeds are the scenarios' commands,
// confirm.select and connection.close among them, and none of their
// expected output.
func TestSeedsKeepEveryCommand(t *testing.T) {
	got := scenarioCommands("# a comment\nconfirm.select\nbasic.publish key=q\n----\nc1.1 confirm-ack seq=1\n\nconnection.close on=c1\n----\nc1 closed\n")
	want := []string{"confirm.select", "basic.publish key=q", "connection.close on=c1"}
	if strings.Join(got, "|") != strings.Join(want, "|") {
		t.Fatalf("commands %q, want %q", got, want)
	}
	files, _ := filepath.Glob(filepath.Join("testdata", "conformance", "*.txt"))
	confirms := 0
	for _, name := range files {
		data, err := os.ReadFile(name)
		if err != nil {
			t.Fatal(err)
		}
		for _, l := range scenarioCommands(string(data)) {
			if strings.HasPrefix(l, "confirm.select") {
				confirms++
			}
			if strings.HasPrefix(l, "c1.") || strings.HasPrefix(l, "goal ") {
				t.Fatalf("%s: an output line among the seeds: %q", name, l)
			}
		}
	}
	if confirms == 0 {
		t.Fatal("no confirm.select among the seeds")
	}
}
