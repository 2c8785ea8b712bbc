package store

import (
	"bytes"
	"fmt"
	"path"
	"strings"
	"testing"

	"warren/engine/store/format"
	"warren/engine/vfs"
)

// smallSegments returns a 3.10 profile with v2 segments of n entries.
func smallSegments(n int) Profile {
	p := Profile310()
	p.V2SegmentEntryCount = n
	return p
}

func v2Queue(t *testing.T, p Profile) (*vfs.MemFS, *VHost, *QueueFiles) {
	t.Helper()
	fsys := vfs.NewMemFS()
	v, _, err := OpenVHost(fsys, ".", p, nil)
	if err != nil {
		t.Fatal(err)
	}
	return fsys, v, mustOpen(t, v, "q", QueueOptions{Durable: true, Version: 2})
}

func small(t *testing.T, n int) PublishedMsg {
	return publishMsg(t, "q", persistentProps, body("s-", 'x', 100), testID(n), false)
}

// An ack of an entry still in the write buffer drops the pending write;
// the segment's last ack deletes its .qi and .qs at once.
func TestV2AckInBuffer(t *testing.T) {
	fsys, v, q := v2Queue(t, Profile310())
	mustPublish(t, v, q, 0, small(t, 0))
	qi := path.Join(q.Dir(), "0.qi")
	if got := fileSize(t, fsys, qi); got != 64 {
		t.Fatalf("0.qi is %d bytes after a publish, want the 64-byte header", got)
	}
	fsys.ResetTrace()
	res, err := q.Ack([]uint64{0})
	if err != nil {
		t.Fatal(err)
	}
	// Closing the .qs handle writes its delayed buffer, then both go.
	want := []string{"remove: " + qi, "write: " + path.Join(q.Dir(), "0.qs") + " 334 bytes at 0", "remove: " + path.Join(q.Dir(), "0.qs")}
	if got := fsys.Trace(); fmt.Sprint(got) != fmt.Sprint(want) || res.IO.Removes != 2 {
		t.Fatalf("ack did:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	if _, err := fsys.Stat(qi); err == nil {
		t.Fatal("0.qi still there")
	}
}

// Flush rules: half a segment of acks writes only the acks; a segment's
// worth of items writes everything.
func TestV2FlushRules(t *testing.T) {
	fsys, v, q := v2Queue(t, smallSegments(16))
	for seq := uint64(0); seq < 15; seq++ {
		res := mustPublish(t, v, q, seq, small(t, int(seq)))
		if res.IO.Writes > 1 {
			t.Fatalf("publish %d flushed: %v", seq, res.IO)
		}
	}
	res := mustPublish(t, v, q, 15, small(t, 15))
	qi := path.Join(q.Dir(), "0.qi")
	if got := fileSize(t, fsys, qi); got != 64+16*32 {
		t.Fatalf("after 16 items 0.qi is %d bytes (ops %v), want a full flush", got, res.IO)
	}
	mustPublish(t, v, q, 16, small(t, 16))
	for seq := uint64(0); seq < 7; seq++ {
		if res, _ := q.Ack([]uint64{seq}); res.IO.Writes != 0 {
			t.Fatalf("ack %d wrote: %v", seq, res.IO)
		}
	}
	res, err := q.Ack([]uint64{7})
	if err != nil || res.IO.Writes != 1 || res.IO.BytesWritten != 8*32 {
		t.Fatalf("8th ack: %v, ops %v, want one write of the 8 zeroed slots", err, res.IO)
	}
	data, _ := vfs.ReadFile(fsys, qi)
	if !allZero(data[64:64+8*32]) || allZero(data[64+8*32:64+9*32]) {
		t.Fatal("acked slots are not zero, or unacked ones are")
	}
	if _, err := fsys.Stat(path.Join(q.Dir(), "1.qi")); err != nil {
		t.Fatal("seq 16 did not create 1.qi")
	}
	if got := fileSize(t, fsys, path.Join(q.Dir(), "1.qi")); got != 64 {
		t.Fatalf("1.qi is %d bytes: the entry of seq 16 must still be buffered", got)
	}
}

// Dirty recovery keeps what it can check and marks the rest acked with a
// single zero byte at the status offset, counting the four kinds of drop.
func TestV2DirtyRecoveryDrops(t *testing.T) {
	fsys, v, q := v2Queue(t, Profile310())
	mustPublish(t, v, q, 0, small(t, 0))                                                                  // kept
	mustPublish(t, v, q, 1, small(t, 1))                                                                  // bad CRC
	mustPublish(t, v, q, 2, publishMsg(t, "q", persistentProps, body("L-", 'x', 5000), testID(2), false)) // store loses it
	mustPublish(t, v, q, 3, publishMsg(t, "q", persistentProps, body("L-", 'x', 5000), testID(3), false)) // kept
	syncAll(t, v, q)
	if _, err := q.Flush(); err != nil {
		t.Fatal(err)
	}
	// Corrupt seq 1's .qs payload; turn seq 4 into a transient entry and
	// seq 5 into a memory one by hand.
	qs := path.Join(q.Dir(), "0.qs")
	f, _ := fsys.Open(qs)
	f.WriteAt([]byte{0xEE}, 64+8+266+8+20)
	f.Close()
	qi := path.Join(q.Dir(), "0.qi")
	g, _ := fsys.Open(qi)
	tr := format.NewIndexEntry(false, format.Location{Kind: format.LocQueueStore, Offset: 64, Size: 266}, 100, 0).Encode()
	mem := format.NewIndexEntry(true, format.Location{}, 100, 0).Encode()
	g.WriteAt(tr[:], 64+4*32)
	g.WriteAt(mem[:], 64+5*32)
	g.Close()
	fsys.CrashProcess()
	// The store forgets seq 2's body: remove it from the files.
	p := Profile310()
	v2, _, err := OpenVHost(fsys, ".", p, []QueueRef{{Name: "q", Options: QueueOptions{Durable: true, Version: 2}}})
	if err != nil {
		t.Fatal(err)
	}
	delete(v2.Store(true).index, testID(2))
	before, _ := vfs.ReadFile(fsys, qi)
	_, rec, err := v2.RecoverQueue("q")
	if err != nil {
		t.Fatal(err)
	}
	want := DroppedCounts{PersistentPerVHost: 1, PersistentPerQueue: 1, PersistentOther: 1, Transient: 1}
	if rec.Dropped != want || len(rec.Messages) != 2 {
		t.Fatalf("dropped %+v (want %+v), %d kept", rec.Dropped, want, len(rec.Messages))
	}
	after, _ := vfs.ReadFile(fsys, qi)
	for _, seq := range []int{1, 2, 4, 5} {
		off := 64 + seq*32
		if after[off] != 0 || !bytes.Equal(after[off+1:off+32], before[off+1:off+32]) {
			t.Errorf("seq %d: slot not marked acked by one zero byte", seq)
		}
	}
}

// A .qi with a bad header is deleted with its .qs.
func TestV2BadHeaderDeleted(t *testing.T) {
	fsys, v, q := v2Queue(t, Profile310())
	mustPublish(t, v, q, 0, small(t, 0))
	syncAll(t, v, q)
	vfs.WriteFile(fsys, path.Join(q.Dir(), "0.qi"), []byte("RCQX"))
	fsys.CrashProcess()
	v2, _, err := OpenVHost(fsys, ".", Profile310(), []QueueRef{{Name: "q", Options: QueueOptions{Durable: true, Version: 2}}})
	if err != nil {
		t.Fatal(err)
	}
	if _, rec, err := v2.RecoverQueue("q"); err != nil || len(rec.Messages) != 0 {
		t.Fatalf("recover: %v, %d messages", err, len(rec.Messages))
	}
	for _, f := range []string{"0.qi", "0.qs"} {
		if _, err := fsys.Stat(path.Join(q.Dir(), f)); err == nil {
			t.Errorf("%s not deleted", f)
		}
	}
}
