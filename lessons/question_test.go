package lessons

import (
	"strings"
	"testing"

	"warren/engine"
)

// TestQuestionsHoldAgainstTheEngine: every question of every lesson, in
// every language, is whole (an ask, a why, choices with one right or a
// number), is asked before the moment it is about, and a number's answer
// is what the engine finds there: its goal holds at the moment with the
// answer and not with the answer plus or minus one.
func TestQuestionsHoldAgainstTheEngine(t *testing.T) {
	for _, l := range withTranslations(t) {
		blocks, err := l.Scenarios()
		if err != nil {
			t.Fatal(err)
		}
		for _, b := range blocks {
			s := played(t, l, b)
			qs, err := s.Questions()
			if err != nil {
				t.Errorf("%s: %v", l.File, err)
				continue
			}
			numbered := false
			for _, q := range qs {
				numbered = numbered || q.Number
			}
			if !numbered || strings.HasPrefix(l.File, "zh/") {
				continue // the English block's numbers are the translation's
			}
			checkNumberAnswers(t, l, s, qs)
		}
	}
}

// checkNumberAnswers runs a block and checks each number question's goal
// at the moment the question is about.
func checkNumberAnswers(t *testing.T, l Lesson, s Scenario, qs []Question) {
	t.Helper()
	sim, momentOf := runForQuestions(t, l, s)
	for _, q := range qs {
		if !q.Number {
			continue
		}
		moment := momentOf(q)
		holds := func(n int) bool {
			e, ok, err := sim.FirstEventWhere(q.GoalFor(n), moment)
			if err != nil {
				t.Fatalf("%s:%d: question %s: %v", l.File, q.Line, q.Name, err)
			}
			return ok && e == moment
		}
		if !holds(q.Answer) {
			t.Errorf("%s:%d: question %s: the answer %d is not what the engine finds at %s (event %d): %s does not hold", l.File, q.Line, q.Name, q.Answer, q.At, moment, q.GoalFor(q.Answer))
		}
		if holds(q.Answer-1) || holds(q.Answer+1) {
			t.Errorf("%s:%d: question %s: %s holds for other numbers than %d, so it checks nothing", l.File, q.Line, q.Name, q.Goal, q.Answer)
		}
	}
}

// runForQuestions runs a block as the widget does and returns the
// simulation with where each question's moment is (its mark, or the
// first event its when finds), failing on a moment that never comes.
func runForQuestions(t *testing.T, l Lesson, s Scenario) (*engine.Sim, func(Question) int64) {
	t.Helper()
	steps, err := s.Steps()
	if err != nil {
		t.Fatal(err)
	}
	ds, err := s.Directives()
	if err != nil {
		t.Fatal(err)
	}
	sim, at := runSteps(t, l, steps)
	return sim, func(q Question) int64 {
		t.Helper()
		for _, d := range ds {
			if d.Text != q.At {
				continue
			}
			switch d.Kind {
			case "mark":
				return at[d.After]
			case "when":
				n, ok, err := sim.FirstEventWhere(d.Goal, at[d.After])
				if err != nil || !ok {
					t.Fatalf("%s:%d: question %s: the moment %s never comes (%v)", l.File, q.Line, q.Name, q.At, err)
				}
				return n
			}
		}
		t.Fatalf("%s:%d: question %s: no mark or when %s in the block", l.File, q.Line, q.Name, q.At)
		return -1
	}
}

// TestQuestionErrorsSayWhere: a malformed question says its line and what
// is wrong.
func TestQuestionErrorsSayWhere(t *testing.T) {
	for _, c := range []struct{ script, want string }{
		{"#@ask Who?", "line 11: #@ask comes before any #@question"},
		{"#@question q at=m\n#@ask Who?\n#@why Because.\nrun ms=1\n#@mark m", `line 11: question "q" needs two or more choices`},
		{"run ms=1\n#@mark m\n#@question q at=m\n#@ask Who?\n#@choice a\n#@correct b\n#@why Because.", `line 13: question "q" is asked after the moment m`},
		{"#@question q at=nowhere", "line 11: at=nowhere names no #@mark or #@when"},
		{"#@question q at=m\n#@ask How many?\n#@answer 3 queue=q messages=3\n#@why Because.\nrun ms=1\n#@mark m", "line 13: #@answer needs a number and a goal with {n}"},
	} {
		_, err := Scenario{Line: 10, Script: c.script}.Questions()
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%q: got %v, want %q", c.script, err, c.want)
		}
	}
}

// minQuestions is how many predict-then-see questions every lesson asks.
const minQuestions = 2

// TestEveryLessonAsksQuestions: every lesson, in every language, asks the
// reader at least two questions before its widgets show the answer, so
// that each lesson checks understanding as well as showing it. (That a
// translation's ask, choices and why are in its own language is
// TestTranslationsKeepTheLesson's.)
func TestEveryLessonAsksQuestions(t *testing.T) {
	for _, l := range withTranslations(t) {
		blocks, err := l.Scenarios()
		if err != nil {
			t.Fatal(err)
		}
		n := 0
		for _, b := range blocks {
			s := played(t, l, b)
			qs, err := s.Questions()
			if err != nil {
				t.Fatalf("%s: %v", l.File, err)
			}
			n += len(qs)
		}
		if n < minQuestions {
			t.Errorf("%s asks %d questions (%s), want at least %d", l.File, n, QuestionPrefix, minQuestions)
		}
	}
}
