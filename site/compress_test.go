package site

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
)

// needBrotli skips a test when Debian's brotli tool is missing, except
// under CI, where scripts/test installs it and its absence is a failure.
func needBrotli(t *testing.T) string {
	t.Helper()
	bin, err := exec.LookPath("brotli")
	if err != nil {
		if os.Getenv("CI") != "" {
			t.Fatal("brotli is not installed, and the site compresses with it: scripts/test installs it (apt-get install brotli)")
		}
		t.Skip("brotli is not installed here (apt-get install brotli)")
	}
	return bin
}

// TestCompressAllWritesBrotli checks that every compressible file gets a
// .br copy that decompresses to it, and nothing else gets one, at both
// levels.
func TestCompressAllWritesBrotli(t *testing.T) {
	bin := needBrotli(t)
	for _, level := range []Compression{CompressFast, CompressBest} {
		t.Run(level.String(), func(t *testing.T) { compressesWithBrotli(t, bin, level) })
	}
}

func compressesWithBrotli(t *testing.T, bin string, level Compression) {
	dir := t.TempDir()
	files := map[string][]byte{
		"warren.wasm":       append([]byte("\x00asm\x01\x00\x00\x00"), bytes.Repeat([]byte("warren "), 5000)...),
		"index.html":        []byte("<!doctype html><title>home</title>"),
		"widget/element.js": bytes.Repeat([]byte("export function define() {}\n"), 50),
		"plain.txt":         []byte("plain"),
	}
	for name, body := range files {
		if err := writeFile(filepath.Join(dir, filepath.FromSlash(name)), body); err != nil {
			t.Fatal(err)
		}
	}
	c, err := compressAll(dir, level)
	if err != nil {
		t.Fatal(err)
	}
	if c.Gzip != 3 || c.Brotli != 3 || c.NoBrotli {
		t.Errorf("compressAll: %+v, want 3 .gz and 3 .br", c)
	}
	for name, body := range files {
		p := filepath.Join(dir, filepath.FromSlash(name))
		if name == "plain.txt" {
			if _, err := os.Stat(p + ".br"); err == nil {
				t.Errorf("%s got a .br copy", name)
			}
			continue
		}
		out, err := exec.Command(bin, "-d", "-c", p+".br").Output()
		if err != nil {
			t.Fatalf("brotli -d %s.br: %v", name, err)
		}
		if !bytes.Equal(out, body) {
			t.Errorf("%s.br decompresses to %d bytes, not the file's %d", name, len(out), len(body))
		}
	}
}

// TestCompressAllRemovesStaleBrotli checks that a build without brotli
// leaves no .br copy of an older file to be served in place of the new.
func TestCompressAllRemovesStaleBrotli(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, "warren.wasm")
	if err := os.WriteFile(p, []byte("new"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p+".br", []byte("old"), 0o644); err != nil {
		t.Fatal(err)
	}
	t.Setenv("PATH", t.TempDir()) // no brotli, no zopfli
	c, err := compressAll(dir, CompressFast)
	if err != nil {
		t.Fatal(err)
	}
	if !c.NoBrotli {
		t.Errorf("compressAll found brotli on an empty PATH")
	}
	if _, err := os.Stat(p + ".br"); err == nil {
		t.Errorf("the stale warren.wasm.br is still there")
	}
	if _, err := os.Stat(p + ".gz"); err != nil {
		t.Errorf("no .gz copy without the tools: %v", err)
	}
}
