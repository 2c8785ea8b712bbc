package scenario

import (
	"slices"
	"strings"
	"testing"

	"warren/engine/script"
)

// echo is a target that prints each command's name, and remembers what it
// was opened with.
type echo struct {
	opened []script.Command
	closed bool
}

func (e *echo) Exec(cmd script.Command) []string { return []string{"ran " + cmd.Name} }
func (e *echo) Close() error                     { e.closed = true; return nil }

func TestRunFile(t *testing.T) {
	src := `queue.declare queue=q
basic.get queue=q
----
ran queue.declare
ran basic.get

basic.bogus queue=q
----
something else
`
	f, err := Parse("f.txt", src)
	if err != nil {
		t.Fatal(err)
	}
	e := &echo{}
	results, err := RunFile(f, func(file string, cmds []script.Command) (Target, error) {
		e.opened = cmds
		return e, nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if len(e.opened) != 2 || !e.closed {
		t.Errorf("target opened with %d commands (want the 2 that parse), closed=%v", len(e.opened), e.closed)
	}
	if !results[0].Pass {
		t.Errorf("case 1 failed: %q", results[0].Actual)
	}
	if results[1].Pass || len(results[1].Actual) != 1 || !strings.HasPrefix(results[1].Actual[0], "error: line 7, column 1: ") {
		t.Errorf("case 2 = %+v, want a parse error on line 7", results[1])
	}
	if got := Outputs(results); !slices.Equal(got[0], []string{"ran queue.declare", "ran basic.get"}) {
		t.Errorf("Outputs = %q", got)
	}
}

// name is a target without Close that prints each command's name.
type name struct{}

func (name) Exec(cmd script.Command) []string { return []string{cmd.Name} }

// TestRunComparesEachCase: a case passes when it prints what it records,
// and only then; a case with no recorded output never passes; Diff shows
// the difference.
func TestRunComparesEachCase(t *testing.T) {
	f, err := Parse("f.txt", "wait ms=1\n----\nwait\n\nwait ms=2\nconfirm.select\n----\nwait\n\nwait ms=3\n")
	if err != nil {
		t.Fatal(err)
	}
	results := f.Run(name{})
	if len(results) != 3 || !results[0].Pass || results[1].Pass || results[2].Pass {
		t.Fatalf("results = %+v, want the first to pass", results)
	}
	if got, want := results[1].Diff(), "--- expected\n+++ actual\n@@ -1 +1,2 @@\n wait\n+confirm.select\n"; got != want {
		t.Errorf("Diff() = %q, want %q", got, want)
	}
	if results[0].Diff() != "" {
		t.Errorf("a passing case has a diff: %q", results[0].Diff())
	}
	if got := Exec(name{}, Step{Line: 4, Command: "wait ms="}); len(got) != 1 || !strings.HasPrefix(got[0], "error: line 4, column ") {
		t.Errorf("a refused line prints %q, want its error at line 4", got)
	}
	if _, err := RunFile(f, func(string, []script.Command) (Target, error) { return name{}, nil }); err != nil {
		t.Errorf("RunFile on a target without Close: %v", err)
	}
}
