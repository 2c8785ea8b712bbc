package lessons

import (
	"strings"
	"testing"

	"warren/engine/scenario"
)

// TestPowerLossExercisesNeedAPowerLoss checks that an exercise whose
// solution goes through a power loss cannot be met by a crash instead: the
// same solution with `restart kind=crash` leaves a goal unmet, since a
// crash keeps what was written but not synced.
func TestPowerLossExercisesNeedAPowerLoss(t *testing.T) {
	all, err := All()
	if err != nil {
		t.Fatal(err)
	}
	found := 0
	for _, l := range all {
		blocks, err := l.Scenarios()
		if err != nil {
			t.Fatal(err)
		}
		for _, b := range blocks {
			if !b.Info.Exercise || !strings.Contains(b.Script, "restart kind=power-loss") {
				continue
			}
			ex, err := b.Exercise()
			if err != nil {
				t.Fatalf("%s: %v", l.File, err)
			}
			found++
			steps, err := ex.Setup.Steps()
			if err != nil {
				t.Fatal(err)
			}
			sim := lessonSim(t, l)
			for _, s := range steps {
				scenario.Exec(target(sim), s)
			}
			for _, s := range ex.Solution {
				s.Command = strings.ReplaceAll(s.Command, "kind=power-loss", "kind=crash")
				scenario.Exec(target(sim), s)
			}
			met := 0
			for _, g := range ex.Goals {
				res, err := sim.Expect(g.Command)
				if err != nil {
					t.Fatalf("%s:%d: %v", l.File, g.Line, err)
				}
				if res.Met {
					met++
				}
			}
			if met == len(ex.Goals) {
				t.Errorf("%s:%d: %q: its solution with a crash instead of the power loss meets every goal too", l.File, b.Line, b.Info.Title)
			}
		}
	}
	if found < 2 {
		t.Errorf("found %d exercises that go through a power loss, want at least 2", found)
	}
}
