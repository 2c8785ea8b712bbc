package engine

import (
	"errors"
	"slices"
	"strings"
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

// TestRunAtEndKeepsTheView runs the second half of a script at the end
// while the simulation shows a moment of the first half, from the end
// (the moment just reached, as a lesson's block opens there) and from
// before it: the simulation stays at that moment, in the state a replay
// gives, and the timeline grows as if the lines had run at the end: the
// same events, trace and end state as a run of the whole script.
func TestRunAtEndKeepsTheView(t *testing.T) {
	half := len(checkpointScript) / 2
	ref := New(Options{Record: true})
	mustExec(t, ref, checkpointScript...)
	for _, back := range []int64{0, 40} {
		s := New(Options{Record: true})
		mustExec(t, s, checkpointScript[:half]...)
		n := s.Furthest() - back
		if err := s.SeekEvent(n); err != nil {
			t.Fatal(err)
		}
		want := here(t, s)
		for _, l := range checkpointScript[half:] {
			if r := s.Run(l, RunOptions{AtEnd: true}); r.Err != nil {
				t.Fatalf("%s: %v", l, r.Err)
			}
			if got := s.rt.Events(); got != n {
				t.Fatalf("after %q at the end, the simulation shows event %d, not %d", l, got, n)
			}
		}
		sameState(t, n, here(t, s), want)
		if s.Furthest() != ref.Furthest() {
			t.Fatalf("the timeline ends at %d, a run of the whole script at %d", s.Furthest(), ref.Furthest())
		}
		if err := s.SeekEvent(s.Furthest()); err != nil {
			t.Fatal(err)
		}
		sameState(t, s.Furthest(), here(t, s), stateAt(t, ref, ref.Furthest(), false))
		if a, b := s.Transcript(), ref.Transcript(); !slices.Equal(a, b) {
			t.Fatalf("a transcript of %d lines, the whole script's %d", len(a), len(b))
		}
		if a, b := s.Markers(), ref.Markers(); len(a) != len(b) {
			t.Fatalf("%d markers, the whole script's %d", len(a), len(b))
		}
		for _, e := range []int64{1, ref.Furthest() / 2, ref.Furthest()} {
			if a, b := s.log.At(e), ref.log.At(e); a != b {
				t.Fatalf("event %d: %+v, the whole script's %+v", e, a, b)
			}
		}
	}
}

// TestRunAtEndRefused: a line refused at the end leaves the timeline and
// the moment shown as they were, and says why.
func TestRunAtEndRefused(t *testing.T) {
	s := checkpointSim(t, 1<<40)
	end := s.Furthest()
	if err := s.SeekEvent(end / 2); err != nil {
		t.Fatal(err)
	}
	r := s.Run("basic.bogus key=x", RunOptions{AtEnd: true})
	if r.Err == nil || len(r.Lines) != 1 || !strings.HasPrefix(r.Lines[0], "error: ") {
		t.Fatalf("a bad ack at the end: %+v", r)
	}
	if s.rt.Events() != end/2 || s.Furthest() != end {
		t.Fatalf("at event %d of %d, want %d of %d", s.rt.Events(), s.Furthest(), end/2, end)
	}
}

// TestRunAtEndStoppedOnTheWay: with the end not parked and a seek budget
// too small to replay there, a line at the end is refused, says why, and
// the simulation is back at the event it showed.
func TestRunAtEndStoppedOnTheWay(t *testing.T) {
	s := checkpointSim(t, 1<<40)
	end := s.Furthest()
	if err := s.SeekEvent(end / 2); err != nil {
		t.Fatal(err)
	}
	s.head = nil
	seekBudgetOf(s)
	r := s.Run("basic.publish key=p body=x", RunOptions{AtEnd: true})
	s.budgetLimits = nil
	var stop *SeekStopped
	if !errors.As(r.Err, &stop) || len(r.Said) != 1 || !strings.HasPrefix(r.Lines[0], "error: ") {
		t.Fatalf("a line at an end a seek cannot reach: %+v", r)
	}
	if s.Furthest() != end {
		t.Fatalf("the timeline ends at %d, not %d", s.Furthest(), end)
	}
}

// TestLargeEndParkedForTheRestOnly: a line at the end parks the end
// whatever it holds, for the next line, and a seek elsewhere lets an end
// over parkHeldBytes go; a seek to the end then replays there.
func TestLargeEndParkedForTheRestOnly(t *testing.T) {
	defer func(was int64) { parkHeldBytes = was }(parkHeldBytes)
	parkHeldBytes = 0 // every end is large
	s := checkpointSim(t, 1<<40)
	ref := checkpointSim(t, 1<<40)
	mustExec(t, ref, "basic.publish key=p body=more count=5")
	end := s.Furthest()
	if err := s.SeekEvent(end / 2); err != nil {
		t.Fatal(err)
	}
	if s.head != nil {
		t.Fatal("a large end was parked by a seek")
	}
	if r := s.Run("basic.publish key=p body=more count=5", RunOptions{AtEnd: true}); r.Err != nil {
		t.Fatal(r.Err)
	}
	if s.head == nil {
		t.Fatal("a line at the end did not park the end for the next")
	}
	if err := s.SeekEvent(end/2 + 1); err != nil {
		t.Fatal(err)
	}
	if s.head != nil {
		t.Fatal("a seek elsewhere kept a large end parked")
	}
	if err := s.SeekEvent(s.Furthest()); err != nil {
		t.Fatal(err)
	}
	sameState(t, s.Furthest(), here(t, s), stateAt(t, ref, ref.Furthest(), false))
}
