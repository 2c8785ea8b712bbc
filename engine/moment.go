package engine

import (
	"warren/engine/say"
)

// FirstEventWhere finds the first event, from event from on, at which the
// goal (an expect line) holds: the moment a lesson's "#@when" line names.
// ok is false when it never holds up to the end of the timeline. The
// simulation is left at the event it showed before.
//
// A scan is inside the budgets of a command: it looks at no more events
// than a command runs, and under a time budget (SetTimeBudget) it stops
// once it has taken that long; either way it says so in an error, so that
// a link's #@when lines cannot hold a tab for the whole of a long
// timeline each. The seeks it makes and the goal it checks at each event
// share its time budget; the seek back to where it started has its own.
func (s *Sim) FirstEventWhere(goal string, from int64) (n int64, ok bool, err error) {
	cmd, err := s.goalCommand(goal)
	if err != nil {
		return 0, false, err
	}
	end := s.Furthest()
	if from < 0 || from > end {
		return 0, false, say.E("con.whenOutside", i64(from), i64(end))
	}
	back := s.rt.Events()
	defer func() {
		if e := s.SeekEvent(back); e != nil && err == nil {
			err = e
		}
	}()
	lim := s.limits()
	deadline := s.deadline()
	if err := s.seekWithin(from, deadline); err != nil {
		return 0, false, err
	}
	for n = from; n <= end; n++ {
		switch looked := n - from; {
		case looked >= lim.events:
			return 0, false, say.E("con.whenStopEvents", thousands(looked), i64(n))
		case deadline != 0 && looked%timeCheckEvery == 0 && s.now() > deadline:
			return 0, false, say.E("con.whenStopTime", thousands(looked), i64(n), lim.wall.String())
		}
		if err := s.seekWithin(n, deadline); err != nil {
			return 0, false, err
		}
		g, err := s.expect(cmd, deadline)
		if err != nil {
			return 0, false, say.Wrap("con.whenAt", err, i64(n))
		}
		if g.Met {
			return n, true, nil
		}
	}
	return 0, false, nil
}
