package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"warren/engine/scenario"
	"warren/engine/script"
)

// upper is a target that prints each command's text in capitals.
type upper struct{}

func (upper) Exec(cmd script.Command) []string { return []string{strings.ToUpper(cmd.Text)} }

func openUpper(string, []script.Command) (scenario.Target, error) { return upper{}, nil }

func TestRunReportsAndRewrites(t *testing.T) {
	dir := t.TempDir()
	name := filepath.Join(dir, "f.txt")
	src := "# comment\nwait ms=1\n----\nWAIT MS=1\n\nwait ms=2\n----\nwrong\n"
	if err := os.WriteFile(name, []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	var out bytes.Buffer
	if run(&out, []string{name}, openUpper, false) {
		t.Error("run reported success with a mismatching case")
	}
	want := name + ":6: wait ms=2\n" +
		"  --- expected\n  +++ actual\n  @@ -1 +1 @@\n  -wrong\n  +WAIT MS=2\n" +
		"1 passed, 1 failed\n"
	if out.String() != want {
		t.Errorf("output:\n%s\nwant:\n%s", out.String(), want)
	}

	out.Reset()
	if !run(&out, []string{name}, openUpper, true) {
		t.Errorf("rewrite failed:\n%s", out.String())
	}
	got, _ := os.ReadFile(name)
	if want := "# comment\nwait ms=1\n----\nWAIT MS=1\n\nwait ms=2\n----\nWAIT MS=2\n"; string(got) != want {
		t.Errorf("rewritten file:\n%s\nwant:\n%s", got, want)
	}
	out.Reset()
	if !run(&out, []string{name}, openUpper, false) || out.String() != "2 passed, 0 failed\n" {
		t.Errorf("after rewrite: %q", out.String())
	}
}

func TestExpandDirectories(t *testing.T) {
	dir := t.TempDir()
	for _, n := range []string{"b.txt", "a.txt", "notes.md"} {
		if err := os.WriteFile(filepath.Join(dir, n), nil, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	files, err := expand([]string{dir})
	if err != nil {
		t.Fatal(err)
	}
	if len(files) != 2 || filepath.Base(files[0]) != "a.txt" || filepath.Base(files[1]) != "b.txt" {
		t.Errorf("expand = %q", files)
	}
}
