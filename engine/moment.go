package engine

import "fmt"

// FirstEventWhere finds the first event, from event from on, at which the
// goal (an expect line) holds: the moment a lesson's "#@when" line names.
// ok is false when it never holds up to the end of the timeline. The
// simulation is left at the event it showed before.
func (s *Sim) FirstEventWhere(goal string, from int64) (n int64, ok bool, err error) {
	if _, err := s.Expect(goal); err != nil {
		return 0, false, err
	}
	end := s.Furthest()
	if from < 0 || from > end {
		return 0, false, fmt.Errorf("when: event %d is outside the timeline (0 to %d)", from, end)
	}
	back := s.rt.Events()
	defer func() {
		if e := s.SeekEvent(back); e != nil && err == nil {
			err = e
		}
	}()
	for n = from; n <= end; n++ {
		if err := s.SeekEvent(n); err != nil {
			return 0, false, err
		}
		g, _ := s.Expect(goal)
		if g.Met {
			return n, true, nil
		}
	}
	return 0, false, nil
}
