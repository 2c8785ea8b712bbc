package engine

import (
	"strings"
	"testing"
)

// TestFirstEventWhere: the first event at which a reader's credit toward
// its channel is 0 is found, the goal holds there and not one event
// before, and the simulation is left where it was.
func TestFirstEventWhere(t *testing.T) {
	s := New(Options{Record: true})
	mustExec(t, s,
		"queue.declare queue=q",
		"basic.publish key=q size=100 count=2000",
	)
	end := s.Furthest()
	goal := `expect credit="reader c1 -> channel c1.1" left=0`
	n, ok, err := s.FirstEventWhere(goal, 0)
	if err != nil || !ok {
		t.Fatalf("not found: %v %v", ok, err)
	}
	if s.Runtime().Events() != end {
		t.Errorf("left at event %d, want %d", s.Runtime().Events(), end)
	}
	if err := s.SeekEvent(n); err != nil {
		t.Fatal(err)
	}
	if g, _ := s.Expect(goal); !g.Met {
		t.Errorf("at event %d: %s", n, g.Line())
	}
	if err := s.SeekEvent(n - 1); err != nil {
		t.Fatal(err)
	}
	if g, _ := s.Expect(goal); g.Met {
		t.Errorf("already met at event %d", n-1)
	}
	if again, ok, _ := s.FirstEventWhere(goal, n+1); ok && again <= n {
		t.Errorf("searching from %d finds %d", n+1, again)
	}
	if _, ok, err := s.FirstEventWhere(`expect queue=q messages=99999`, 0); ok || err != nil {
		t.Errorf("a goal that never holds: %v %v", ok, err)
	}
	if _, _, err := s.FirstEventWhere(`basic.get queue=q`, 0); err == nil || !strings.Contains(err.Error(), "a goal is an expect command") {
		t.Errorf("not a goal: %v", err)
	}
}
