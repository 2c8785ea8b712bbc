package engine

import (
	"warren/engine/say"
	"warren/engine/script"
)

// When is a moment to find: the first event, from event From on, at which
// Goal (an expect line) holds.
type When struct {
	Goal string
	From int64
}

// FirstEventWhere finds the first event, from event from on, at which the
// goal (an expect line) holds: the moment a lesson's "#@when" line names.
// ok is false when it never holds up to the end of the timeline. The
// simulation is left at the event it showed before.
func (s *Sim) FirstEventWhere(goal string, from int64) (n int64, ok bool, err error) {
	at, err := s.FirstEventsWhere([]When{{goal, from}})
	if err != nil {
		return 0, false, err
	}
	return at[0], at[0] >= 0, nil
}

// FirstEventsWhere finds the moments of a block's "#@when" lines in one
// pass over the timeline: at[i] is the first event from whens[i].From on
// at which whens[i].Goal holds, or -1 when it never does up to the end.
// One pass replays each event once, however many moments it looks for,
// where a scan per moment replayed the timeline up to each again. The
// simulation is left at the event it showed before.
//
// A pass is inside the budgets of a command: it looks at no more events
// than a command runs, and under a time budget (SetTimeBudget) each
// moment has that long to be found, counted from the start or from the
// moment found before it; either way a stop says so in an error, and the
// moments found before it keep their events (the others are -1), so that
// a link's #@when lines cannot hold a tab for the whole of a long
// timeline each. The seeks the pass makes and the goals it checks at each
// event share that budget; the seek back to where it started has its own.
func (s *Sim) FirstEventsWhere(whens []When) (at []int64, err error) {
	at = make([]int64, len(whens))
	cmds := make([]script.Command, len(whens))
	end := s.Furthest()
	first := end
	for i, w := range whens {
		at[i] = -1
		c, err := s.goalCommand(w.Goal)
		if err != nil {
			return at, err
		}
		if w.From < 0 || w.From > end {
			return at, say.E("con.whenOutside", i64(w.From), i64(end))
		}
		cmds[i] = c
		first = min(first, w.From)
	}
	if len(whens) == 0 {
		return at, nil
	}
	back := s.rt.Events()
	defer func() {
		if e := s.SeekEvent(back); e != nil && err == nil {
			err = e
		}
	}()
	lim := s.limits()
	deadline := s.deadline()
	if err := s.seekWithin(first, deadline); err != nil {
		return at, err
	}
	left := len(whens)
	for n := first; n <= end && left > 0; n++ {
		switch looked := n - first; {
		case looked >= lim.events:
			return at, say.E("con.whenStopEvents", thousands(looked), i64(n))
		case deadline != 0 && looked%timeCheckEvery == 0 && s.now() > deadline:
			return at, say.E("con.whenStopTime", thousands(looked), i64(n), lim.wall.String())
		}
		if err := s.seekWithin(n, deadline); err != nil {
			return at, err
		}
		for i, w := range whens {
			if at[i] >= 0 || w.From > n {
				continue
			}
			met, plain := s.queueGoalMet(cmds[i])
			if !plain {
				g, err := s.expect(cmds[i], deadline)
				if err != nil {
					return at, say.Wrap("con.whenAt", err, i64(n))
				}
				met = g.Met
			}
			if met {
				at[i] = n
				left--
				if deadline != 0 {
					deadline = s.deadline() // the next moment has a budget of its own
				}
			}
		}
	}
	return at, nil
}
