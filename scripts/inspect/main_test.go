//go:build !js

package main

import (
	"bytes"
	"flag"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"warren/internal/fixtures"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata/")

// fixtureSnapshots returns every snapshot folder holding a .vhost file.
func fixtureSnapshots(t *testing.T) []string {
	t.Helper()
	out := fixtures.Snapshots(t)
	if len(out) != 13 {
		t.Fatalf("found %d fixture snapshots, want 13", len(out))
	}
	return out
}

// TestGolden runs the command over every fixture snapshot and compares its
// output with testdata/<case>_<snapshot>.golden (rewrite with -update).
func TestGolden(t *testing.T) {
	for _, snap := range fixtureSnapshots(t) {
		t.Run(snap, func(t *testing.T) {
			var stdout, stderr bytes.Buffer
			if code := run([]string{filepath.Join(fixtures.RabbitMQ(t), snap)}, &stdout, &stderr); code != 0 {
				t.Fatalf("exit %d: %s", code, stderr.String())
			}
			golden := filepath.Join("testdata", strings.ReplaceAll(snap, "/", "_")+".golden")
			if *update {
				if err := os.WriteFile(golden, stdout.Bytes(), 0o644); err != nil {
					t.Fatal(err)
				}
				return
			}
			want, err := os.ReadFile(golden)
			if err != nil {
				t.Fatalf("%v (run with -update to create it)", err)
			}
			if !bytes.Equal(stdout.Bytes(), want) {
				t.Errorf("output differs from %s (run with -update and review the diff):\n%s", golden, stdout.String())
			}
		})
	}
}

func TestKeyLines(t *testing.T) {
	var stdout, stderr bytes.Buffer
	if code := run([]string{filepath.Join(fixtures.RabbitMQ(t), "v2-basic/B")}, &stdout, &stderr); code != 0 {
		t.Fatalf("exit %d: %s", code, stderr.String())
	}
	for _, want := range []string{
		`queue "fx.v2" in queues/4OY5891YZFXPTW9JTXY2VNWGS (directory name ok)`,
		"  index v2, 25 seq ids: 22 unacked, 3 empty",
		"  seq 2: empty slot (32 zero bytes: acked, or never written) [0.qi@128]",
		`  seq 19: persistent unacked body in 0.qs@5270 size=100 id=1f708496c22897516ad01cd905e5411a body="small-19-aaaaaaaaaaaaaaa"… [0.qi@672]`,
		"    @40764 size=10182 id=70aad3a71dedaf334ffc3ec7e129d757 live (1 ref) body=\"LARGE-4-BBBBBBBBBBBBBBBB\"… (10000 bytes)",
	} {
		if !strings.Contains(stdout.String(), want+"\n") {
			t.Errorf("missing line %q", want)
		}
	}
}

// copyDir copies a fixture snapshot to a temporary folder.
func copyDir(t *testing.T, src string) string {
	t.Helper()
	dst := t.TempDir()
	err := filepath.WalkDir(src, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(src, p)
		if d.IsDir() {
			return os.MkdirAll(filepath.Join(dst, rel), 0o755)
		}
		data, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		return os.WriteFile(filepath.Join(dst, rel), data, 0o644)
	})
	if err != nil {
		t.Fatal(err)
	}
	return dst
}

func TestCorruptFile(t *testing.T) {
	dir := copyDir(t, filepath.Join(fixtures.RabbitMQ(t), "v2-basic/A"))
	qs := filepath.Join(dir, "queues", "4OY5891YZFXPTW9JTXY2VNWGS", "0.qs")
	data, _ := os.ReadFile(qs)
	copy(data, "XXXX")
	os.WriteFile(qs, data, 0o644)
	var stdout, stderr bytes.Buffer
	if code := run([]string{dir}, &stdout, &stderr); code != 1 {
		t.Fatalf("exit %d, want 1", code)
	}
	want := `inspect: queues/4OY5891YZFXPTW9JTXY2VNWGS/0.qs: offset 0: magic "XXXX", want "RCQS"` + "\n"
	if stderr.String() != want {
		t.Fatalf("stderr %q, want %q", stderr.String(), want)
	}
	if !strings.Contains(stdout.String(), "(no entry starts at 0.qs@64)") {
		t.Errorf("stdout does not explain the missing bodies:\n%s", stdout.String())
	}
}

func TestUsageAndMissingDir(t *testing.T) {
	var stdout, stderr bytes.Buffer
	if code := run(nil, &stdout, &stderr); code != 2 || !strings.HasPrefix(stderr.String(), "usage: inspect DIR") {
		t.Fatalf("no args: exit %d, %q", code, stderr.String())
	}
	stderr.Reset()
	if code := run([]string{filepath.Join(t.TempDir(), "nope")}, &stdout, &stderr); code != 1 || !strings.Contains(stderr.String(), "no such file or directory") {
		t.Fatalf("missing dir: exit %d, %q", code, stderr.String())
	}
	stderr.Reset()
	empty := t.TempDir()
	if code := run([]string{empty}, &stdout, &stderr); code != 1 || stderr.String() != "inspect: "+empty+": not a RabbitMQ vhost folder: it has no queues/, msg_store_persistent/ or msg_store_transient/\n" {
		t.Fatalf("empty dir: exit %d, %q", code, stderr.String())
	}
}
