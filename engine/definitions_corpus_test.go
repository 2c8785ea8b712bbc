//go:build !(js && wasm)

package engine

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"warren/engine/scenario"
)

// TestDefinitionsCorpus runs the definitions round trip (testdata/
// definitions, recorded from RabbitMQ 3.10.8 with `go run
// ./scripts/scenario -target ... -rewrite`) on the engine: warren's export
// and the broker's, each imported, must give the lists the broker gave.
func TestDefinitionsCorpus(t *testing.T) {
	files, _ := filepath.Glob("testdata/definitions/*.txt")
	if len(files) != 3 {
		t.Fatalf("%d files in testdata/definitions, want 3 (engine-export.txt, broker-export.txt, import-placement.txt)", len(files))
	}
	for _, f := range files {
		t.Run(filepath.Base(f), func(t *testing.T) {
			runCaseFile(t, f, Options{})
		})
	}
}

// runCaseFile runs every case of file on a fresh simulation made with
// opts and compares each case's output with the file's.
func runCaseFile(t *testing.T, file string, opts Options) {
	t.Helper()
	f := readCaseFile(t, file)
	checkCases(t, f, f.Run(corpusTarget{t, New(opts)}))
}

// TestDefinitionsExport runs testdata/definitions-export/export.txt:
// export_definitions of a topology, as RabbitMQ 3.10.8 writes it.
func TestDefinitionsExport(t *testing.T) {
	runCaseFile(t, "testdata/definitions-export/export.txt", Options{})
}

// TestDefinitionsExportIsTheCorpus: the file the broker imported in the
// round trip is what export_definitions prints now for the topology of
// testdata/definitions-export/export.txt (its first case).
func TestDefinitionsExportIsTheCorpus(t *testing.T) {
	f := readCaseFile(t, "testdata/definitions-export/export.txt")
	export := caseOf(t, f, "export_definitions")
	if len(export.Expected) != 1 {
		t.Fatalf("%s:%d: export_definitions records %d lines, want its one line of JSON", f.Name, export.Line, len(export.Expected))
	}
	exported := export.Expected[0]
	s := New(Options{})
	for _, step := range f.Cases[0].Steps {
		scenario.Exec(target(s), step)
	}
	now := scenario.Exec(target(s), export.Steps[0])
	if len(now) != 1 || now[0] != exported {
		t.Fatalf("export_definitions prints\n%q\nthe golden file holds\n%s", now, exported)
	}
	corpus, err := os.ReadFile("testdata/definitions/engine-export.txt")
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(corpus), "\nimport_definitions "+exported+"\n") {
		t.Errorf("testdata/definitions/engine-export.txt does not import the export of testdata/definitions-export/export.txt: " +
			"write `import_definitions EXPORT` as its first command and record it again from the broker")
	}
}

// caseOf is the case of f whose one command is cmd.
func caseOf(t *testing.T, f *scenario.File, cmd string) scenario.Case {
	t.Helper()
	for _, c := range f.Cases {
		if len(c.Steps) == 1 && c.Steps[0].Command == cmd {
			return c
		}
	}
	t.Fatalf("%s: no case %q", f.Name, cmd)
	return scenario.Case{}
}

// target runs scenario lines on s through its front door, each with its
// line in the file.
func target(s *Sim) scenario.Target {
	return scenario.LineRunner(func(line string, n int) []string { return s.Run(line, RunOptions{Line: n}).Lines })
}
