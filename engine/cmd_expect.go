package engine

// Goals: `expect` checks the simulation against what an exercise asks for,
// without changing it. A goal is met or not yet met; neither is an error.
//
//	expect queue=jobs messages=0 consumers=2
//	expect on=c2.1 saw=deliver tag=1 body=urgent

import (
	"strings"
	"time"

	"warren/engine/say"
	"warren/engine/script"
)

// Goal is the outcome of one expect command.
type Goal struct {
	Met bool
	// Say says what was checked, and what was found when it is not met.
	Say say.Text
	// Checks are the values a goal on a queue, a process, a credit link
	// or a file compares, wanted and found, in the goal's order: what a
	// widget draws beside the reader's state. Other goals have none.
	Checks []Check
}

// Check is one value a goal compares. Of is the most it can be when
// that is known (a credit link's initial credit for left=), else 0.
type Check struct {
	Name, Want, Found string
	Of                int
}

// Text is what the goal found, in English.
func (g Goal) Text() string { return g.Say.String() }

// Said is the line a goal prints, as data: "goal met: ..." or "goal not
// met: ...".
func (g Goal) Said() say.Text {
	key := "con.goalNotMet"
	if g.Met {
		key = "con.goalMet"
	}
	return say.T(key, g.Say)
}

// Line is the line a goal prints.
func (g Goal) Line() string { return g.Said().String() }

// Expect checks one goal line against the simulation as it is now. An
// error means the line is not a goal (a typo, another command), or that
// checking it took past a budget of a command: a goal that looks through
// the trace lines (saw=, never=dropped, after=) looks at no more of them
// than a command runs events, and under a time budget (SetTimeBudget)
// stops once it has taken that long.
func (s *Sim) Expect(line string) (Goal, error) {
	cmd, err := s.goalCommand(line)
	if err != nil {
		return Goal{}, err
	}
	return s.expect(cmd, s.deadline())
}

// ExpectWithin is Expect with at most d of the time budget left (the
// goals of one exercise share one budget: the page checks them all after
// each step); d < 1 leaves none, and the goal is not checked.
func (s *Sim) ExpectWithin(line string, d time.Duration) (Goal, error) {
	cmd, err := s.goalCommand(line)
	if err != nil {
		return Goal{}, err
	}
	lim := s.limits()
	if lim.wall <= 0 {
		return s.expect(cmd, 0)
	}
	if d <= 0 {
		return Goal{}, say.E("con.expectNotChecked", lim.wall.String())
	}
	return s.expect(cmd, s.now()+int64(min(d, lim.wall)))
}

// goalCommand reads a goal: an expect line.
func (s *Sim) goalCommand(line string) (script.Command, error) {
	cmd, err := script.ParseLine(line, 0)
	if err != nil {
		return script.Command{}, err
	}
	if cmd.Name != "expect" {
		spec, _ := script.Lookup("expect")
		return script.Command{}, &script.Error{Col: 1, Cmd: cmd.Name, Msg: say.T("con.goalIsExpect"), Hint: say.S("con.usage", spec.Usage)}
	}
	return cmd, nil
}

// expectCommands are the goals.
var expectCommands = []command{
	{"expect", handler{family: familyExpect, run: func(s *Sim, cmd script.Command, _ bool) ([]string, error) {
		g, err := s.expect(cmd, s.budget.deadline)
		if err != nil {
			return nil, err
		}
		return []string{s.sayLine(g.Said())}, nil
	}}},
}

// expect checks a goal; its look through the trace lines stops at
// deadline (now's units, 0: none) or after as many lines as a command
// runs events, with an error that says so.
func (s *Sim) expect(cmd script.Command, deadline int64) (Goal, error) {
	s.look = look{deadline: deadline}
	g := s.expectGoal(cmd)
	stop := s.look.stop
	s.look = look{}
	if stop.Key != "" {
		return Goal{}, &say.Error{Text: stop}
	}
	return g, nil
}

// look bounds a goal's look through the trace lines (eachLine).
type look struct {
	deadline int64
	stop     say.Text // why it stopped
}

// eachLine calls fn with the trace lines up to now, in order, until it
// returns true, inside the budgets of s.look (which says so when they
// stopped it).
func (s *Sim) eachLine(fn func(l TraceLine) bool) {
	lim := s.limits()
	for i, n := 0, s.TranscriptLen(); i < n; i++ {
		switch {
		case int64(i) >= lim.events:
			s.look.stop = say.S("con.expectStopLines", thousands(int64(i)))
			return
		case s.look.deadline != 0 && i%timeCheckEvery == 0 && i > 0 && s.now() > s.look.deadline:
			s.look.stop = say.S("con.expectStopTime", thousands(int64(i)), lim.wall.String())
			return
		}
		if fn(s.client.lines.line(i)) {
			return
		}
	}
}

func (s *Sim) expectGoal(cmd script.Command) Goal {
	if g, ok := s.expectMore(cmd); ok {
		return s.within(cmd, g)
	}
	if cmd.Has("queue") {
		return s.within(cmd, s.expectQueue(cmd))
	}
	return s.within(cmd, s.expectSaw(cmd))
}

// expectQueue compares a queue's list_queues columns with the wanted
// values.
func (s *Sim) expectQueue(cmd script.Command) Goal {
	name := cmd.Str("queue", "")
	if q, ok := s.cluster.QueueInfo(name); ok {
		found := map[string]string{}
		for _, a := range cmd.Args {
			if cmd.Spec.IsTableKey(a.Key) {
				found[a.Key] = queueColumn(q, a.Key)
			}
		}
		return compare(cmd, "queue "+name, found)
	}
	var want []string
	for _, a := range cmd.Args {
		if cmd.Spec.IsTableKey(a.Key) {
			want = append(want, a.Key+"="+a.Val)
		}
	}
	return Goal{Say: say.S("engine.g.noQueue", "queue "+name+" "+strings.Join(want, " "), name)}
}

// queueGoalMet says whether a goal on a queue's columns holds, as
// expectQueue would find, without the sentences it writes: a #@when's
// look checks its goal at every event. ok is false for a goal of any
// other form, which only expect can check.
func (s *Sim) queueGoalMet(cmd script.Command) (met, ok bool) {
	if !cmd.Has("queue") || cmd.Has("within-ms") || moreForm(cmd) != "" {
		return false, false
	}
	q, found := s.cluster.QueueInfo(cmd.Str("queue", ""))
	if !found {
		return false, true
	}
	for _, a := range cmd.Args {
		if cmd.Spec.IsTableKey(a.Key) && queueColumn(q, a.Key) != a.Val {
			return false, true
		}
	}
	return true, true
}

// expectSaw looks for a trace line of the channel or connection with the
// kind and fields asked for: each field is a word of the line.
func (s *Sim) expectSaw(cmd script.Command) Goal {
	on := cmd.On().String()
	kind := cmd.Str("saw", "")
	fields := sawFields(cmd)
	what := say.S("engine.g.saw", on, strings.Join(append([]string{kind}, fields...), " "))
	met := false
	s.eachLine(func(l TraceLine) bool {
		met = sawLine(l.Text, on, kind, fields)
		return met
	})
	if met {
		return Goal{Met: true, Say: what}
	}
	return Goal{Say: say.T("engine.g.noLine", what)}
}

// sawFields are the words a saw= goal wants in the line: its FIELD=V
// pairs and flags.
func sawFields(cmd script.Command) []string {
	var fields []string
	for _, a := range cmd.Args {
		switch {
		case cmd.Spec.IsTableKey(a.Key):
			fields = append(fields, a.Key+"="+a.Val)
		case a.Key == "redelivered" || a.Key == "persistent":
			fields = append(fields, a.Key)
		}
	}
	return fields
}

// sawLine says whether a trace line is on's, of kind, with every field as
// one of its words.
func sawLine(line, on, kind string, fields []string) bool {
	words := strings.Fields(line)
	if len(words) < 2 || words[0] != on || words[1] != kind {
		return false
	}
	for _, f := range fields {
		found := false
		for _, w := range words[2:] {
			if w == f {
				found = true
				break
			}
		}
		if !found {
			return false
		}
	}
	return true
}
