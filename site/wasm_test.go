package site

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestBuildWithoutBridge checks that Build explains what is missing when
// the module has no ./wasm package.
func TestBuildWithoutBridge(t *testing.T) {
	root := t.TempDir()
	if err := os.WriteFile(filepath.Join(root, "go.mod"), []byte("module warren\n\ngo 1.26\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	err := Build(t.TempDir(), BuildOptions{ModuleRoot: root})
	if err == nil || !strings.Contains(err.Error(), "has no Go package") || !strings.Contains(err.Error(), "SkipWasm") {
		t.Fatalf("got %v, want an error naming the missing ./wasm and SkipWasm", err)
	}
}

func TestBuildRefusesAnotherModule(t *testing.T) {
	root := t.TempDir()
	if err := os.WriteFile(filepath.Join(root, "go.mod"), []byte("module example.com/other\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	err := Build(t.TempDir(), BuildOptions{ModuleRoot: root})
	if err == nil || !strings.Contains(err.Error(), `not "warren"`) {
		t.Fatalf("got %v", err)
	}
}
