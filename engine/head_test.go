package engine

import (
	"errors"
	"testing"
)

// TestSeekBackToTheParkedEnd: a seek away from the end parks the state at
// the end, and a seek back there takes it up again, replaying nothing
// (within a budget of one chunk of replay, where a replay from the start
// would stop), in the state a replay from the start gives; new commands
// there print what they print after such a replay.
func TestSeekBackToTheParkedEnd(t *testing.T) {
	s := checkpointSim(t, 1<<40) // no checkpoint of the run's own
	ref := checkpointSim(t, 1<<40)
	end := s.Furthest()
	if end < 2*seekChunkEvents {
		t.Fatalf("a run of %d events is too short to tell a replay", end)
	}
	for _, n := range []int64{end / 2, 1, end - 1} {
		if err := s.SeekEvent(n); err != nil {
			t.Fatal(err)
		}
		if s.head == nil {
			t.Fatalf("a seek from the end to %d parked nothing", n)
		}
		seekBudgetOf(s)
		if err := s.SeekEvent(end); err != nil {
			t.Fatalf("back to the end from %d: %v", n, err)
		}
		s.budgetLimits = nil
		if s.head != nil {
			t.Fatalf("back at the end from %d, the end is still parked", n)
		}
		sameState(t, end, here(t, s), stateAt(t, ref, end, false))
	}
	// a replay to the end, with no end parked, is stopped by that budget:
	// the test above tells the two apart
	if err := s.SeekEvent(end / 2); err != nil {
		t.Fatal(err)
	}
	s.head = nil
	seekBudgetOf(s)
	var stop *SeekStopped
	if err := s.SeekEvent(end); !errors.As(err, &stop) {
		t.Fatalf("a replay from the start to %d stayed within one chunk: %v", end, err)
	}
	s.budgetLimits = nil
	// new commands at the end taken up again
	if err := s.SeekEvent(end); err != nil {
		t.Fatal(err)
	}
	if err := s.SeekEvent(end / 3); err != nil {
		t.Fatal(err)
	}
	if err := s.SeekEvent(end); err != nil {
		t.Fatal(err)
	}
	stateAt(t, ref, end, false)
	for _, l := range []string{"step n=40", "basic.publish key=p body=z{i} count=25", "basic.get queue=p", "run"} {
		a, b := s.runLine(l), ref.runLine(l)
		if len(a) != len(b) {
			t.Fatalf("%s: %d lines after the parked end, %d after a replay", l, len(a), len(b))
		}
		for i := range a {
			if a[i] != b[i] {
				t.Fatalf("%s, line %d: %q after the parked end, %q after a replay", l, i, a[i], b[i])
			}
		}
	}
	sameState(t, s.rt.Events(), here(t, s), here(t, ref))
}

// TestNewHistoryDropsTheParkedEnd: a command at a state before the end
// drops the history after it, and the end parked with it; the new end is
// where a seek to the end goes.
func TestNewHistoryDropsTheParkedEnd(t *testing.T) {
	s := checkpointSim(t, 1<<40)
	end := s.Furthest()
	if err := s.SeekEvent(end / 2); err != nil {
		t.Fatal(err)
	}
	if s.head == nil {
		t.Fatal("nothing parked")
	}
	s.runLine("basic.publish key=p body=new")
	if s.head != nil {
		t.Fatal("the end of the dropped history is still parked")
	}
	newEnd := s.Furthest()
	if newEnd >= end {
		t.Fatalf("the new history ends at %d, the dropped one at %d", newEnd, end)
	}
	if err := s.SeekEvent(newEnd / 2); err != nil {
		t.Fatal(err)
	}
	if err := s.SeekEvent(newEnd); err != nil {
		t.Fatal(err)
	}
	if got := s.rt.Events(); got != newEnd {
		t.Fatalf("at event %d, want the new end %d", got, newEnd)
	}
}
