//go:build !js

package inspect

import (
	"path/filepath"
	"strings"
	"testing"

	"warren/engine/vfs"
	"warren/internal/fixtures"
)

// TestFolderAsOnDisk opens every fixture snapshot from memory and checks
// that its report is the one the inspect command prints for the folder on
// disk, and that every file reads back whole.
func TestFolderAsOnDisk(t *testing.T) {
	for _, snap := range snapshots(t) {
		t.Run(snap, func(t *testing.T) {
			files := dropped(t, snap)
			fo, err := OpenFolder(files)
			if err != nil {
				t.Fatal(err)
			}
			disk, err := Inspect(vfs.NewOSFS(filepath.Join(fixtures.RabbitMQ(t), filepath.FromSlash(snap))), ".")
			if err != nil {
				t.Fatal(err)
			}
			if got, want := fo.Report.Text(), disk.Text(); got != want {
				t.Errorf("the report from memory differs from the folder's on disk:\n%s\nwant:\n%s", got, want)
			}
			if fo.Root != filepath.Base(snap) || len(fo.Skipped) != 0 {
				t.Errorf("root %q, skipped %v; want %q and none", fo.Root, fo.Skipped, filepath.Base(snap))
			}
			if len(fo.Files()) != len(files) {
				t.Errorf("%d files, want %d", len(fo.Files()), len(files))
			}
			for _, f := range files {
				rel := strings.TrimPrefix(f.Path, fo.Root+"/")
				data, err := fo.Read(rel)
				if err != nil || string(data) != string(f.Data) {
					t.Errorf("%s reads back %d bytes (%v), want %d", rel, len(data), err, len(f.Data))
				}
			}
		})
	}
}
