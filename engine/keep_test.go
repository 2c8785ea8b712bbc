package engine

import (
	"errors"
	"testing"
)

// seekBudgetOf makes every seek of s stop after one chunk of replay
// (seekChunkEvents events): a seek that ends without a *SeekStopped
// replayed less than that.
func seekBudgetOf(s *Sim) {
	lim := s.limits()
	lim.seek = 1
	s.budgetLimits = &lim
}

// TestKeepSeeksWithoutReplay: a seek to the event Keep kept starts from
// its copy, replaying nothing, and one a little after it replays only
// what lies between, where with no checkpoint near a seek replays from
// the start; either way the state is the one a replay from the start
// gives.
func TestKeepSeeksWithoutReplay(t *testing.T) {
	s := checkpointSim(t, 1<<40) // no checkpoint of the run's own
	ref := checkpointSim(t, 1<<40)
	end := s.Furthest()
	n := end / 2
	if n < 2*seekChunkEvents {
		t.Fatalf("a run of %d events is too short to tell a replay", end)
	}
	if err := s.SeekEvent(n); err != nil {
		t.Fatal(err)
	}
	if err := s.Keep(); err != nil {
		t.Fatal(err)
	}
	if cs := s.Checkpoints(); cs.Kept != 1 || cs.Bytes == 0 {
		t.Fatalf("after Keep: %+v", cs)
	}
	for _, to := range []int64{n, n + 10} {
		if err := s.SeekEvent(end); err != nil {
			t.Fatal(err)
		}
		s.cps.near = nil // the seek's own copy is not what is tested
		seekBudgetOf(s)
		if err := s.SeekEvent(to); err != nil {
			t.Fatalf("a seek to %d, Keep having kept %d: %v", to, n, err)
		}
		s.budgetLimits = nil
		sameState(t, to, here(t, s), stateAt(t, ref, to, false))
	}
	// before the kept event, the seek replays from the start, and the
	// budget stops it
	s.cps.near = nil
	seekBudgetOf(s)
	var stop *SeekStopped
	if err := s.SeekEvent(n - 1); !errors.As(err, &stop) {
		t.Fatalf("a seek to %d with nothing kept before it replayed within one chunk: %v", n-1, err)
	}
	s.budgetLimits = nil
}

// TestKeepHoldsAFew: Keep holds maxPinned copies, the oldest dropped for
// a new one, a second Keep at the same event keeps one copy, the
// thinning of the run's checkpoints leaves them alone, and new history
// drops those after where it branches.
func TestKeepHoldsAFew(t *testing.T) {
	s := checkpointSim(t, 200)
	end := s.Furthest()
	var kept []int64
	for i := int64(1); i <= maxPinned+1; i++ {
		at := end * i / (maxPinned + 2)
		if err := s.SeekEvent(at); err != nil {
			t.Fatal(err)
		}
		for range 2 {
			if err := s.Keep(); err != nil {
				t.Fatal(err)
			}
		}
		kept = append(kept, at)
	}
	pinned := func() []int64 {
		var out []int64
		for _, cp := range s.cps.pinned {
			out = append(out, cp.at)
		}
		return out
	}
	if got := pinned(); len(got) != maxPinned || got[0] != kept[1] || got[maxPinned-1] != kept[maxPinned] {
		t.Fatalf("kept %v, Keep holds %v", kept, got)
	}
	for len(s.cps.list) > 1 {
		s.cps.thin()
	}
	if got := pinned(); len(got) != maxPinned {
		t.Fatalf("the thinning dropped kept copies: %v", got)
	}
	if cp := s.cps.nearest(kept[2]); cp == nil || cp.at != kept[2] {
		t.Fatalf("the checkpoint nearest %d is %+v", kept[2], cp)
	}
	branch := (kept[1] + kept[2]) / 2
	if err := s.SeekEvent(branch); err != nil {
		t.Fatal(err)
	}
	s.runLine("step n=3")
	if got := pinned(); len(got) != 1 || got[0] != kept[1] {
		t.Fatalf("after new history from %d, Keep holds %v", branch, got)
	}
}

// TestKeepWithoutHistory: a simulation that records no history has
// nothing to seek in, and Keep keeps nothing.
func TestKeepWithoutHistory(t *testing.T) {
	s := New(Options{})
	mustExec(t, s, "queue.declare queue=q", "basic.publish key=q count=10")
	if err := s.Keep(); err != nil {
		t.Fatal(err)
	}
	if cs := s.Checkpoints(); cs.Kept != 0 || cs.Bytes != 0 {
		t.Fatalf("Keep without a history: %+v", cs)
	}
}
