//go:build !js

package engine

import (
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"github.com/cockroachdb/datadriven"
)

// TestConformance runs the conformance corpus (recorded from a real
// RabbitMQ 3.10.8 broker) on the engine. Rewrite with -rewrite only from
// the broker (go run ./scripts/scenario -target ... -rewrite), never from
// here.
func TestConformance(t *testing.T) { runCorpus(t, corpora[0]) }

// TestEngineOnly runs the engine-only scenario files: simulation control,
// alarms and what the real broker cannot show.
func TestEngineOnly(t *testing.T) { runCorpus(t, corpora[1]) }

// TestTutorials runs RabbitMQ's six tutorials, written in the language and
// recorded from the broker like the conformance corpus.
func TestTutorials(t *testing.T) { runCorpus(t, corpora[2]) }

// runCorpus runs each file of a corpus as a test of its own, comparing
// every case's output with the file's.
func runCorpus(t *testing.T, c corpus) {
	for _, f := range c.files(t) {
		name, _ := filepath.Rel(filepath.Dir(c.glob), f)
		t.Run(filepath.ToSlash(name), func(t *testing.T) {
			if testing.Short() && c.isHeavy(f) {
				t.Skip("millions of events: the quick tier (-short) leaves it to the full one")
			}
			cases := readCaseFile(t, f)
			checkCases(t, cases, c.run(t, cases))
		})
	}
}

// caseFiles are every scenario file the engine's tests read.
func caseFiles(t *testing.T) []string {
	var files []string
	for _, c := range corpora {
		files = append(files, c.files(t)...)
	}
	for _, g := range []string{"testdata/definitions/*.txt", "testdata/definitions-export/*.txt"} {
		more, _ := filepath.Glob(g)
		files = append(files, more...)
	}
	return files
}

// TestCaseFilesReadAsDatadrivenReadsThem: the scenario files stay in the
// cockroachdb/datadriven layout the design promises. engine/scenario's
// parser, which every runner uses, finds in each file the cases
// datadriven's reader finds, at the same lines, with the same commands
// (datadriven's directive and input, without comments) and the same
// recorded output.
func TestCaseFilesReadAsDatadrivenReadsThem(t *testing.T) {
	cases := 0
	for _, file := range caseFiles(t) {
		f := readCaseFile(t, file)
		var theirs []string
		datadriven.RunTest(t, file, func(t *testing.T, d *datadriven.TestData) string {
			var input []string
			for _, l := range strings.Split(d.Input, "\n") {
				if t := strings.TrimSpace(l); t != "" && !strings.HasPrefix(t, "#") {
					input = append(input, l)
				}
			}
			theirs = append(theirs, fmt.Sprintf("%s: %s | %s\n%s", d.Pos, d.Cmd, strings.Join(input, " | "), d.Expected))
			return d.Expected
		})
		var ours []string
		for _, c := range f.Cases {
			first := strings.Fields(c.Steps[0].Command)[0]
			var input []string
			for _, s := range c.Steps[1:] {
				input = append(input, s.Command)
			}
			expected := ""
			for _, l := range c.Expected {
				expected += l + "\n"
			}
			ours = append(ours, fmt.Sprintf("%s:%d: %s | %s\n%s", file, c.Line, first, strings.Join(input, " | "), expected))
		}
		if len(ours) != len(theirs) {
			t.Errorf("%s: engine/scenario reads %d cases, datadriven %d", file, len(ours), len(theirs))
			continue
		}
		for i := range ours {
			if ours[i] != theirs[i] {
				t.Errorf("case %d of %s:\nengine/scenario reads\n%s\ndatadriven reads\n%s", i+1, file, ours[i], theirs[i])
			}
		}
		cases += len(ours)
	}
	t.Logf("%d cases read the same", cases)
}
