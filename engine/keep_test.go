package engine

import (
	"errors"
	"slices"
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
// its copy, replaying nothing, one a little after it replays only what
// lies between, and a step back from it starts from the copy the seek
// there took a little before, which Keep kept too; where nothing is kept
// near, a seek replays from the start. Each way the state is the one a
// replay from the start gives.
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
	if cs := s.Checkpoints(); cs.Kept != 2 || cs.Bytes == 0 {
		t.Fatalf("after Keep, want the moment and the seek's copy before it: %+v", cs)
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
	seekBudgetOf(s)
	if err := s.SeekEvent(n); err != nil {
		t.Fatal(err)
	}
	s.cps.near = nil
	if err := s.StepBack(); err != nil {
		t.Fatalf("a step back from the kept %d: %v", n, err)
	}
	s.budgetLimits = nil
	sameState(t, n-1, here(t, s), stateAt(t, ref, n-1, false))
	// before the copies kept, the seek replays from the start, and the
	// budget stops it
	if err := s.SeekEvent(end); err != nil {
		t.Fatal(err)
	}
	s.cps.near = nil
	seekBudgetOf(s)
	var stop *SeekStopped
	if err := s.SeekEvent(n - nearGap - 1); !errors.As(err, &stop) {
		t.Fatalf("a seek to %d with nothing kept before it replayed within one chunk: %v", n-nearGap-1, err)
	}
	s.budgetLimits = nil
}

// TestKeepHoldsAFew: Keep holds maxPinned copies, the oldest dropped for
// a new one, a second Keep at the same event keeps one copy, the
// thinning of the run's checkpoints leaves them alone, and new history
// drops those after where it branches.
func TestKeepHoldsAFew(t *testing.T) {
	s := checkpointSim(t, 200) // a checkpoint near every moment: no seek's copy to keep
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
	if got := pinned(); !slices.Equal(got, kept[1:]) {
		t.Fatalf("kept %v, Keep holds %v", kept, got)
	}
	for len(s.cps.list) > 1 {
		s.cps.thin()
	}
	if got := pinned(); !slices.Equal(got, kept[1:]) {
		t.Fatalf("the thinning left %v of the kept %v", got, kept[1:])
	}
	if cp := s.cps.nearest(kept[2] + 5); cp == nil || cp.at != kept[2] {
		t.Fatalf("the checkpoint nearest %d is %+v", kept[2]+5, cp)
	}
	branch := (kept[1] + kept[2]) / 2
	if err := s.SeekEvent(branch); err != nil {
		t.Fatal(err)
	}
	s.runLine("step n=3")
	if got := pinned(); !slices.Equal(got, kept[1:2]) {
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
