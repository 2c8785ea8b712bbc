package engine

import (
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"testing"

	"github.com/cockroachdb/datadriven"

	"warren/engine/script"
)

// TestConformance runs the conformance corpus (recorded from a real
// RabbitMQ 3.10.8 broker) on the engine, through the datadriven library, so
// that the files stay in its format. Rewrite with -rewrite only from the
// broker (go run ./scripts/scenario -target ... -rewrite), never from here.
func TestConformance(t *testing.T) {
	files, _ := filepath.Glob("testdata/conformance/*.txt")
	if len(files) < 60 {
		t.Fatalf("the conformance corpus has %d files, want at least 60", len(files))
	}
	for _, f := range files {
		if notInBrowser(f) {
			continue
		}
		t.Run(filepath.Base(f), func(t *testing.T) {
			s := New(Options{})
			datadriven.RunTest(t, f, func(t *testing.T, d *datadriven.TestData) string {
				return runCase(s, d)
			})
		})
	}
}

// notInBrowser says that a scenario file needs what the browser build
// leaves out (node/restart_wasm.go): restarts, and queues recovering their
// files. Such files are named native-*.
func notInBrowser(file string) bool {
	return runtime.GOOS == "js" && strings.HasPrefix(filepath.Base(file), "native-")
}

// TestEngineOnly runs the engine-only scenario files: simulation control,
// alarms and what the real broker cannot show.
func TestEngineOnly(t *testing.T) {
	files, _ := filepath.Glob("testdata/engine/*.txt")
	for _, f := range files {
		if notInBrowser(f) {
			continue
		}
		t.Run(filepath.Base(f), func(t *testing.T) {
			s := New(Options{Record: true})
			datadriven.RunTest(t, f, func(t *testing.T, d *datadriven.TestData) string {
				return runCase(s, d)
			})
		})
	}
}

// runCase runs every command of a case (the directive line, then each line
// of its input) and returns their output.
func runCase(s *Sim, d *datadriven.TestData) string {
	line := 0
	if i := strings.LastIndexByte(d.Pos, ':'); i >= 0 {
		line, _ = strconv.Atoi(d.Pos[i+1:])
	}
	var out []string
	cmds := append([]string{d.FullCmd()}, strings.Split(d.Input, "\n")...)
	for i, text := range cmds {
		if strings.TrimSpace(text) == "" || strings.HasPrefix(strings.TrimSpace(text), "#") {
			continue
		}
		cmd, err := script.ParseLine(text, line+i)
		if err != nil {
			out = append(out, "error: "+err.Error())
			continue
		}
		out = append(out, s.Exec(cmd)...)
	}
	if len(out) == 0 {
		return ""
	}
	return strings.Join(out, "\n") + "\n"
}
