package store

import (
	"fmt"
	"path"
	"testing"

	"warren/engine/store/format"
	"warren/engine/vfs"

	"warren/internal/fixtures"
)

// These tests replay the scenarios of the RabbitMQ 3.10.8 fixtures through
// the store and compare every file of every snapshot, byte for byte. The
// message ids are taken from the fixture, so that even the ids inside the
// stored terms match.

var persistentProps = format.Properties{}.WithDeliveryMode(2)
var transientProps = format.Properties{}.WithDeliveryMode(1)

func fixtureDir(t testing.TB, c, snap string) string {
	t.Helper()
	return path.Join(fixtures.RabbitMQ(t), c, snap)
}

// newVHost opens a fresh vhost on a MemFS with the 3.10 defaults.
func newVHost(t testing.TB) (*vfs.MemFS, *VHost) {
	t.Helper()
	fsys := vfs.NewMemFS()
	v, _, err := OpenVHost(fsys, ".", Profile310(), nil)
	if err != nil {
		t.Fatal(err)
	}
	return fsys, v
}

func mustOpen(t testing.TB, v *VHost, name string, opts QueueOptions) *QueueFiles {
	t.Helper()
	q, _, err := v.OpenQueue(name, opts)
	if err != nil {
		t.Fatal(err)
	}
	return q
}

func mustPublish(t testing.TB, v *VHost, q *QueueFiles, seq uint64, m PublishedMsg) Result {
	t.Helper()
	res, err := q.Publish(seq, m)
	if err != nil {
		t.Fatalf("publish %d: %v", seq, err)
	}
	deliver(t, v, res.Calls)
	return res
}

func mustAck(t testing.TB, v *VHost, q *QueueFiles, seqs ...uint64) {
	t.Helper()
	res, err := q.Ack(seqs)
	if err != nil {
		t.Fatalf("ack %v: %v", seqs, err)
	}
	deliver(t, v, res.Calls)
}

func mustFlush(t testing.TB, q *QueueFiles) {
	t.Helper()
	if _, err := q.Flush(); err != nil {
		t.Fatalf("flush: %v", err)
	}
}

// publishBasic publishes the 20 small and 5 large persistent messages of
// the v1-basic and v2-basic cases, with confirms, and checks that all 25
// are confirmed once the timers ran.
func publishBasic(t *testing.T, v *VHost, q *QueueFiles, ids map[uint64]format.MsgID) {
	t.Helper()
	for i := 0; i < 20; i++ {
		b := body(fmt.Sprintf("small-%02d-", i), 'a', 100)
		mustPublish(t, v, q, uint64(i), publishMsg(t, q.Name(), persistentProps, b, mustID(t, ids, uint64(i)), true))
	}
	for i := 0; i < 5; i++ {
		b := body(fmt.Sprintf("LARGE-%d-", i), 'B', 10000)
		seq := uint64(20 + i)
		mustPublish(t, v, q, seq, publishMsg(t, q.Name(), persistentProps, b, mustID(t, ids, seq), true))
	}
	if n := syncAll(t, v, q); n != 25 {
		t.Fatalf("%d confirms, want 25", n)
	}
}

func TestFixtureV2Basic(t *testing.T) {
	wantA := snapshotFiles(t, fixtureDir(t, "v2-basic", "A"))
	wantB := snapshotFiles(t, fixtureDir(t, "v2-basic", "B"))
	ids := fixtureIDs(t, wantA)["fx.v2"]
	fsys, v := newVHost(t)
	q := mustOpen(t, v, "fx.v2", QueueOptions{Durable: true, Version: 2})
	publishBasic(t, v, q, ids)
	compareFiles(t, "v2-basic/A", memFiles(t, fsys, v.Dir()), wantA)
	for seq := uint64(0); seq < 3; seq++ {
		mustAck(t, v, q, seq)
	}
	mustFlush(t, q)
	compareFiles(t, "v2-basic/B", memFiles(t, fsys, v.Dir()), wantB)
}

func TestFixtureV1Basic(t *testing.T) {
	want := map[string]map[string][]byte{}
	for _, s := range []string{"A0", "A", "B0", "B"} {
		want[s] = snapshotFiles(t, fixtureDir(t, "v1-basic", s))
	}
	ids := fixtureIDs(t, want["A0"])["fx.v1"]
	fsys, v := newVHost(t)
	q := mustOpen(t, v, "fx.v1", QueueOptions{Durable: true, Version: 1})
	publishBasic(t, v, q, ids)
	compareFiles(t, "v1-basic/A0", memFiles(t, fsys, v.Dir()), want["A0"])
	mustFlush(t, q)
	compareFiles(t, "v1-basic/A", memFiles(t, fsys, v.Dir()), want["A"])
	for seq := uint64(0); seq < 3; seq++ {
		mustAck(t, v, q, seq)
	}
	if need := q.NeedsSync(); need != SyncIdle {
		t.Fatalf("after acks NeedsSync = %d, want SyncIdle", need)
	}
	syncAll(t, v, q)
	compareFiles(t, "v1-basic/B0", memFiles(t, fsys, v.Dir()), want["B0"])
	mustFlush(t, q)
	compareFiles(t, "v1-basic/B", memFiles(t, fsys, v.Dir()), want["B"])
}

func TestFixtureV2Priority(t *testing.T) {
	want := snapshotFiles(t, fixtureDir(t, "v2-priority", "A"))
	ids := fixtureIDs(t, want)
	fsys, v := newVHost(t)
	var levels []*QueueFiles
	for p := uint8(0); p <= 3; p++ {
		levels = append(levels, mustOpen(t, v, format.PriorityQueueName("fx.prio", p), QueueOptions{Durable: true, Version: 2}))
	}
	type msg struct {
		body     string
		priority int // -1: absent
	}
	msgs := []msg{{"prio-00-absent-", -1}, {"prio-01-p1-", 1}, {"prio-02-p2-", 2}, {"prio-03-p3-", 3}, {"prio-04-p0-", 0}, {"prio-05-p2-", 2}}
	next := make([]uint64, 4)
	for _, m := range msgs {
		props := persistentProps
		level := 0
		if m.priority >= 0 {
			props = props.WithPriority(uint8(m.priority))
			level = m.priority
		}
		q := levels[level]
		seq := next[level]
		next[level]++
		mustPublish(t, v, q, seq, publishMsg(t, "fx.prio", props, body(m.body, 'p', 100), mustID(t, ids[q.Name()], seq), true))
	}
	if n := syncAll(t, v, levels...); n != 6 {
		t.Fatalf("%d confirms, want 6", n)
	}
	compareFiles(t, "v2-priority/A", memFiles(t, fsys, v.Dir()), want)
}

// publishTransient publishes the 5 small and 2 large transient messages of
// the transient cases; every confirm is due at once.
func publishTransient(t *testing.T, v *VHost, q *QueueFiles, ids map[uint64]format.MsgID) {
	t.Helper()
	for i := 0; i < 7; i++ {
		b := body(fmt.Sprintf("transient-small-%d-", i), 't', 100)
		if i >= 5 {
			b = body(fmt.Sprintf("TRANSIENT-LARGE-%d-", i-5), 'T', 10000)
		}
		id, ok := ids[uint64(i)]
		if !ok {
			id = testID(i)
		}
		res := mustPublish(t, v, q, uint64(i), publishMsg(t, q.Name(), transientProps, b, id, true))
		if len(res.Confirmed) != 1 {
			t.Fatalf("transient publish %d: %d confirms at once, want 1", i, len(res.Confirmed))
		}
	}
}

func TestFixtureTransient(t *testing.T) {
	for _, c := range []struct {
		name    string
		version int
	}{{"transient", 1}, {"transient-v2", 2}} {
		t.Run(c.name, func(t *testing.T) {
			want := snapshotFiles(t, fixtureDir(t, c.name, "A"))
			fsys, v := newVHost(t)
			name := map[int]string{1: "fx.transient", 2: "fx.transient.v2"}[c.version]
			q := mustOpen(t, v, name, QueueOptions{Durable: false, Version: c.version})
			publishTransient(t, v, q, nil)
			syncAll(t, v, q)
			mustFlush(t, q)
			compareFiles(t, c.name+"/A", memFiles(t, fsys, v.Dir()), want)
		})
	}
}

func TestFixtureTransientLazy(t *testing.T) {
	for _, c := range []struct {
		name    string
		queue   string
		version int
	}{{"transient-lazy", "fx.transient.lazy", 1}, {"transient-lazy-v2", "fx.transient.lazy.v2", 2}} {
		t.Run(c.name, func(t *testing.T) {
			wantA0 := snapshotFiles(t, fixtureDir(t, c.name, "A0"))
			wantA := snapshotFiles(t, fixtureDir(t, c.name, "A"))
			ids := fixtureIDs(t, wantA0)[c.queue]
			if c.version == 2 {
				ids = fixtureIDs(t, wantA)[c.queue]
			}
			fsys, v := newVHost(t)
			q := mustOpen(t, v, c.queue, QueueOptions{Durable: false, Version: c.version, Lazy: true})
			publishTransient(t, v, q, ids)
			if c.version == 1 {
				// The queue's idle sync writes the journal (+0.20 s).
				if _, err := q.Sync(); err != nil {
					t.Fatal(err)
				}
			}
			compareFiles(t, c.name+"/A0", memFiles(t, fsys, v.Dir()), wantA0)
			mustFlush(t, q)
			compareFiles(t, c.name+"/A", memFiles(t, fsys, v.Dir()), wantA)
		})
	}
}
