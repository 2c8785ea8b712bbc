package engine

import (
	"slices"
	"testing"
)

// TestAlarmTellsFlowBlockedPublisher: a publisher whose reader credit flow
// has already stopped is in rabbit_reader's state blocked, so when a
// memory alarm is raised control_throttle sends it connection.blocked at
// once, and list_connections shows it blocked, not blocking.
func TestAlarmTellsFlowBlockedPublisher(t *testing.T) {
	s := New(Options{})
	for _, l := range []string{"set trace=summary", "queue.declare queue=q", "submit basic.publish key=q body=x count=50000", "run ms=100"} {
		s.runLine(l)
	}
	// (show credit, unlike list_connections, does not run the node on)
	if got := s.runLine("show credit"); !slices.Contains(got, "credit reader c1 -> channel c1.1 0/400 blocked") {
		t.Fatalf("before the alarm: %q, want c1's reader stopped by credit flow", got)
	}
	got := s.runLine("alarm set=memory")
	if !slices.Contains(got, `c1 blocked reason="low on memory"`) {
		t.Errorf("alarm set=memory printed %q, want c1 told it is blocked", got)
	}
	if got := s.runLine("list_connections"); !slices.Contains(got, "connection name=c1 state=blocked channels=1") {
		t.Errorf("after the alarm: %q, want c1 blocked", got)
	}
	if got := s.runLine("alarm clear=memory"); !slices.Contains(got, "c1 unblocked") {
		t.Errorf("alarm clear=memory printed %q, want c1 unblocked", got)
	}
}
