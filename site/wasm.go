package site

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
)

// modulePath is the module whose ./wasm package Build compiles.
const modulePath = "warren"

// wasmBuildFlags are the go build flags of warren.wasm, the one place they
// are written (wasm/size_test.go measures the site's own build): no file
// paths and no symbol table, and no inlining but in the scheduler's loop
// (engine/beam) and the runtime's maps.
//
// NB: inlining is a measured choice. The recorded publish-deliver-ack
// workload of the widget (40,000 messages in commands of 2,000, then 10
// seeks and steps back over the run) under Node, user CPU seconds, median
// of 10 interleaved runs at load 18 to 21; sizes as the site ships them
// (data segments joined, zopfli --i1, brotli -q 11), of the whole engine
// at 029e63c:
//
//	inlining                        CPU     gzip        brotli
//	off but in engine/beam          2.22 s  1,226,272     940,767
//	also in runtime                 1.86 s  1,260,308     975,481
//	also in internal/runtime/...    1.81 s  1,271,409     985,870
//	also in the standard library    1.70 s  1,294,139   1,007,382
//	everywhere (Go's default)       1.73 s  1,424,404   1,099,004
//
// Inlining the runtime (write barriers, append, allocation) bought most
// of what inlining everywhere does then, when the collector ran through
// most of a long command; it costs 35 kB of brotli. Since the browser
// build collects between calls (wasm/gc.go), what counts is the engine's
// own calls. The browser bench's 20,000-message recorded command in
// Chromium, the best of 6 runs, two interleaved rounds at load 5 to 6, at
// 054320e: 195 and 228 ms with inlining off but in engine/beam; 122 and
// 131 ms also in warren/engine and internal/runtime/maps (the second run,
// which the bench counts: 277 and 316 against 224 and 296 ms). Shipped
// sizes 1,265,272 gzip and 969,843 brotli against 1,280,628 and 985,368
// (inlining internal/runtime/maps costs no more than warren/engine alone;
// engine/node would cost 25 kB more, the runtime 20 kB more). Measured
// again at 93cb980, brotli of the unpacked build: engine/node 29 kB more,
// engine/clone 3 kB and with reflect 9 kB, for checkpoint copies that
// went from 4.1% of the command's CPU profile under Node to 3.3 and 3.7%;
// GOWASM=satconv,signext 4 kB more. None is taken; what cost most in
// the browser build is avoided in the engine's code instead: calls into
// engine/node after each recorded event (the markers read the node then;
// the node now hands them notices) and an
// allocation per message (Cluster.newMessage).
//
// Measured again at 134b2d4, once the engine's messages became data and
// the node's notices replaced the markers' look after each event:
// inlining warren/engine costs 10 kB of brotli and 11 kB of gzip (the
// shipped build 1,002,229 against 992,197 brotli) and buys 4% of the
// browser bench's recorded command under Node (BenchmarkBrowserCommand,
// ten runs each, four interleaved rounds, at load 1.4 to 1.7: a median
// of 402 ms with it, 420 ms without). It is no longer taken.
var wasmBuildFlags = []string{
	"-trimpath", "-ldflags=-s",
	"-gcflags=all=-l", "-gcflags=warren/engine/beam=", "-gcflags=internal/runtime/maps=",
}

// wasmModules are the site's WebAssembly modules: the engine, which every
// widget loads, and inspect.wasm, which reads a broker's folder dropped on
// the Files view and is loaded only then (wasm/inspect), out of the
// engine's size budget.
var wasmModules = []struct{ file, pkg string }{
	{"warren.wasm", "./wasm"},
	{"inspect.wasm", "./wasm/inspect"},
}

// buildModule compiles one package to a .wasm file and joins its data
// segments (packDataSegments).
func buildModule(goCmd, root, wasmPath, pkg string, logf func(string, ...any)) error {
	name := filepath.Base(wasmPath)
	logf("site: building %s (GOOS=js GOARCH=wasm go build %s; the first build on a machine takes a minute or so)", name, pkg)
	cmd := exec.Command(goCmd, append(append([]string{"build"}, wasmBuildFlags...), "-o", wasmPath, pkg)...)
	cmd.Dir = root
	cmd.Env = append(os.Environ(), "GOOS=js", "GOARCH=wasm")
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	if err := cmd.Run(); err != nil {
		return fmt.Errorf("GOOS=js GOARCH=wasm go build %s: %v\n%s", pkg, err, strings.TrimSpace(stderr.String()))
	}
	linked, err := os.ReadFile(wasmPath)
	if err != nil {
		return err
	}
	packed, before, after, err := packDataSegments(linked, packGap)
	if err != nil {
		return fmt.Errorf("%s as linked: %w", name, err)
	}
	if err := os.WriteFile(wasmPath, packed, 0o644); err != nil {
		return err
	}
	logf("site: built %s (%d bytes; %d data segments joined into %d)", name, len(packed), before, after)
	return nil
}

// buildWasm compiles the site's modules (wasmModules) into out, and copies the Go release's wasm_exec.js, the
// JavaScript half of the Go runtime, next to it.
func buildWasm(out string, opts BuildOptions, logf func(string, ...any)) error {
	goCmd, err := goCommand(opts.Go)
	if err != nil {
		return err
	}
	root, err := moduleRoot(goCmd, opts.ModuleRoot)
	if err != nil {
		return err
	}
	pkg := filepath.Join(root, "wasm")
	if !hasGoFiles(pkg) {
		return fmt.Errorf("cannot build warren.wasm: %s has no Go package (./wasm is the engine's JavaScript bridge); "+
			"build with BuildOptions.SkipWasm (scripts/serve -wasm=false) to write the pages alone", pkg)
	}
	absOut, err := filepath.Abs(out)
	if err != nil {
		return err
	}
	for _, m := range wasmModules {
		if err := buildModule(goCmd, root, filepath.Join(absOut, m.file), m.pkg, logf); err != nil {
			return err
		}
	}
	goroot, err := goEnv(goCmd, root, "GOROOT")
	if err != nil {
		return err
	}
	var js []byte
	for _, dir := range []string{"lib/wasm", "misc/wasm"} { // lib/wasm since Go 1.24
		if js, err = os.ReadFile(filepath.Join(goroot, filepath.FromSlash(dir), "wasm_exec.js")); err == nil {
			break
		}
	}
	if err != nil {
		return fmt.Errorf("no wasm_exec.js in %s/lib/wasm: %w", goroot, err)
	}
	return writeFile(filepath.Join(out, "wasm_exec.js"), js)
}

// goCommand finds the go command: the one given, $GOROOT/bin/go, or go on
// PATH.
func goCommand(given string) (string, error) {
	if given != "" {
		return given, nil
	}
	exe := "go"
	if runtime.GOOS == "windows" {
		exe += ".exe"
	}
	if root := os.Getenv("GOROOT"); root != "" {
		p := filepath.Join(root, "bin", exe)
		if _, err := os.Stat(p); err == nil {
			return p, nil
		}
	}
	p, err := exec.LookPath("go")
	if err != nil {
		return "", errors.New("cannot find the go command: put it on PATH or set GOROOT (it builds warren.wasm)")
	}
	return p, nil
}

// moduleRoot returns the directory of warren's go.mod: given, or found by
// the go command from the working directory.
func moduleRoot(goCmd, given string) (string, error) {
	root := given
	if root == "" {
		gomod, err := goEnv(goCmd, "", "GOMOD")
		if err != nil {
			return "", err
		}
		if gomod == "" || gomod == os.DevNull {
			return "", fmt.Errorf("cannot build warren.wasm: the working directory is not inside the %s module (run from the repository, or set BuildOptions.ModuleRoot)", modulePath)
		}
		root = filepath.Dir(gomod)
	}
	name, err := moduleName(filepath.Join(root, "go.mod"))
	if err != nil {
		return "", err
	}
	if name != modulePath {
		return "", fmt.Errorf("cannot build warren.wasm: %s is module %q, not %q", root, name, modulePath)
	}
	return root, nil
}

// moduleName reads the module path from a go.mod file.
func moduleName(gomod string) (string, error) {
	f, err := os.Open(gomod)
	if err != nil {
		return "", err
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		if rest, ok := strings.CutPrefix(strings.TrimSpace(sc.Text()), "module "); ok {
			return strings.Trim(strings.TrimSpace(rest), `"`), nil
		}
	}
	if err := sc.Err(); err != nil {
		return "", err
	}
	return "", fmt.Errorf("%s has no module line", gomod)
}

// goEnv runs `go env NAME` in dir (the working directory when empty).
func goEnv(goCmd, dir, name string) (string, error) {
	cmd := exec.Command(goCmd, "env", name)
	cmd.Dir = dir
	out, err := cmd.Output()
	if err != nil {
		return "", fmt.Errorf("go env %s: %w", name, err)
	}
	return strings.TrimSpace(string(out)), nil
}

func hasGoFiles(dir string) bool {
	ents, err := os.ReadDir(dir)
	if err != nil {
		return false
	}
	for _, e := range ents {
		if !e.IsDir() && strings.HasSuffix(e.Name(), ".go") {
			return true
		}
	}
	return false
}
