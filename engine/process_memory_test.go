package engine

import (
	"strings"
	"testing"
)

// TestProcessMemoryIsAFreshProcessEach: show process-memory gives every
// live process the 330 words (2640 bytes) of a fresh idle process on OTP
// 25, and their total: declaring a queue on a new connection adds four
// processes (reader, channel, writer, queue), 1320 words; a closed
// connection's processes are gone from it.
func TestProcessMemoryIsAFreshProcessEach(t *testing.T) {
	s := runScript(t, "queue.declare queue=orders")
	got := s.show("process-memory")
	want := []string{
		"reader c1 pid=1 words>=330 bytes>=2640",
		"channel c1.1 pid=2 words>=330 bytes>=2640",
		"writer c1.1 pid=3 words>=330 bytes>=2640",
		"queue orders pid=4 words>=330 bytes>=2640",
		"process-memory processes=4 words>=1320 bytes>=10560",
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("show process-memory after one declare:\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	s.runLine("queue.declare queue=billing on=c2.1")
	s.runLine("connection.close on=c1")
	got = s.show("process-memory")
	if last := got[len(got)-1]; last != "process-memory processes=5 words>=1650 bytes>=13200" {
		t.Errorf("after a second connection's declare and the first's close: total %q, want 5 processes, 1650 words", last)
	}
	for _, l := range got {
		if strings.HasPrefix(l, "reader c1 ") {
			t.Errorf("the closed connection's reader is still counted: %q", l)
		}
	}
}
