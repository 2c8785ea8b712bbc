package engine

import (
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/cockroachdb/datadriven"

	"warren/engine/script"
)

// The corpus is every scenario file whose trace is recorded: the
// conformance corpus (recorded from a real RabbitMQ 3.10.8 broker), the
// engine-only scenarios and RabbitMQ's tutorials. Natively each file is a
// test of its own, compared line by line (conformance_test.go); under
// WebAssembly the whole corpus is one test, compared by its hash
// (corpus_wasm_test.go).
type corpus struct {
	name string
	glob string
	min  int // files the corpus holds at least
	opts Options
	// heavy are files of millions of events, which the quick tier (-short)
	// leaves out natively; under WebAssembly the corpus' hash takes them in.
	heavy []string
}

var corpora = []corpus{
	{name: "conformance", glob: "testdata/conformance/*.txt", min: 60},
	{name: "engine-only", glob: "testdata/engine/*.txt", min: 10, opts: Options{Record: true},
		heavy: []string{"sixteen-schedulers.txt", "overload-spiral.txt"}},
	// their Chinese twins have the same commands and output line for line
	// (tutorials.TestChineseTwins), so they are not run again
	{name: "tutorials", glob: "../tutorials/*.txt", min: 6},
}

// isHeavy says whether file is one of the corpus' files of millions of
// events.
func (c corpus) isHeavy(file string) bool {
	return slices.Contains(c.heavy, filepath.Base(file))
}

// files lists the corpus' files, failing the test when it holds fewer
// than it should.
func (c corpus) files(t *testing.T) []string {
	t.Helper()
	files, _ := filepath.Glob(c.glob)
	if len(files) < c.min {
		t.Fatalf("the %s corpus has %d files (%s), want at least %d", c.name, len(files), c.glob, c.min)
	}
	return files
}

// run runs every case of one file on a fresh simulation; check sees each
// case's recorded and actual output and returns what datadriven compares.
func (c corpus) run(t *testing.T, file string, check func(d *datadriven.TestData, actual string) string) {
	s := New(c.opts)
	datadriven.RunTest(t, file, func(t *testing.T, d *datadriven.TestData) string {
		return check(d, runCase(t, s, d))
	})
}

// runCase runs every command of a case (the directive line, then each line
// of its input) and returns their output.
func runCase(t *testing.T, s *Sim, d *datadriven.TestData) string {
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
		out = append(out, execCase(t, s, cmd)...)
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
