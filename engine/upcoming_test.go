package engine

import "testing"

// TestUpcomingNamesTheNextTimer: a consumer that has not acked leaves the
// node idle with the channel's consumer-timeout tick next, 30 minutes
// away; while publishes are still being handled a process can run now;
// an empty node has nothing coming.
func TestUpcomingNamesTheNextTimer(t *testing.T) {
	s := runScript(t, `queue.declare queue=q
basic.consume queue=q tag=c on=c2.1
basic.publish key=q body=a`)
	u, ok := s.Upcoming()
	if !ok || !u.Timer || u.Process != "channel c2.1" || u.What != "tick" || u.In < 30*60_000_000 {
		t.Fatalf("after the delivery, upcoming is %+v (ok %v): want the channel's timer, minutes away", u, ok)
	}
	s = New(Options{Record: true})
	mustExec(t, s, "queue.declare queue=q")
	mustExec(t, s, "submit basic.publish key=q body=a")
	if u, ok := s.Upcoming(); !ok || u.Timer || u.In != 0 {
		t.Errorf("with a publish handed to the node, upcoming is %+v (ok %v): want work now", u, ok)
	}
	if _, ok := New(Options{}).Upcoming(); ok {
		t.Error("an empty node has something upcoming")
	}
}
