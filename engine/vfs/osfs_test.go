//go:build !js

package vfs

import (
	"os"
	"path/filepath"
	"testing"
)

func TestOSFSSuite(t *testing.T) {
	runSuite(t, func(t *testing.T) FS { return NewOSFS(t.TempDir()) })
}

func TestOSFSRootedAtDir(t *testing.T) {
	dir := t.TempDir()
	fsys := NewOSFS(dir)
	if err := fsys.MkdirAll("queues/Q"); err != nil {
		t.Fatal(err)
	}
	if err := WriteFile(fsys, "queues/Q/.queue_name", []byte("VHOST: /\n")); err != nil {
		t.Fatal(err)
	}
	got, err := os.ReadFile(filepath.Join(dir, "queues", "Q", ".queue_name"))
	if err != nil || string(got) != "VHOST: /\n" {
		t.Fatalf("file on disk: %q, %v", got, err)
	}
}
