//go:build !(js && wasm)

package main

// These tests run natively: they build the bridge for the browser and check
// what it costs to download.

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// budgetGzip is the most the gzipped warren.wasm may weigh.
const budgetGzip = 1_200_000

// forbidden are packages that would cost megabytes in the browser and that
// the bridge has no use for (templ and goldmark render the site at build
// time; the page fetches, not the wasm).
var forbidden = []string{
	"github.com/a-h/templ",
	"github.com/yuin/goldmark",
	"html/template",
	"text/template",
	"net/http",
}

func wasmEnv() []string { return append(os.Environ(), "GOOS=js", "GOARCH=wasm") }

// TestWasmSize builds warren.wasm as the site does and checks its gzipped
// size against the budget.
func TestWasmSize(t *testing.T) {
	out := filepath.Join(t.TempDir(), "warren.wasm")
	// the same flags as site.Build (site/wasm.go): no inlining outside the
	// scheduler, to stay within the budget
	cmd := exec.Command("go", "build", "-trimpath", "-ldflags=-s", "-gcflags=all=-l", "-gcflags=warren/engine/sim=", "-o", out, ".")
	cmd.Env = wasmEnv()
	if msg, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("GOOS=js GOARCH=wasm go build: %v\n%s", err, msg)
	}
	raw, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	// what the site serves: warren.wasm.gz made with zopfli (site/compress.go)
	if _, err := exec.LookPath("zopfli"); err != nil {
		if os.Getenv("CI") != "" {
			t.Fatal("zopfli is not installed, and the site compresses warren.wasm with it: scripts/test installs it (apt-get install zopfli)")
		}
		t.Skip("zopfli is not installed here (apt-get install zopfli); the site compresses warren.wasm with it, so its size cannot be checked")
	}
	gzb, err := exec.Command("zopfli", "--i1", "-c", out).Output()
	if err != nil {
		t.Fatalf("zopfli: %v", err)
	}
	gz := bytes.NewBuffer(gzb)
	t.Logf("warren.wasm: %d bytes, %d gzipped (budget %d)", len(raw), gz.Len(), budgetGzip)
	if gz.Len() > budgetGzip {
		t.Errorf("warren.wasm is %d bytes gzipped, over the budget of %d by %d: look at what the engine links "+
			"(GOOS=js GOARCH=wasm go list -deps ./wasm); regexp with its unicode tables alone costs about 140 kB",
			gz.Len(), budgetGzip, gz.Len()-budgetGzip)
	}
}

// TestWasmDeps checks that the bridge links none of the packages that only
// the site generator and the server need.
func TestWasmDeps(t *testing.T) {
	cmd := exec.Command("go", "list", "-deps", ".")
	cmd.Env = wasmEnv()
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("GOOS=js GOARCH=wasm go list -deps: %v", err)
	}
	for _, dep := range strings.Fields(string(out)) {
		for _, f := range forbidden {
			if dep == f || strings.HasPrefix(dep, f+"/") {
				t.Errorf("the wasm links %s: keep it out of engine/ and wasm/ (see which import brings it with go list -deps)", dep)
			}
		}
	}
}
