package engine

import (
	"strings"
	"testing"

	"warren/engine/node"
)

// TestTxCommitWaitsForConfirms: tx.commit-ok leaves the channel only
// after the queue has confirmed the transaction's publishes, which for a
// persistent message on a durable queue is after the message store
// synced it (rabbit_channel's maybe_complete_tx).
func TestTxCommitWaitsForConfirms(t *testing.T) {
	s := New(Options{Record: true})
	runLines(t, s, "queue.declare queue=q durable", "tx.select", "basic.publish key=q body=p persistent")
	from := s.EventCount()
	runLines(t, s, "tx.commit")
	var confirmAt, lastWrite int64
	for n := from + 1; n <= s.EventCount(); n++ {
		e := s.Event(n)
		name, kind := s.procName(e.PID), node.KindName(e.Kind)
		switch {
		case name == "channel c1.1" && kind == "confirm":
			confirmAt = e.N
		case name == "writer c1.1" && kind == "send_command":
			lastWrite = e.N
		}
	}
	if confirmAt == 0 {
		t.Fatalf("the queue never confirmed the transaction's publish")
	}
	if lastWrite < confirmAt {
		t.Errorf("commit-ok was written at event %d, before the queue's confirm at event %d", lastWrite, confirmAt)
	}
	if got := strings.Join(s.runLine("list_queues name messages"), "\n"); got != "queue name=q messages=1" {
		t.Errorf("after the commit: %s", got)
	}
}
