package inspect

import (
	"errors"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"strings"
	"testing"

	"warren/engine/store/format"
	"warren/engine/vfs"

	"warren/internal/fixtures"
)

// snapshots returns every fixture snapshot folder ("v2-basic/A", ...).
func snapshots(t *testing.T) []string {
	t.Helper()
	return fixtures.Snapshots(t)
}

// memCopy loads a fixture snapshot into a MemFS under "vh".
func memCopy(t *testing.T, snap string) *vfs.MemFS {
	t.Helper()
	m := vfs.NewMemFS()
	src := filepath.Join(fixtures.RabbitMQ(t), filepath.FromSlash(snap))
	err := filepath.WalkDir(src, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(src, p)
		name := path.Join("vh", filepath.ToSlash(rel))
		if d.IsDir() {
			return m.MkdirAll(name)
		}
		data, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		return vfs.WriteFile(m, name, data)
	})
	if err != nil {
		t.Fatal(err)
	}
	return m
}

func inspectMem(t *testing.T, m *vfs.MemFS) (*Report, string) {
	t.Helper()
	r, err := Inspect(m, "vh")
	if err != nil {
		t.Fatal(err)
	}
	return r, r.Text()
}

// keyLines lists lines each snapshot's report must contain.
var keyLines = map[string][]string{
	"transient/A": {
		`vhost "/" (directory name 628WB79CIFDYO9LJI6DKMI09L)`,
		"no queue directories",
		"  file 0.rdq: 0 bytes, empty",
	},
	"transient-v2/A": {
		`queue "fx.transient.v2" in queues/BHY2AMU7QJIEUBX9VLUSS98EY (directory name ok)`,
		"  index v2, 0 seq ids",
	},
	"transient-lazy/A0": {
		"  index v1, 7 seq ids: 7 delivered",
		"  file journal.jif: 1731 bytes, 14 records",
		`  seq 0: transient delivered body embedded size=100 id=79b67157b7e7a98b64c10d7f2358d179 body="transient-small-0-tttttt"… [journal.jif@0]`,
		"  seq 5: transient delivered body in msg_store_transient size=10000 id=4a095aab8fd755f28ed133585384c2e4 (not in msg_store_transient on disk) [journal.jif@1635]",
	},
	"transient-lazy/A": {
		"  file 0.idx: 1647 bytes, seq 0..2047, 14 records",
		"  file journal.jif: 0 bytes, 0 records",
		`  seq 4: transient delivered body embedded size=100 id=b369ebb7198d984fdc539716dd55f1bc body="transient-small-4-tttttt"… [0.idx@72]`,
	},
	"transient-lazy-v2/A0": {
		"  file 0.qi: 64 bytes, seq 0..4095, 0 slots",
		"  file 0.qs: 0 bytes, empty (no header yet)",
		"  index v2, 0 seq ids",
	},
	"transient-lazy-v2/A": {
		"  index v2, 7 seq ids: 7 unacked",
		`  seq 4: transient unacked body in 0.qs@1224 size=100 id=30474359f64e03eace6de381661fb4a1 body="transient-small-4-tttttt"… [0.qi@192]`,
		"  seq 6: transient unacked body in msg_store_transient size=10000 id=8693d13c2ee1861c48fe32bd3916a3e5 (not in msg_store_transient on disk) [0.qi@256]",
	},
	"v1-basic/A0": {
		`queue "fx.v1" in queues/BTU471MODCIPU4OZDHM6TC34I (directory name ok)`,
		"  index v1, 25 seq ids: 25 delivered",
		`  seq 0: persistent delivered body embedded size=100 id=4b34c858f92a11a11a8de17e878b55d5 body="small-00-aaaaaaaaaaaaaaa"… [journal.jif@0]`,
		`  seq 24: persistent delivered body in msg_store_persistent/0.rdq@40764 size=10000 id=998f9642302df504fc62d81eb267876c body="LARGE-4-BBBBBBBBBBBBBBBB"… [journal.jif@6472]`,
		"  file 0.rdq: 50955 bytes, 5 entries (5 live, 0 dead), scan ends at 50955 (end of file)",
	},
	"v1-basic/A": {
		"  index v1, 25 seq ids: 25 delivered",
		"  file 0.idx: 6220 bytes, seq 0..2047, 50 records",
		`  seq 0: persistent delivered body embedded size=100 id=4b34c858f92a11a11a8de17e878b55d5 body="small-00-aaaaaaaaaaaaaaa"… [0.idx@5918]`,
	},
	"v1-basic/B0": {
		"  index v1, 25 seq ids: 22 delivered, 3 acked",
		"  file journal.jif: 24 bytes, 3 records",
		`  seq 2: persistent acked body embedded size=100 id=1024d8a28d226c090aa939dceb82c23c body="small-02-aaaaaaaaaaaaaaa"… [0.idx@5314]`,
	},
	"v1-basic/B": {
		"  index v1, 25 seq ids: 22 delivered, 3 acked",
		"  file 0.idx: 6226 bytes, seq 0..2047, 53 records",
		"    @0 size=10182 id=0189be9b47077e13b47eedcfb82e3ace live (1 ref) body=\"LARGE-0-BBBBBBBBBBBBBBBB\"… (10000 bytes)",
	},
	"v2-basic/A": {
		`queue "fx.v2" in queues/4OY5891YZFXPTW9JTXY2VNWGS (directory name ok)`,
		"  index v2, 25 seq ids: 25 unacked",
		"  file 0.qi: 864 bytes, seq 0..4095, 25 slots",
		"  file 0.qs: 5544 bytes, seq 0..4095, 20 entries",
		`  seq 0: persistent unacked body in 0.qs@64 size=100 id=f5aab0fcb779975823a3bd92a8de0074 body="small-00-aaaaaaaaaaaaaaa"… [0.qi@64]`,
		`  seq 20: persistent unacked body in msg_store_persistent/0.rdq@0 size=10000 id=559bedb6fd63663e92563bfd97b37ae7 body="LARGE-0-BBBBBBBBBBBBBBBB"… [0.qi@704]`,
		"  file 0.rdq: 50955 bytes, 5 entries (5 live, 0 dead), scan ends at 50955 (end of file)",
	},
	"v2-basic/B": {
		"  index v2, 25 seq ids: 22 unacked, 3 empty",
		"  seq 0: empty slot (32 zero bytes: acked, or never written) [0.qi@64]",
		`  seq 3: persistent unacked body in 0.qs@886 size=100 id=8d61973825bf974cc9ce069a5d7a3c08 body="small-03-aaaaaaaaaaaaaaa"… [0.qi@160]`,
	},
	"v2-priority/A": {
		`queue "fx.prio\x00\x00" in queues/AQEJL9AAESOJO48YW9K8ZNPFE (directory name ok)`,
		`  priority level 0 of queue "fx.prio"`,
		`  seq 1: persistent unacked body in 0.qs@340 size=100 id=86e5cd6d310280f20e111efcc0849962 body="prio-04-p0-ppppppppppppp"… [0.qi@96]`,
		`queue "fx.prio\x00\x03" in queues/6AJGRJGGVH3TSKUF7UVMCQNYD (directory name ok)`,
		"  file 0.qs: 341 bytes, seq 0..4095, 1 entry",
	},
}

// TestInspectFixtures runs the inspector over a MemFS copy of every fixture
// snapshot and checks key lines (scripts/inspect covers the OS filesystem).
func TestInspectFixtures(t *testing.T) {
	all := snapshots(t)
	if len(all) != 13 {
		t.Errorf("found %d snapshots, want 13", len(all))
	}
	for _, snap := range all {
		t.Run(snap, func(t *testing.T) {
			_, text := inspectMem(t, memCopy(t, snap))
			if strings.Contains(text, "problems:") {
				t.Fatalf("problems reported:\n%s", text)
			}
			want, ok := keyLines[snap]
			if !ok {
				t.Fatalf("no key lines for %s", snap)
			}
			lines := map[string]bool{}
			for _, l := range strings.Split(text, "\n") {
				lines[l] = true
			}
			for _, w := range want {
				if !lines[w] {
					t.Errorf("missing line:\n%s\nreport:\n%s", w, text)
				}
			}
		})
	}
}

func TestInspectDeadAndTorn(t *testing.T) {
	m := memCopy(t, "v2-basic/B")
	// The queue is deleted: every store entry becomes garbage.
	if err := vfs.RemoveAll(m, "vh/queues"); err != nil {
		t.Fatal(err)
	}
	m.MkdirAll("vh/queues")
	f, _ := m.Open("vh/msg_store_persistent/0.rdq")
	torn := format.AppendMsgFileEntry(nil, format.MsgID{0xab}, []byte("x"))
	torn[len(torn)-1] = 0
	f.Write(torn)
	f.Close()
	r, text := inspectMem(t, m)
	for _, want := range []string{
		"  file 0.rdq: 50981 bytes, 6 entries (0 live, 6 dead), scan ends at 50981 (end of file)",
		"    @0 size=10182 id=559bedb6fd63663e92563bfd97b37ae7 dead body=\"LARGE-0-BBBBBBBBBBBBBBBB\"… (10000 bytes)",
		"    @50955 size=17 id=ab000000000000000000000000000000 torn (no write-OK marker (0x00): skipped by recovery)",
	} {
		if !strings.Contains(text, want+"\n") {
			t.Errorf("missing line:\n%s\nreport:\n%s", want, text)
		}
	}
	if len(r.Problems) != 0 {
		t.Errorf("problems: %v", r.Problems)
	}
}

func TestInspectProblems(t *testing.T) {
	m := memCopy(t, "v2-basic/A")
	qi := "vh/queues/4OY5891YZFXPTW9JTXY2VNWGS/0.qi"
	f, _ := m.Open(qi)
	f.Truncate(64 + 3*32 + 7)
	f.Close()
	rdq, _ := m.Open("vh/msg_store_persistent/0.rdq")
	rdq.Truncate(50000)
	rdq.Close()
	r, text := inspectMem(t, m)
	want := []string{
		"queues/4OY5891YZFXPTW9JTXY2VNWGS/0.qi: offset 160: slot of seq 3 is 7 bytes, want 32",
		"msg_store_persistent/0.rdq: offset 40764: entry of size 10182 runs past the end of the file (9236 bytes left)",
	}
	if len(r.Problems) != len(want) {
		t.Fatalf("problems %v", r.Problems)
	}
	for _, w := range want {
		found := false
		for _, p := range r.Problems {
			if strings.HasPrefix(p.Err.Error(), w) {
				found = true
			}
		}
		if !found {
			t.Errorf("no problem starting %q in %v", w, r.Problems)
		}
	}
	// What decoded before the damage is still reported.
	for _, line := range []string{
		"  index v2, 3 seq ids: 3 unacked",
		"  file 0.rdq: 50000 bytes, 4 entries (0 live, 4 dead), scan ends at 40764 (truncated entry)",
		"problems:",
	} {
		if !strings.Contains(text, line+"\n") {
			t.Errorf("missing %q in\n%s", line, text)
		}
	}
}

func TestInspectNotAVHost(t *testing.T) {
	m := vfs.NewMemFS()
	m.MkdirAll("x/y")
	if _, err := Inspect(m, "x"); err == nil || !strings.Contains(err.Error(), "not a RabbitMQ vhost folder") {
		t.Fatalf("Inspect of a plain folder: %v", err)
	}
	if _, err := Inspect(m, "nope"); !errors.Is(err, fs.ErrNotExist) {
		t.Fatalf("Inspect of a missing folder: %v", err)
	}
}

func TestPreview(t *testing.T) {
	for in, want := range map[string]string{
		"":                             `""`,
		"short":                        `"short"`,
		"\x83h\x06d\x00\rbasic":        `".h.d..basic"`,
		strings.Repeat("a", 30):        `"aaaaaaaaaaaaaaaaaaaaaaaa"…`,
		"tab\there" + "\xff\xfe" + "é": `"tab.here...."`,
	} {
		if got := Preview([]byte(in)); got != want {
			t.Errorf("Preview(%q) = %s, want %s", in, got, want)
		}
	}
}
