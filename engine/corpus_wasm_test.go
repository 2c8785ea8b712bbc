//go:build js

package engine

import (
	"crypto/sha256"
	"fmt"
	"path/filepath"
	"testing"

	"github.com/cockroachdb/datadriven"
)

// TestCorpusTraceUnderWasm runs the whole corpus (conformance, engine-only
// and tutorials) in the browser build and compares a hash of the trace it
// prints with a hash of the trace the files record, which the native build
// prints line for line (TestConformance, TestEngineOnly, TestTutorials). A
// difference names each file whose trace differs and its first case that
// does.
func TestCorpusTraceUnderWasm(t *testing.T) {
	all, want := sha256.New(), sha256.New()
	files := 0
	var differ []string
	for _, c := range corpora {
		for _, f := range c.files(t) {
			files++
			first := ""
			c.run(t, f, func(d *datadriven.TestData, actual string) string {
				fmt.Fprintf(all, "%s\x00%s\x00", d.Pos, actual)
				fmt.Fprintf(want, "%s\x00%s\x00", d.Pos, d.Expected)
				if actual != d.Expected && first == "" {
					first = fmt.Sprintf("%s: %s\n\tgot:\n%s\twant:\n%s", d.Pos, d.Input, actual, d.Expected)
				}
				// the comparison is the hash's: datadriven sees what it expects
				return d.Expected
			})
			if first != "" {
				differ = append(differ, filepath.ToSlash(f)+", first at "+first)
			}
		}
	}
	got, exp := fmt.Sprintf("%x", all.Sum(nil)), fmt.Sprintf("%x", want.Sum(nil))
	t.Logf("%d files, trace sha256 %s", files, got)
	if got != exp {
		t.Errorf("the corpus' trace under wasm has sha256 %s, the recorded one %s; %d files differ:", got, exp, len(differ))
		for _, d := range differ {
			t.Error(d)
		}
	}
}
