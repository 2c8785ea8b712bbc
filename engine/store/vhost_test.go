package store

import (
	"math/rand"
	"testing"

	"warren/engine/vfs"
)

// OpenVHost lays the vhost out under the node's data directory.
func TestVHostLayout(t *testing.T) {
	fsys := vfs.NewMemFS()
	v, _, err := OpenVHost(fsys, "mnesia/rabbit@localhost", Profile310(), nil)
	if err != nil {
		t.Fatal(err)
	}
	if v.Dir() != "mnesia/rabbit@localhost/msg_stores/vhosts/628WB79CIFDYO9LJI6DKMI09L" {
		t.Fatalf("dir %s", v.Dir())
	}
	got := memFiles(t, fsys, v.Dir())
	want := snapshotFiles(t, fixtureDir(t, "transient", "A"))
	compareFiles(t, "layout", got, want)
	if v.V1SegmentEntryCount() != 2048 {
		t.Fatalf("segment entry count %d", v.V1SegmentEntryCount())
	}
}

// Where a message goes (determine_persist_to).
func TestPersistTo(t *testing.T) {
	for _, c := range []struct {
		version, body, props int
		want                 Placement
	}{
		{1, 100, 3, InQueueIndex},
		{2, 100, 3, InQueueStore},
		{2, 4095, 0, InQueueStore},
		{2, 4096, 0, InSharedStore},
		{2, 4090, 6, InSharedStore},
		{1, 4000, 95, InQueueIndex},
		{1, 4000, 96, InSharedStore},
	} {
		if got := PersistTo(c.version, c.body, c.props, 4096); got != c.want {
			t.Errorf("v%d body %d props %d: %s, want %s", c.version, c.body, c.props, got, c.want)
		}
	}
	if PersistTo(2, 0, 0, 0) != InSharedStore {
		t.Error("an embed threshold of 0 must send everything to the shared store")
	}
}

// Queue directories of queues not recovered are deleted at start.
func TestStrayQueueDeleted(t *testing.T) {
	fsys, v, _ := newVHostQueue(t, 2)
	dir := v.Queue("q").Dir()
	if _, _, err := v.Shutdown(); err != nil {
		t.Fatal(err)
	}
	if _, _, err := OpenVHost(fsys, ".", Profile310(), nil); err != nil {
		t.Fatal(err)
	}
	if vfs.IsDir(fsys, dir) {
		t.Fatal("the directory of a queue that is not recovered was kept")
	}
}

// Recovery never panics, whatever the files hold: each run corrupts some
// files of a populated vhost (flipped bytes, cut files, garbage appended)
// and recovers, reads and collects garbage; errors are fine.
func TestRecoveryNeverPanics(t *testing.T) {
	base := vfs.NewMemFS()
	p := Profile310()
	p.FileSizeLimit = 40 << 10
	v, _, err := OpenVHost(base, ".", p, nil)
	if err != nil {
		t.Fatal(err)
	}
	q1 := mustOpen(t, v, "q1", QueueOptions{Durable: true, Version: 1})
	q2 := mustOpen(t, v, "q2", QueueOptions{Durable: true, Version: 2})
	for i := 0; i < 40; i++ {
		size := 100
		if i%3 == 0 {
			size = 9000
		}
		for _, q := range []*QueueFiles{q1, q2} {
			mustPublish(t, v, q, uint64(i), publishMsg(t, "q", persistentProps, body("m-", 'x', size), testID(i), true))
		}
	}
	syncAll(t, v, q1, q2)
	mustFlush(t, q1)
	mustAck(t, v, q1, 1, 2, 3)
	mustAck(t, v, q2, 1, 2, 3)
	syncAll(t, v, q1, q2)
	var files []string
	for name := range memFiles(t, base, ".") {
		files = append(files, name)
	}
	sortStrings(files)
	rng := rand.New(rand.NewSource(1))
	refs := []QueueRef{{Name: "q1", Options: q1.Options()}, {Name: "q2", Options: q2.Options()}}
	for run := 0; run < 300; run++ {
		fsys := base.Clone()
		for k := 0; k < 1+rng.Intn(3); k++ {
			corrupt(fsys, files[rng.Intn(len(files))], rng)
		}
		func() {
			defer func() {
				if r := recover(); r != nil {
					t.Fatalf("run %d: panic: %v", run, r)
				}
			}()
			v, _, err := OpenVHost(fsys, ".", p, refs)
			if err != nil {
				return
			}
			for _, r := range refs {
				q, rec, err := v.RecoverQueue(r.Name)
				if err != nil {
					continue
				}
				for _, m := range rec.Messages {
					q.Read(m.Seq)
				}
			}
			v.Store(true).RunGC()
			v.Shutdown()
		}()
	}
}

// corrupt damages one file: flips bytes, cuts it, or appends garbage.
func corrupt(fsys *vfs.MemFS, name string, rng *rand.Rand) {
	data, err := vfs.ReadFile(fsys, name)
	if err != nil {
		return
	}
	switch rng.Intn(3) {
	case 0:
		for i := 0; i < 1+rng.Intn(4) && len(data) > 0; i++ {
			data[rng.Intn(len(data))] ^= byte(1 + rng.Intn(255))
		}
	case 1:
		if len(data) > 0 {
			data = data[:rng.Intn(len(data))]
		}
	default:
		junk := make([]byte, rng.Intn(64))
		rng.Read(junk)
		data = append(data, junk...)
	}
	vfs.WriteFile(fsys, name, data)
}
