//go:build !js

package engine

import (
	"strings"
	"testing"
)

// The browser build refuses stop_app (its recovery code is left out), so
// a queue whose node is down exists only natively.

// TestSnapshotOfQueueOnStoppedNode: a durable queue whose node is stopped
// has no process; the snapshot and the views show its record, marked
// down, instead of failing.
func TestSnapshotOfQueueOnStoppedNode(t *testing.T) {
	s := New(Options{Record: true})
	mustExec(t, s, "cluster nodes=2", "connect on=c2 node=2", "queue.declare queue=q durable on=c2.1", "stop_app node=2")
	snap := s.Snapshot()
	if len(snap.Queues) != 1 || snap.Queues[0].Name != "q" || !snap.Queues[0].Down {
		t.Fatalf("queues in the snapshot: %+v", snap.Queues)
	}
	for _, l := range s.runLine(stateViews) {
		if strings.HasPrefix(l, "error") {
			t.Fatal(l)
		}
	}
}
