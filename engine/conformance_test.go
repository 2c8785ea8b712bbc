package engine

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/cockroachdb/datadriven"

	"warren/engine/script"
)

// TestConformance runs the conformance corpus (recorded from a real
// RabbitMQ 3.10.8 broker) on the engine, through the datadriven library, so
// that the files stay in its format. Rewrite with -rewrite only from the
// broker (go run ./scripts/scenario -target ... -rewrite), never from here.
func TestConformance(t *testing.T) {
	files, _ := filepath.Glob("testdata/conformance/*.txt")
	if len(files) < 60 {
		t.Fatalf("the conformance corpus has %d files, want at least 60", len(files))
	}
	for _, f := range files {
		t.Run(filepath.Base(f), func(t *testing.T) {
			s := New(Options{})
			datadriven.RunTest(t, f, func(t *testing.T, d *datadriven.TestData) string {
				return runCase(s, d)
			})
		})
	}
}

// TestEngineOnly runs the engine-only scenario files: simulation control,
// alarms and what the real broker cannot show.
func TestEngineOnly(t *testing.T) {
	files, _ := filepath.Glob("testdata/engine/*.txt")
	for _, f := range files {
		t.Run(filepath.Base(f), func(t *testing.T) {
			s := New(Options{Record: true})
			datadriven.RunTest(t, f, func(t *testing.T, d *datadriven.TestData) string {
				return runCase(s, d)
			})
		})
	}
}

// runCase runs every command of a case (the directive line, then each line
// of its input) and returns their output.
func runCase(s *Sim, d *datadriven.TestData) string {
	line := 0
	if i := strings.LastIndexByte(d.Pos, ':'); i >= 0 {
		line, _ = strconv.Atoi(d.Pos[i+1:])
	}
	var out []string
	cmds := append([]string{directive(d, line)}, strings.Split(d.Input, "\n")...)
	for i, text := range cmds {
		if strings.TrimSpace(text) == "" || strings.HasPrefix(strings.TrimSpace(text), "#") {
			continue
		}
		cmd, err := script.ParseLine(text, line+i)
		if err != nil {
			out = append(out, "error: "+err.Error())
			continue
		}
		out = append(out, s.Exec(cmd)...)
	}
	if len(out) == 0 {
		return ""
	}
	return strings.Join(out, "\n") + "\n"
}

// directive is a case's first command line as written in its file:
// datadriven splits it at spaces, which would lose the spacing inside a
// quoted value (body="a  b").
func directive(d *datadriven.TestData, line int) string {
	file := d.Pos
	if i := strings.LastIndexByte(file, ':'); i >= 0 {
		file = file[:i]
	}
	src, err := os.ReadFile(file)
	if err != nil {
		return d.FullCmd()
	}
	lines := strings.Split(string(src), "\n")
	if line < 1 || line > len(lines) {
		return d.FullCmd()
	}
	raw := lines[line-1]
	if f := strings.Fields(raw); len(f) == 0 || f[0] != d.Cmd {
		return d.FullCmd()
	}
	return raw
}

// TestTutorials runs RabbitMQ's six tutorials, written in the language and
// recorded from the broker like the conformance corpus, and their Chinese
// twins (the same commands, commented in Chinese), which must print the
// same.
func TestTutorials(t *testing.T) {
	files, _ := filepath.Glob("../tutorials/*.txt")
	twins, _ := filepath.Glob("../tutorials/zh/*.txt")
	if len(files) != 6 || len(twins) != 6 {
		t.Fatalf("%d tutorial files and %d Chinese twins, want 6 of each", len(files), len(twins))
	}
	for _, f := range append(files, twins...) {
		name, _ := filepath.Rel("../tutorials", f)
		t.Run(filepath.ToSlash(name), func(t *testing.T) {
			s := New(Options{})
			datadriven.RunTest(t, f, func(t *testing.T, d *datadriven.TestData) string {
				return runCase(s, d)
			})
		})
	}
}
