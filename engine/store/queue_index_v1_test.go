package store

import (
	"fmt"
	"path"
	"strings"
	"testing"

	"warren/engine/clone"
	"warren/engine/vfs"
)

func v1Queue(t *testing.T, p Profile) (*vfs.MemFS, *VHost, *QueueFiles) {
	t.Helper()
	fsys := vfs.NewMemFS()
	v, _, err := OpenVHost(fsys, ".", p, nil)
	if err != nil {
		t.Fatal(err)
	}
	return fsys, v, mustOpen(t, v, "q", QueueOptions{Durable: true, Version: 1})
}

// The journal is flushed into the segments once it holds more than
// queue_index_max_journal_entries entries (a publish and its deliver
// count two), and truncated.
func TestV1JournalFlushAtLimit(t *testing.T) {
	p := Profile310()
	p.MaxJournalEntries = 10
	fsys, v, q := v1Queue(t, p)
	for seq := uint64(0); seq < 5; seq++ {
		mustPublish(t, v, q, seq, small(t, int(seq)))
	}
	if _, err := fsys.Stat(path.Join(q.Dir(), "0.idx")); err == nil {
		t.Fatal("0.idx written before the journal is full")
	}
	res := mustPublish(t, v, q, 5, small(t, 5))
	// The flush runs between the 6th publish record and its deliver record.
	pub := int64(34 + len(small(t, 0).Term))
	if got := fileSize(t, fsys, path.Join(q.Dir(), "0.idx")); got != 6*pub+5*2 {
		t.Fatalf("0.idx is %d bytes after the 11th entry (ops %v)", got, res.IO)
	}
	if got := fileSize(t, fsys, path.Join(q.Dir(), "journal.jif")); got != 0 {
		t.Fatalf("journal.jif is %d bytes after the flush", got)
	}
}

// A segment whose publishes are all acked is deleted at the flush; entries
// published, delivered and acked within the journal never reach a segment.
func TestV1SegmentDeletedWhenAcked(t *testing.T) {
	p := Profile310()
	p.V1SegmentEntryCount = 4
	fsys, v, q := v1Queue(t, p)
	for seq := uint64(0); seq < 6; seq++ {
		mustPublish(t, v, q, seq, small(t, int(seq)))
	}
	mustFlush(t, q)
	mustAck(t, v, q, 0, 1, 2, 3, 4)
	mustFlush(t, q)
	if _, err := fsys.Stat(path.Join(q.Dir(), "0.idx")); err == nil {
		t.Fatal("0.idx kept after all its messages were acked")
	}
	pub := int64(34 + len(small(t, 0).Term))
	if got := fileSize(t, fsys, path.Join(q.Dir(), "1.idx")); got != 2*(pub+2)+2 {
		t.Fatalf("1.idx is %d bytes", got)
	}
	mustPublish(t, v, q, 6, small(t, 6))
	mustAck(t, v, q, 6)
	mustFlush(t, q)
	if got := fileSize(t, fsys, path.Join(q.Dir(), "1.idx")); got != 2*(pub+2)+2 {
		t.Fatalf("1.idx is %d bytes: seq 6 went through the journal only", got)
	}
}

// After a crash the journal and the segments are combined; messages whose
// bodies the store lost are acked, the rest recovered.
func TestV1DirtyRecovery(t *testing.T) {
	fsys, v, terms := newVHostQueue(t, 1)
	q := v.Queue("q")
	mustFlush(t, q)
	mustAck(t, v, q, 0, 1)
	syncAll(t, v, q)
	fsys.CrashProcess()
	v2, _, err := OpenVHost(fsys, ".", Profile310(), []QueueRef{{Name: "q", Options: q.Options()}})
	if err != nil {
		t.Fatal(err)
	}
	delete(v2.Store(true).index, testID(9))
	q2, rec, err := v2.RecoverQueue("q")
	if err != nil || rec.Clean || len(rec.Messages) != 7 {
		t.Fatalf("recover: %v, clean %v, %d messages, want 7", err, rec.Clean, len(rec.Messages))
	}
	for _, m := range rec.Messages {
		if got, _, err := q2.Read(m.Seq); err != nil || string(got) != string(terms[m.Seq]) {
			t.Fatalf("seq %d: %v", m.Seq, err)
		}
	}
}

// TestV1CopySharesEmbeddedBodies: a checkpoint's copy of a v1 queue whose
// journal holds 1,000 bodies of 2,000 bytes, embedded in the index,
// shares the bodies instead of copying them, before the journal is
// written (in its write buffer) and after (in journal.jif); the copy
// writes the journal the original writes, and reads each body back as
// it was published.
func TestV1CopySharesEmbeddedBodies(t *testing.T) {
	_, v, q := v1Queue(t, Profile310())
	const n, size = 1000, 2000
	for seq := uint64(0); seq < n; seq++ {
		mustPublish(t, v, q, seq, publishMsg(t, "q", persistentProps, body(fmt.Sprint("m", seq, "-"), 'x', size), testID(int(seq)), false))
	}
	copyOf := func(when string) *VHost {
		t.Helper()
		c, bytes, err := clone.Copy(v)
		if err != nil {
			t.Fatal(err)
		}
		if bytes > n*size/4 {
			t.Errorf("%s, the copy of a queue holding %d bytes of embedded bodies allocated %d bytes", when, n*size, bytes)
		}
		return c
	}
	buffered := copyOf("with the journal unwritten")
	jif := path.Join(q.Dir(), "journal.jif")
	for _, vh := range []*VHost{v, buffered} {
		if _, err := vh.queues[q.Name()].Sync(); err != nil {
			t.Fatal(err)
		}
	}
	want, err := vfs.ReadFile(v.d.fs, jif)
	if err != nil || len(want) < n*size {
		t.Fatalf("the journal written holds %d bytes (%v)", len(want), err)
	}
	if got, err := vfs.ReadFile(buffered.d.fs, jif); err != nil || string(got) != string(want) {
		t.Fatalf("the copy wrote a journal of %d bytes (%v), the original one of %d", len(got), err, len(want))
	}
	wantBody, _, err := q.Read(n - 1)
	if err != nil {
		t.Fatal(err)
	}
	c := copyOf("with the journal written")
	got, _, err := c.queues[q.Name()].Read(n - 1)
	if err != nil || string(got) != string(wantBody) || !strings.Contains(string(got), "m999-xx") {
		t.Fatalf("the copy reads back %d bytes (%v), want the %d published", len(got), err, len(wantBody))
	}
}
