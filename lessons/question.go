package lessons

import (
	"fmt"
	"strconv"
	"strings"
)

// A question asks the reader to predict a moment before the widget shows
// it. It stands where its `#@question NAME at=MOMENT` line is: Play stops
// there until the reader answers; MOMENT, a mark or a when of the block,
// is the moment the answer is about. The lines after it give the question
// (`#@ask`), then either choices (`#@choice` for a wrong one, `#@correct`
// for the right one) or a number (`#@answer N GOAL`, where GOAL is an
// expect goal with {n} standing for the number: the tests check that it
// holds at MOMENT), and why (`#@why`), shown once the reader has answered.
// The ask, the choices and the why are prose, translated; the rest is the
// same in every language.

// Question directive prefixes.
const (
	QuestionPrefix = "#@question"
	AskPrefix      = "#@ask"
	ChoicePrefix   = "#@choice"
	CorrectPrefix  = "#@correct"
	AnswerPrefix   = "#@answer"
	WhyPrefix      = "#@why"
)

// QuestionProse lists the question lines a translation says in its own
// words.
var QuestionProse = []string{AskPrefix, ChoicePrefix, CorrectPrefix, WhyPrefix}

func isQuestionWord(w string) bool {
	switch w {
	case QuestionPrefix, AskPrefix, ChoicePrefix, CorrectPrefix, AnswerPrefix, WhyPrefix:
		return true
	}
	return false
}

// Choice is one choice of a question.
type Choice struct {
	Text    string
	Correct bool
}

// Question is one predict-then-see question of a block.
type Question struct {
	// Line is the line of the lesson file its #@question line is on.
	Line int
	Name string
	// At is the mark or when whose moment the question is about.
	At string
	// After is how many of the block's commands run before it is asked.
	After   int
	Ask     string
	Choices []Choice
	// Number says the question takes a number: Answer, for which Goal
	// (an expect line with {n} replaced by it) holds at the moment At.
	Number bool
	Answer int
	Goal   string
	Why    string
}

// Questions lists the block's questions. Each has a name of lowercase
// letters, digits and dashes used once, an at= naming a mark or when of
// the block that stands after it, an ask, a why, and either two or more
// choices with one correct or a number with its goal.
func (s Scenario) Questions() ([]Question, error) {
	ds, err := s.Directives()
	if err != nil {
		return nil, err
	}
	moments := map[string]int{} // mark or when -> commands before it
	for _, d := range ds {
		if d.Kind == "mark" || d.Kind == "when" {
			moments[d.Text] = d.After
		}
	}
	var out []Question
	for _, d := range ds {
		word := "#@" + d.Kind
		if !isQuestionWord(word) {
			continue
		}
		if word == QuestionPrefix {
			name, at, _ := strings.Cut(d.Text, " ")
			at = strings.TrimSpace(at)
			m, ok := strings.CutPrefix(at, "at=")
			if !validSlug(name) || !ok || !validSlug(m) {
				return nil, fmt.Errorf("line %d: %s needs a name and at=MOMENT, as in %s credit-left at=spent; got %q", d.Line, QuestionPrefix, QuestionPrefix, d.Text)
			}
			for _, q := range out {
				if q.Name == name {
					return nil, fmt.Errorf("line %d: question %q is already asked on line %d", d.Line, name, q.Line)
				}
			}
			after, ok := moments[m]
			if !ok {
				return nil, fmt.Errorf("line %d: at=%s names no %s or %s line of the block", d.Line, m, MarkPrefix, WhenPrefix)
			}
			if after <= d.After {
				return nil, fmt.Errorf("line %d: question %q is asked after the moment %s it asks about: it must stand before the commands that lead there", d.Line, name, m)
			}
			out = append(out, Question{Line: d.Line, Name: name, At: m, After: d.After})
			continue
		}
		if len(out) == 0 {
			return nil, fmt.Errorf("line %d: %s comes before any %s", d.Line, word, QuestionPrefix)
		}
		q := &out[len(out)-1]
		if d.Text == "" {
			return nil, fmt.Errorf("line %d: %s needs words after it", d.Line, word)
		}
		switch word {
		case AskPrefix:
			q.Ask = d.Text
		case WhyPrefix:
			q.Why = d.Text
		case ChoicePrefix, CorrectPrefix:
			q.Choices = append(q.Choices, Choice{Text: d.Text, Correct: word == CorrectPrefix})
		case AnswerPrefix:
			num, goal, _ := strings.Cut(d.Text, " ")
			n, err := strconv.Atoi(num)
			goal = strings.TrimSpace(goal)
			if err != nil || !strings.Contains(goal, "{n}") {
				return nil, fmt.Errorf("line %d: %s needs a number and a goal with {n} in it, as in %s 208 credit=\"reader c1 -> channel c1.1\" left={n}; got %q", d.Line, AnswerPrefix, AnswerPrefix, d.Text)
			}
			q.Number, q.Answer, q.Goal = true, n, "expect "+goal
		}
	}
	for _, q := range out {
		right := 0
		for _, c := range q.Choices {
			if c.Correct {
				right++
			}
		}
		switch {
		case q.Ask == "" || q.Why == "":
			return nil, fmt.Errorf("line %d: question %q needs an %s line and a %s line", q.Line, q.Name, AskPrefix, WhyPrefix)
		case q.Number && len(q.Choices) > 0:
			return nil, fmt.Errorf("line %d: question %q has both choices and an %s", q.Line, q.Name, AnswerPrefix)
		case !q.Number && (len(q.Choices) < 2 || right != 1):
			return nil, fmt.Errorf("line %d: question %q needs two or more choices, one of them %s, or an %s", q.Line, q.Name, CorrectPrefix, AnswerPrefix)
		}
	}
	return out, nil
}

// GoalFor is the number question's goal with n in it.
func (q Question) GoalFor(n int) string {
	return strings.ReplaceAll(q.Goal, "{n}", strconv.Itoa(n))
}
