//go:build !(js && wasm)

package main

// These tests run natively: they build the bridge for the browser and check
// what it costs to download.

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"warren/site"
)

// The download budgets of warren.wasm, as the site ships it: the smallest
// encoding a browser can get (brotli) and gzip, for a host or a browser
// without brotli. The whole engine (restarts, faults, rabbitmqctl's lists,
// transactions, markers and narration) measured 936,046 and 1,220,428 when
// these were set, with its data segments joined (site/wasmdata.go) and
// inlining as site/wasm.go chooses it.
const (
	budgetSmallest = 1_000_000
	budgetGzip     = 1_300_000
)

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

// TestWasmSize builds the site and compresses warren.wasm as a
// deployment does (scripts/serve -build-only: zopfli and brotli -q 11),
// and checks its shipped copies against the budgets. The site's other
// files, inspect.wasm among them, keep the fast level: their best copies
// would cost a minute more and are not measured.
func TestWasmSize(t *testing.T) {
	if testing.Short() {
		t.Skip("the quick tier (-short) leaves the budget of the shipped copies, half a minute of zopfli and brotli -q 11, to the full one")
	}
	for _, tool := range []string{"zopfli", "brotli"} {
		if _, err := exec.LookPath(tool); err != nil {
			if os.Getenv("CI") != "" {
				t.Fatalf("%s is not installed, and the site compresses warren.wasm with it: scripts/test installs it (apt-get install %s)", tool, tool)
			}
			t.Skipf("%s is not installed here (apt-get install %s); the site compresses warren.wasm with it, so its size cannot be checked", tool, tool)
		}
	}
	out := t.TempDir()
	if err := site.Build(out, site.BuildOptions{Compression: site.CompressFast}); err != nil {
		t.Fatal(err)
	}
	if err := site.Recompress([]string{filepath.Join(out, "warren.wasm")}, site.CompressBest); err != nil {
		t.Fatal(err)
	}
	size := func(name string) int {
		info, err := os.Stat(filepath.Join(out, name))
		if err != nil {
			t.Fatal(err)
		}
		return int(info.Size())
	}
	raw, gz, br := size("warren.wasm"), size("warren.wasm.gz"), size("warren.wasm.br")
	t.Logf("warren.wasm: %d bytes, %d gzipped (budget %d), %d with brotli (budget %d for the smallest)", raw, gz, budgetGzip, br, budgetSmallest)
	// inspect.wasm, which reads a broker's folder, is downloaded only when
	// a reader drops one (wasm/inspect): outside the budget, said here.
	t.Logf("inspect.wasm: %d bytes", size("inspect.wasm"))
	const hint = "look at what the engine links (GOOS=js GOARCH=wasm go list -deps ./wasm; regexp with its unicode tables alone costs about 140 kB), " +
		"at the inlining flags in site/wasm.go, and at the data segments the build joins (site/wasmdata.go)"
	if smallest := min(gz, br); smallest > budgetSmallest {
		t.Errorf("warren.wasm's smallest shipped copy is %d bytes, over the budget of %d by %d: %s", smallest, budgetSmallest, smallest-budgetSmallest, hint)
	}
	if gz > budgetGzip {
		t.Errorf("warren.wasm is %d bytes gzipped, over the budget of %d by %d: %s", gz, budgetGzip, gz-budgetGzip, hint)
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
