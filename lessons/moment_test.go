package lessons

import (
	"slices"
	"strings"
	"testing"

	"warren/engine"
	"warren/engine/scenario"
)

// checkOpenMoment checks that the widget opens where the prose is: every
// line a block quotes from a query (show, list_queues) that ran before the
// moment the widget opens at must still be printed when the same query is
// asked at that moment, after a seek there as the widget does. Quotes of
// later commands are what playing on shows, checked as they print.
//
// It runs the block again on a simulation of its own, since a query such
// as list_queues after a seek back makes that moment the end of history.
// A block that opens at a `#@when` opens at the first event its goal holds
// at: the queries of the commands that have run by then are checked.
func checkOpenMoment(t *testing.T, l Lesson, b Scenario, steps []Step) {
	t.Helper()
	if _, err := b.Directives(); err != nil {
		t.Fatalf("%s: %v", l.File, err)
	}
	k, err := b.OpenAfter()
	if err != nil {
		t.Fatalf("%s: %v", l.File, err)
	}
	sim, at := runSteps(t, l, steps)
	moment := at[k]
	checked := steps[:k] // the queries among them are asked again at the moment
	if goal, ok := b.OpenWhen(); ok {
		// the first event from there on at which the goal holds: the
		// commands run by then, and the queries right after the command
		// the moment falls in, describe it
		n, found, err := sim.FirstEventWhere(goal, moment)
		if err != nil || !found {
			t.Fatalf("%s:%d: open=%s: %q never holds from event %d on (%v)", l.File, b.Line, b.Info.Open, goal, moment, err)
		}
		moment = n
		for k < len(steps) && at[k+1] <= moment {
			k++
		}
		checked = slices.Clone(steps[:k])
		for j := k + 1; k < len(steps) && j < len(steps) && IsQuery(steps[j].Command); j++ {
			checked = append(checked, steps[j])
		}
	}
	if k < len(steps) || sim.Furthest() != moment {
		if err := sim.SeekEvent(moment); err != nil {
			t.Fatalf("%s:%d: the widget cannot open at event %d: %v", l.File, b.Line, moment, err)
		}
	}
	for _, s := range checked {
		if len(s.Expect) == 0 || !IsQuery(s.Command) {
			continue
		}
		out := scenario.Exec(target(sim), s)
		for _, want := range s.Expect {
			if !slices.Contains(out, want) {
				t.Errorf("%s:%d: the widget opens at event %d (open=%s), where %s\ndoes not print the quoted line\n\t%s\nit prints:\n\t%s\n(put a %s line where the prose is and open there)",
					l.File, s.Line, moment, openName(b), s.Command, want, strings.Join(head(out, 30), "\n\t"), MarkPrefix)
			}
		}
	}
}

func openName(b Scenario) string {
	if b.Info.Open == "" {
		return OpenEnd
	}
	return b.Info.Open
}

// TestExercisesTeach: exercises give hints (up to three, which Exercise
// checks), and the prose after each (up to the next heading or block) (up to the next heading) does not give the solution
// away: it names no word of the solution, in backticks, that the prompt
// before it, the setup and the goals do not already show.
func TestExercisesTeach(t *testing.T) {
	all, err := All()
	if err != nil {
		t.Fatal(err)
	}
	exercises, hinted := 0, 0
	for _, l := range all {
		blocks, err := l.Scenarios()
		if err != nil {
			t.Fatal(err)
		}
		lines := strings.Split(l.Body, "\n")
		for _, b := range blocks {
			if !b.Info.Exercise {
				continue
			}
			exercises++
			ex, err := b.Exercise()
			if err != nil {
				t.Fatal(err)
			}
			if len(ex.Hints) > 0 {
				hinted++
			}
			shown := ex.Setup.Script
			for _, g := range ex.Goals {
				shown += " " + g.Command
			}
			// and the prompt before the block
			open := b.Line - l.BodyLine
			for i := open - 1; i >= 0 && !strings.HasPrefix(lines[i], "#") && !strings.HasPrefix(lines[i], "```"); i-- {
				shown += " " + lines[i]
			}
			secret := map[string]bool{}
			for _, s := range ex.Solution {
				for _, w := range strings.Fields(s.Command) {
					if !strings.Contains(shown, w) {
						secret[w] = true
					}
				}
			}
			// the prose after the block's closing fence
			start := b.Line - l.BodyLine + 1 + len(strings.Split(b.Script, "\n")) + 1
			for i := start; i < len(lines) && !strings.HasPrefix(lines[i], "#") && !strings.HasPrefix(lines[i], "```"); i++ {
				for j, part := range strings.Split(lines[i], "`") {
					if j%2 == 0 {
						continue // outside backticks
					}
					for _, w := range strings.Fields(part) {
						if secret[w] {
							t.Errorf("%s:%d: the text after the exercise gives its solution away: `%s`", l.File, l.BodyLine+i, w)
						}
					}
				}
			}
		}
	}
	if exercises < 5 || hinted < 5 {
		t.Errorf("%d exercises, %d with hints: want at least 5 of each", exercises, hinted)
	}
}

// runSteps runs a block's commands on a fresh recording simulation of the
// lesson's version, as the widget does, and returns it with at[k], the
// events once k commands ran.
func runSteps(t *testing.T, l Lesson, steps []Step) (*engine.Sim, []int64) {
	t.Helper()
	sim := lessonSim(t, l)
	at := []int64{sim.EventCount()}
	for _, s := range steps {
		scenario.Exec(target(sim), s)
		at = append(at, sim.EventCount())
	}
	return sim, at
}

// target runs a block's lines on sim through its front door, each with its
// line in the lesson.
func target(sim *engine.Sim) scenario.Target {
	return scenario.LineRunner(func(line string, n int) []string { return sim.Run(line, engine.RunOptions{Line: n}).Lines })
}
