//go:build !(js && wasm)

package engine

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/cockroachdb/datadriven"
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
			s := New(Options{})
			datadriven.RunTest(t, f, func(t *testing.T, d *datadriven.TestData) string {
				return runCase(t, s, d)
			})
		})
	}
}

// TestDefinitionsExport runs testdata/definitions-export/export.txt:
// export_definitions of a topology, as RabbitMQ 3.10.8 writes it.
func TestDefinitionsExport(t *testing.T) {
	s := New(Options{})
	datadriven.RunTest(t, "testdata/definitions-export/export.txt", func(t *testing.T, d *datadriven.TestData) string {
		return runCase(t, s, d)
	})
}

// TestDefinitionsExportIsTheCorpus: the file the broker imported in the
// round trip is what export_definitions prints now for the topology of
// testdata/definitions-export/export.txt.
func TestDefinitionsExportIsTheCorpus(t *testing.T) {
	exported := caseOutput(t, "testdata/definitions-export/export.txt", "export_definitions")
	s := New(Options{})
	var topology []string
	src, err := os.ReadFile("testdata/definitions-export/export.txt")
	if err != nil {
		t.Fatal(err)
	}
	for _, l := range strings.Split(string(src), "\n") {
		if l == "----" {
			break
		}
		if l != "" && !strings.HasPrefix(l, "#") {
			topology = append(topology, l)
		}
	}
	for _, l := range topology {
		s.runLine(l)
	}
	now := s.runLine("export_definitions")
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

// caseOutput is the expected output of the case of file whose command is
// cmd, on one line.
func caseOutput(t *testing.T, file, cmd string) string {
	t.Helper()
	src, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(string(src), "\n")
	for i := 0; i+2 < len(lines); i++ {
		if lines[i] == cmd && lines[i+1] == "----" {
			return lines[i+2]
		}
	}
	t.Fatalf("%s: no case %q", file, cmd)
	return ""
}
