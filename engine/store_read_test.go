package engine

import (
	"strings"
	"testing"
)

// TestPagedMessagesAreReadBackOneAtATime: a 3.10 queue that paged its
// messages out to msg_store_transient reads each back as it delivers it,
// one rabbit_msg_store:read per message, whatever its size: show reads
// lists one read of its entry per message taken, in the file the store
// wrote it to. A message still in the store's current file comes from the
// store's cache, without a read.
func TestPagedMessagesAreReadBackOneAtATime(t *testing.T) {
	const paged = `set watermark=50000000 file-size-limit=1048576
queue.declare queue=work
basic.publish key=work size=5000 count=1500
run ms=1500`
	s := runScript(t, paged+"\nbasic.get queue=work no-ack\nbasic.get queue=work no-ack\nbasic.get queue=work no-ack")
	reads := s.show("reads")
	if len(reads) != 3 {
		t.Fatalf("three gets of paged messages: show reads prints %d lines, want 3:\n%s", len(reads), strings.Join(reads, "\n"))
	}
	for _, r := range reads {
		if !strings.HasPrefix(r, "read msg_store_transient/") || !strings.Contains(r, ".rdq 5190@") || !strings.HasSuffix(r, " queue=work") {
			t.Errorf("read line %q, want a read of one 5190-byte entry of msg_store_transient by work", r)
		}
	}
	if reads[0] == reads[1] {
		t.Errorf("two gets read the same entry: %q", reads[0])
	}

	// without paging, nothing is read back; in the store's current file,
	// the cache serves them
	for _, c := range []struct{ settings, why string }{
		{"set watermark=500000000 file-size-limit=1048576", "a queue under the paging threshold read %q, want nothing: its messages are in memory"},
		{"set watermark=50000000", "a message in msg_store_transient's current file was read %q, want it from the store's cache"},
	} {
		s = runScript(t, c.settings+`
queue.declare queue=work
basic.publish key=work size=5000 count=1500
run ms=1500
basic.get queue=work no-ack`)
		if reads := s.show("reads"); len(reads) != 0 {
			t.Errorf(c.why, reads)
		}
	}
}
