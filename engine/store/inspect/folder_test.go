package inspect

import (
	"errors"
	"path"
	"strings"
	"testing"

	"warren/engine/store/format"
	"warren/internal/fixtures"
)

// dropped reads a fixture snapshot as a page receives a dropped folder:
// every file named under the folder's own name.
func dropped(t *testing.T, snap string) []NamedFile {
	t.Helper()
	var out []NamedFile
	for _, f := range fixtures.Dropped(t, snap, path.Base(snap)) {
		out = append(out, NamedFile(f))
	}
	return out
}

// TestFolderDead checks which entries of the store files are dead: in the
// whole snapshot, the .qs entries of the three acked seq ids, and every
// entry once the queue's index is gone.
func TestFolderDead(t *testing.T) {
	whole := dropped(t, "v2-basic/B")
	var noIndex []NamedFile
	for _, f := range whole {
		if !strings.HasSuffix(f.Path, ".qi") {
			noIndex = append(noIndex, f)
		}
	}
	for _, c := range []struct {
		files []NamedFile
		dead  bool
	}{{whole, false}, {noIndex, true}} {
		fo, err := OpenFolder(c.files)
		if err != nil {
			t.Fatal(err)
		}
		checked := 0
		for _, f := range fo.Files() {
			data, _ := fo.Read(f.Path)
			all := 0
			switch {
			case strings.HasSuffix(f.Path, ".rdq"):
				format.ScanMsgFileEntries(strings.NewReader(string(data)), f.Size, func(_, _ int64, _ format.MsgID, ok bool) {
					if ok {
						all++
					}
				})
			case strings.HasSuffix(f.Path, ".qs"):
				format.ScanQueueStoreEntries(strings.NewReader(string(data)), f.Size, func(int64) { all++ })
			default:
				continue
			}
			want := all
			if !c.dead {
				want = map[string]int{".rdq": 0, ".qs": 3}[path.Ext(f.Path)]
			}
			if got := len(fo.Dead(f.Path)); got != want {
				t.Errorf("%s (index kept: %v): %d dead entries of %d, want %d", f.Path, !c.dead, got, all, want)
			}
			checked += all
		}
		if checked == 0 {
			t.Fatal("no store entries to check")
		}
	}
}

// TestFolderDamaged cuts a store file inside an entry: the report names
// the file and the offset where the entry starts.
func TestFolderDamaged(t *testing.T) {
	files := dropped(t, "v2-basic/A")
	for i, f := range files {
		if strings.HasSuffix(f.Path, "/0.qi") {
			files[i].Data = append(append([]byte(nil), f.Data[:len(f.Data)-7]...), 0xff)
		}
	}
	fo, err := OpenFolder(files)
	if err != nil {
		t.Fatal(err)
	}
	var de *format.DecodeError
	p := fo.Report.Problems
	if len(p) != 1 || !errors.As(p[0].Err, &de) || !strings.HasSuffix(p[0].File, "/0.qi") {
		t.Fatalf("problems %v, want one decode error in 0.qi", p)
	}
	if fo.Problem(p[0].File) == nil || !strings.Contains(p[0].Err.Error(), "0.qi: offset ") {
		t.Errorf("the problem %q does not name the file and offset", p[0].Err)
	}
}

// TestFolderRefused checks what is not one vhost folder.
func TestFolderRefused(t *testing.T) {
	two := append(dropped(t, "v2-basic/A"), dropped(t, "v2-basic/B")...)
	for _, c := range []struct {
		files []NamedFile
		want  string
	}{
		{nil, "not a RabbitMQ vhost folder"},
		{[]NamedFile{{Path: "notes/a.txt", Data: []byte("x")}}, "not a RabbitMQ vhost folder"},
		{two, "the files hold 2 vhost folders (/A, /B)"},
		{[]NamedFile{{Path: "x/queues/Q/0.qi", Data: make([]byte, MaxFolderBytes+1)}}, "more than 256 MB"},
	} {
		if _, err := OpenFolder(c.files); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("error %v, want %q", err, c.want)
		}
	}
	// a tar of the folder, with the folders it lies in and its own
	files := append([]NamedFile{{Path: "vhosts/"}, {Path: "vhosts/A/"}, {Path: "vhosts/A/queues/"}, {Path: "README", Data: []byte("x")}, {Path: "other/"}}, dropped(t, "v2-basic/A")...)
	for i := 4; i < len(files); i++ {
		files[i].Path = "vhosts/" + files[i].Path
	}
	fo, err := OpenFolder(files)
	if err != nil {
		t.Fatal(err)
	}
	if fo.Root != "vhosts/A" || len(fo.Skipped) != 2 || fo.Skipped[0] != "README" || fo.Skipped[1] != "vhosts/other" {
		t.Errorf("root %q, skipped %q, want vhosts/A and [README vhosts/other]", fo.Root, fo.Skipped)
	}
}
