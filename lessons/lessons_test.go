package lessons

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"warren/engine"
	"warren/engine/scenario"
	"warren/engine/script"
)

// versions are the RabbitMQ release lines the engine has a profile for:
// the values `set version=` accepts.
func versions(t *testing.T) []string {
	t.Helper()
	set, ok := script.Lookup("set")
	if ok {
		for _, p := range set.Params {
			if p.Key == "version" {
				return p.Values
			}
		}
	}
	t.Fatal("the engine has no `set version=`")
	return nil
}

func TestFrontMatter(t *testing.T) {
	all, err := All()
	if err != nil {
		t.Fatal(err)
	}
	if len(all) < 2 {
		t.Fatalf("got %d lessons, want at least 2", len(all))
	}
	titles := map[string]string{}
	for i, l := range all {
		if l.Order != i+1 {
			t.Errorf("%s: order %d, want %d (lessons are numbered 1, 2, 3, ... with no gaps)", l.File, l.Order, i+1)
		}
		if !slices.Contains(versions(t), l.Version) {
			t.Errorf("%s: version %q, want one of the engine's profiles %v", l.File, l.Version, versions(t))
		}
		if prev, ok := titles[l.Title]; ok {
			t.Errorf("%s and %s have the same title %q", prev, l.File, l.Title)
		}
		titles[l.Title] = l.File
		if len(l.Summary) > 400 {
			t.Errorf("%s: the summary is %d bytes; keep it under 400 for the lesson list", l.File, len(l.Summary))
		}
		if !strings.Contains(l.Body, "RabbitMQ "+l.Version) {
			t.Errorf("%s: the text never says which RabbitMQ version it shows (%q)", l.File, "RabbitMQ "+l.Version)
		}
		if strings.Contains(l.Body, "\n# ") {
			t.Errorf("%s: the lesson title comes from the front matter; start sections at ##", l.File)
		}
	}
}

// TestScenarios runs every scenario block of every lesson on a fresh
// engine: no command may be refused (unless the block says error-ok), and
// every `#>` line must be printed by the command before it. A translation's
// blocks have the same commands, quoted output, marks, goals and solutions
// (TestTranslationsKeepTheLesson), so they are not run again.
func TestScenarios(t *testing.T) {
	all, err := All()
	if err != nil {
		t.Fatal(err)
	}
	for _, l := range all {
		blocks, err := l.Scenarios()
		if err != nil {
			t.Fatal(err)
		}
		if len(blocks) == 0 {
			t.Errorf("%s: no scenario blocks", l.File)
		}
		for _, b := range blocks {
			t.Run(fmt.Sprintf("%s:%d", l.Slug, b.Line), func(t *testing.T) {
				t.Parallel()
				if b.Info.Exercise {
					runExercise(t, l, b)
					return
				}
				if strings.Contains(b.Script, SolutionPrefix) {
					t.Errorf("%s:%d: a %s line in a block that is not marked `warren exercise`", l.File, b.Line, SolutionPrefix)
				}
				runScenario(t, l, b)
			})
		}
	}
}

// runExercise checks an exercise block: its setup runs as a scenario does,
// leaves at least one goal unmet (or there is nothing to do), and the
// solution then meets every goal.
func runExercise(t *testing.T, l Lesson, b Scenario) {
	ex, err := b.Exercise()
	if err != nil {
		t.Fatalf("%s: %v", l.File, err)
	}
	sim := runScenario(t, l, ex.Setup)
	goals := func() (met int, report []string) {
		for _, g := range ex.Goals {
			res, err := sim.Expect(g.Command)
			if err != nil {
				t.Fatalf("%s:%d: %s: %v", l.File, g.Line, g.Command, err)
			}
			if res.Met {
				met++
			}
			report = append(report, res.Line())
		}
		return met, report
	}
	if met, report := goals(); met == len(ex.Goals) {
		t.Errorf("%s:%d: every goal is met before the reader does anything:\n\t%s", l.File, b.Line, strings.Join(report, "\n\t"))
	}
	for _, s := range ex.Solution {
		for _, line := range scenario.Exec(target(sim), s) {
			if strings.HasPrefix(line, "error:") {
				t.Errorf("%s:%d: the solution's %s\n\t%s", l.File, s.Line, s.Command, line)
			}
		}
	}
	if met, report := goals(); met != len(ex.Goals) {
		t.Errorf("%s:%d: after the solution, goals are not met:\n\t%s", l.File, b.Line, strings.Join(report, "\n\t"))
	}
}

// runScenario runs one block as the widget does: a fresh simulation on the
// lesson's version profile, then the block's commands in order.
func runScenario(t *testing.T, l Lesson, b Scenario) *engine.Sim {
	file := l.File
	steps, err := b.Steps()
	if err != nil {
		t.Fatalf("%s: %v", file, err)
	}
	if len(steps) == 0 {
		t.Fatalf("%s:%d: the block has no commands", file, b.Line)
	}
	sim := lessonSim(t, l)
	refused := false
	for _, s := range steps {
		out := scenario.Exec(target(sim), s)
		for _, line := range out {
			if strings.HasPrefix(line, "error:") {
				refused = true
				if !b.Info.ErrorOK {
					t.Errorf("%s:%d: %s\n\t%s\n(mark the block `warren error-ok` if the error is the point)", file, s.Line, s.Command, line)
				}
			}
		}
		for _, want := range s.Expect {
			if !slices.Contains(out, want) {
				t.Errorf("%s:%d: %s\ndid not print the quoted line\n\t%s\nit printed:\n\t%s", file, s.Line, s.Command, want, strings.Join(head(out, 30), "\n\t"))
			}
		}
	}
	if b.Info.ErrorOK && !refused {
		t.Errorf("%s:%d: the block is marked error-ok but no command was refused", file, b.Line)
	}
	checkOpenMoment(t, l, b, steps)
	return sim
}

// lessonSim is a fresh recording simulation on the lesson's version
// profile, what the widget runs a block on.
func lessonSim(t *testing.T, l Lesson) *engine.Sim {
	t.Helper()
	sim := engine.New(engine.Options{Record: true})
	if out := scenario.Exec(target(sim), Step{Command: "set version=" + l.Version}); len(out) > 0 {
		t.Fatalf("%s: set version=%s: %v", l.File, l.Version, out)
	}
	return sim
}

func head(lines []string, n int) []string {
	if len(lines) <= n {
		return lines
	}
	return append(lines[:n:n], fmt.Sprintf("... and %d more lines", len(lines)-n))
}
