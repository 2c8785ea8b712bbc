package engine

import (
	"flag"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"testing"

	"warren/engine/scenario"
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

// run runs every case of one of the corpus' files, in order, on a fresh
// simulation and returns what each printed.
func (c corpus) run(t *testing.T, f *scenario.File) []scenario.Result {
	return f.Run(corpusTarget{t, New(c.opts)})
}

// readCaseFile reads and parses a scenario file.
func readCaseFile(t testing.TB, file string) *scenario.File {
	t.Helper()
	src, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	f, err := scenario.Parse(filepath.ToSlash(file), string(src))
	if err != nil {
		t.Fatal(err)
	}
	return f
}

// corpusTarget runs a scenario file's commands on its simulation, each
// through execCase (which holds the node's totals to a count with -tags
// invariants).
type corpusTarget struct {
	t *testing.T
	s *Sim
}

func (c corpusTarget) Exec(cmd script.Command) []string { return execCase(c.t, c.s, cmd) }

// checkCases fails t once for each case of f whose output differs from
// the one f records, naming the case and showing the difference. With
// -rewrite (natively) it records the actual output in the file instead.
func checkCases(t *testing.T, f *scenario.File, results []scenario.Result) {
	t.Helper()
	if rewriting() {
		out, err := f.Rewrite(scenario.Outputs(results))
		if err == nil {
			err = os.WriteFile(f.Name, out, 0o644)
		}
		if err != nil {
			t.Fatal(err)
		}
		return
	}
	for _, r := range results {
		if !r.Pass {
			t.Errorf("%s:%d: %s\n%s", f.Name, r.Case.Line, r.Case.Steps[0].Command, caseDiff(r))
		}
	}
}

// caseDiff is how a case's output differs from the recorded one.
func caseDiff(r scenario.Result) string {
	if r.Case.Expected == nil {
		return "no recorded output (run with -rewrite)"
	}
	return r.Diff()
}

// rewriting says whether the tests run with -rewrite (the flag
// cockroachdb/datadriven defines), natively: a golden file is then written
// from what the engine prints instead of compared with it.
func rewriting() bool {
	rw := flag.Lookup("rewrite")
	return rw != nil && rw.Value.String() == "true" && runtime.GOOS != "js"
}
