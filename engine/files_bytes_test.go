package engine

import (
	"slices"
	"strings"
	"testing"
)

// fileBytesOf reads the file of the snapshot whose path ends in suffix.
func fileBytesOf(t *testing.T, s *Sim, suffix string) FileBytes {
	t.Helper()
	for _, f := range s.Snapshot().Files {
		if strings.HasSuffix(f.Path, suffix) {
			fb, err := s.FileBytes(f.Path)
			if err != nil {
				t.Fatal(err)
			}
			if fb.Size != f.Size || int64(len(fb.Data)) != f.Size || fb.Synced != f.Synced || fb.Kind != f.Kind {
				t.Fatalf("%s: %s of %d bytes (%d read, %d synced), the view says %s of %d (%d synced)", f.Path, fb.Kind, fb.Size, len(fb.Data), fb.Synced, f.Kind, f.Size, f.Synced)
			}
			return fb
		}
	}
	t.Fatalf("no file ends in %s", suffix)
	return FileBytes{}
}

// TestFileBytesV2: the Files view reads a version 2 queue's files with the
// node's dead entries: the .qs entry an ack left is dead once the flush
// zeroed its slot (at offset 64, the first entry), the message store entry
// no queue references is dead at once.
func TestFileBytesV2(t *testing.T) {
	s := New(Options{})
	mustExec(t, s, slices.Concat(filesScript, getsAndAcks)...)
	want := map[string][]int64{".qi": nil, ".qs": nil, "persistent/0.rdq": {0}}
	for suffix, w := range want {
		if got := fileBytesOf(t, s, suffix).Dead; !slices.Equal(got, w) {
			t.Errorf("acked, not flushed: %s has dead entries at %v, want %v", suffix, got, w)
		}
	}
	mustExec(t, s, "wait ms=1500")
	want = map[string][]int64{".qi": nil, ".qs": {64}, "persistent/0.rdq": {0}}
	for suffix, w := range want {
		if got := fileBytesOf(t, s, suffix).Dead; !slices.Equal(got, w) {
			t.Errorf("flushed: %s has dead entries at %v, want %v", suffix, got, w)
		}
	}
	if qi := fileBytesOf(t, s, ".qi"); string(qi.Data[:4]) != "RCQI" {
		t.Errorf(".qi starts with %q", qi.Data[:4])
	}
	if _, err := s.FileBytes("queues/nothing/0.qi"); err == nil || !strings.Contains(err.Error(), "no file queues/nothing/0.qi") {
		t.Errorf("a missing file: %v", err)
	}
}

// TestFileBytesV1: 3.10's default index writes journal.jif and, at the
// idle flush, 0.idx; the view reads both with the vhost's segment size.
func TestFileBytesV1(t *testing.T) {
	s := New(Options{})
	mustExec(t, s,
		"queue.declare queue=v1 durable",
		"confirm.select",
		"basic.publish key=v1 size=100 count=2 persistent",
		"basic.get queue=v1 on=c1.2",
		"basic.ack tag=1 on=c1.2",
	)
	if j := fileBytesOf(t, s, "journal.jif"); j.Kind != "jif" || j.PerSegment != 2048 || len(j.Dead) != 0 {
		t.Errorf("journal.jif: %s, %d a segment, dead %v", j.Kind, j.PerSegment, j.Dead)
	}
	mustExec(t, s, "wait ms=3000")
	if idx := fileBytesOf(t, s, "0.idx"); idx.Kind != "idx" || idx.Size == 0 {
		t.Errorf("0.idx: %s of %d bytes", idx.Kind, idx.Size)
	}
}
