//go:build js

package engine

import (
	"crypto/sha256"
	"fmt"
	"path/filepath"
	"testing"
)

// TestCorpusTraceUnderWasm runs the whole corpus (conformance, engine-only
// and tutorials) in the browser build and compares a hash of the trace it
// prints with a hash of the trace the files record, which the native build
// prints line for line (TestConformance, TestEngineOnly, TestTutorials). A
// difference names each file whose trace differs and its first case that
// does.
func TestCorpusTraceUnderWasm(t *testing.T) {
	all, want := sha256.New(), sha256.New()
	files, cases := 0, 0
	var differ []string
	for _, c := range corpora {
		for _, f := range c.files(t) {
			files++
			first := ""
			for _, r := range c.run(t, readCaseFile(t, f)) {
				cases++
				pos := fmt.Sprintf("%s:%d", filepath.ToSlash(f), r.Case.Line)
				fmt.Fprintf(all, "%s\x00%q\x00", pos, r.Actual)
				fmt.Fprintf(want, "%s\x00%q\x00", pos, r.Case.Expected)
				if !r.Pass && first == "" {
					first = fmt.Sprintf("%s: %s\n%s", pos, r.Case.Steps[0].Command, caseDiff(r))
				}
			}
			if first != "" {
				differ = append(differ, filepath.ToSlash(f)+", first at "+first)
			}
		}
	}
	got, exp := fmt.Sprintf("%x", all.Sum(nil)), fmt.Sprintf("%x", want.Sum(nil))
	t.Logf("%d files, %d cases, trace sha256 %s", files, cases, got)
	if got != exp {
		t.Errorf("the corpus' trace under wasm has sha256 %s, the recorded one %s; %d files differ:", got, exp, len(differ))
		for _, d := range differ {
			t.Error(d)
		}
	}
}
