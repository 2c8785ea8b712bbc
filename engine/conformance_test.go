//go:build !js

package engine

import (
	"path/filepath"
	"testing"

	"github.com/cockroachdb/datadriven"
)

// TestConformance runs the conformance corpus (recorded from a real
// RabbitMQ 3.10.8 broker) on the engine, through the datadriven library, so
// that the files stay in its format. Rewrite with -rewrite only from the
// broker (go run ./scripts/scenario -target ... -rewrite), never from here.
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
			c.run(t, f, func(_ *datadriven.TestData, actual string) string { return actual })
		})
	}
}
