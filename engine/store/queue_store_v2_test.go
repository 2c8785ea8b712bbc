package store

import (
	"path"
	"testing"
)

// The .qs file goes through a delayed_write buffer: written at the queue's
// sync, once 512000 bytes are buffered, or 10 s after the oldest byte.
func TestQueueStoreDelayedWrite(t *testing.T) {
	p := Profile310()
	fsys, v, q := v2Queue(t, p)
	qs := path.Join(q.Dir(), "0.qs")
	entry := 8 + len(small(t, 0).Term)
	q.Tick(1000)
	mustPublish(t, v, q, 0, small(t, 0))
	if got := fileSize(t, fsys, qs); got != 0 {
		t.Fatalf("0.qs is %d bytes: the header and entry must wait in the buffer", got)
	}
	if at, ok := q.Deadline(); !ok || at != 11000 {
		t.Fatalf("deadline %d %v, want 11000", at, ok)
	}
	if ops, _ := q.Tick(10999); ops.Writes != 0 {
		t.Fatal("written before the deadline")
	}
	if ops, _ := q.Tick(11000); ops.Writes != 1 || fileSize(t, fsys, qs) != int64(64+entry) {
		t.Fatalf("at the deadline: %v", ops)
	}
	// 512000 bytes of small messages go out without waiting.
	seq := uint64(1)
	for ; ; seq++ {
		res := mustPublish(t, v, q, seq, small(t, int(seq)))
		if res.IO.Writes == 1 {
			break
		}
	}
	if buffered := int(seq) * entry; buffered < p.QueueStoreBufferSize || buffered-entry >= p.QueueStoreBufferSize {
		t.Fatalf("buffer written after %d messages (%d bytes)", seq, buffered)
	}
}

// The read cache keeps at most 512000 bytes of payload; reads past it
// come from the file.
func TestQueueStoreCache(t *testing.T) {
	_, v, q := v2Queue(t, Profile310())
	size := len(small(t, 0).Term)
	n := 0
	for ; n*size <= 512000; n++ {
		mustPublish(t, v, q, uint64(n), small(t, n))
	}
	if q.qs.cacheSize > 512000 || len(q.qs.cache) != n-1 {
		t.Fatalf("cache %d bytes, %d entries of %d", q.qs.cacheSize, len(q.qs.cache), n)
	}
	term, ops, err := q.Read(uint64(n - 1))
	if err != nil || ops.Reads == 0 || len(term) != size {
		t.Fatalf("read past the cache: %v, %v", err, ops)
	}
	if _, ops, _ := q.Read(0); ops.Reads != 0 {
		t.Fatalf("read of a cached message touched the file: %v", ops)
	}
}
