package lessons

import (
	"regexp"
	"strconv"
	"strings"
	"testing"
)

// TestVariantsAskWhatTheEngineFinds: every other draw of a block's #@vary
// numbers runs, each number question's answer for it is what the engine
// finds at the question's moment (the value of its {n} field there, for
// which its goal holds and not with one more or one less), and the draw
// changes some question's answer: other numbers ask something else. At
// least one block of the course varies.
func TestVariantsAskWhatTheEngineFinds(t *testing.T) {
	varying := 0
	for _, l := range withTranslations(t) {
		blocks, err := l.Scenarios()
		if err != nil {
			t.Fatal(err)
		}
		for _, b := range blocks {
			vs, err := b.Varies()
			if err != nil {
				t.Errorf("%s: %v", l.File, err)
				continue
			}
			if len(vs) == 0 || strings.HasPrefix(l.File, "zh/") {
				continue // the English block's numbers are the translation's
			}
			varying++
			own, err := played(t, l, b).Questions()
			if err != nil {
				t.Fatalf("%s: %v", l.File, err)
			}
			for k := 1; k < b.Variants(); k++ {
				v := played(t, l, b.Variant(k))
				qs, err := v.Questions()
				if err != nil {
					t.Fatalf("%s: %v", l.File, err)
				}
				changed := false
				for i := range qs {
					if !qs[i].Number {
						continue
					}
					qs[i].Answer = engineAnswer(t, l, v, qs[i])
					changed = changed || qs[i].Answer != own[i].Answer
				}
				if !changed {
					t.Errorf("%s:%d: block %q: draw %d of its numbers gives every question the answer of the block's own", l.File, b.Line, b.Info.Title, k)
				}
				checkNumberAnswers(t, l, v, qs)
			}
		}
	}
	if varying == 0 {
		t.Error("no block of the course has a #@vary line")
	}
}

var answerField = regexp.MustCompile(`(?:^|\s)([a-z_-]+)=\{n\}(?:\s|$)`)

// engineAnswer is a number question's answer as the widget works it out
// for a draw of the block's numbers: at the question's moment, the value
// the engine finds for the field of its goal that holds {n}.
func engineAnswer(t *testing.T, l Lesson, s Scenario, q Question) int {
	t.Helper()
	m := answerField.FindStringSubmatch(q.Goal)
	if m == nil {
		t.Fatalf("%s:%d: question %s: its goal %q has no FIELD={n}", l.File, q.Line, q.Name, q.Goal)
	}
	sim, momentOf := runForQuestions(t, l, s)
	if err := sim.SeekEvent(momentOf(q)); err != nil {
		t.Fatal(err)
	}
	g, err := sim.Expect(q.GoalFor(0))
	if err != nil {
		t.Fatalf("%s:%d: question %s: %v", l.File, q.Line, q.Name, err)
	}
	for _, c := range g.Checks {
		if c.Name == m[1] {
			n, err := strconv.Atoi(c.Found)
			if err != nil {
				t.Fatalf("%s:%d: question %s: %s is %q, not a number", l.File, q.Line, q.Name, c.Name, c.Found)
			}
			return n
		}
	}
	t.Fatalf("%s:%d: question %s: the engine gives no %s for %s", l.File, q.Line, q.Name, m[1], q.GoalFor(0))
	return 0
}
