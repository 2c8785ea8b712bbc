package engine

import (
	"strings"
	"testing"
)

// TestFilesSayAckedNotYetWritten: after basic.ack a version 2 queue's
// .qi and .qs, written while it was idle, still read their entries as
// present until the index
// flushes its acks (RabbitMQ's own behaviour); the Files view marks them
// acked, not yet written ('A'), and once the queue is idle and has
// written the acks, the slots read dead.
func TestFilesSayAckedNotYetWritten(t *testing.T) {
	s := runScript(t, `queue.declare queue=q durable x-queue-version=2
basic.publish key=q body=a persistent count=3
run ms=1000
basic.consume queue=q tag=c on=c2.1`)
	mustExec(t, s, "basic.ack tag=2 on=c2.1")
	marks := func() map[string]string {
		out := map[string]string{}
		for _, f := range s.node.FileViews() {
			if strings.HasSuffix(f.Path, ".qi") || strings.HasSuffix(f.Path, ".qs") {
				out[f.Path[strings.LastIndexByte(f.Path, '.'):]] = strings.ToUpper(f.Marks)
			}
		}
		return out
	}
	if got := marks(); got[".qi"] != "LAL" || got[".qs"] != "LAL" {
		t.Fatalf("right after the ack of tag 2 the files mark %v: want the second entry of each acked, not yet written (LAL)", got)
	}
	mustExec(t, s, "run ms=10000")
	if got := marks(); strings.Contains(got[".qi"]+got[".qs"], "A") || got[".qi"] != "LDL" {
		t.Errorf("once the queue has written its acks the files mark %v: want the slot dead (LDL) and nothing acked-unwritten", got)
	}
}
