package engine

// The end of the timeline, kept aside. A seek puts a copy of a checkpoint
// in place of the state and replays from it; the state it replaces is
// dropped, unless it was the state at the end: that one is parked (head)
// and a seek back to the end takes it up again, whatever the events
// between, where it would replay from the checkpoint nearest the end. The
// reader who drags the slider to the end, or steps back from the end and
// forward again, waits for nothing.
//
// A parked state is the end as the run that recorded it left it, the same
// state a replay to the end would make (a replay runs the same events).
// It holds what the end holds, beside the state the seek shows: a state
// whose messages and files take more than parkHeldBytes is dropped as
// before, not to double what the largest simulations hold.
//
// A new command at a state before the end drops the history after it,
// and the parked end with it (branch). RunOptions.AtEnd runs one at the
// end instead, while the simulation stays at the event it shows: a
// lesson's block opens at its moment and runs the rest of its script
// behind the reader.

// parkHeldBytes is the most a parked end may hold (HeldBytes). The
// lesson blocks whose ends hold more, 30 to 57 MB, are on "When publishers
// are blocked": parked, they added 25 MB to a tab already at 0.9 GB, for
// a seek to the end that few readers make there.
var parkHeldBytes int64 = 8 << 20

// parkHead keeps the state aside before a seek replaces it, if it is the
// state at the end of the timeline.
func (s *Sim) parkHead() {
	if !s.opts.Record || !s.atEnd() || s.heldBytes() > parkHeldBytes {
		return
	}
	h := s.state
	s.head = &h
}

// atEnd says the state is the end of the timeline: every operation
// applied, whole.
func (s *Sim) atEnd() bool {
	return s.applied == len(s.ops) && s.partial == 0 && s.rt.Events() == s.Furthest()
}

// dropLargeHead drops a parked end that holds more than parkHeldBytes:
// runAtEnd parks the end whatever it holds, for the next line of the
// rest, and a seek elsewhere (a reader's) lets it go.
func (s *Sim) dropLargeHead() {
	if s.head != nil && s.head.heldBytes() > parkHeldBytes {
		s.head = nil
	}
}

// takeHead puts the parked end back in place.
func (s *Sim) takeHead() {
	h := *s.head
	s.head = nil
	s.replaceState(h)
}

// runAtEnd is Run with RunOptions.AtEnd: the line runs on the state at the
// end of the timeline (the parked one, or one a seek replays to), which is
// parked again after it, whatever it holds (the next line runs there
// too); the simulation is then at the event it was at before, in the same
// state (when that was the end, a copy of it; a line that runs no event
// leaves it at the end). Unrecorded, it is Run.
func (s *Sim) runAtEnd(line string, o RunOptions) Result {
	if !s.opts.Record {
		return s.Run(line, o)
	}
	n, wasEnd := s.rt.Events(), s.atEnd()
	var view *state
	switch {
	case wasEnd:
		// the moment shown is the end: a copy of it stays (a state that
		// cannot be copied is found again by a seek, after)
		if st, _, err := s.copyState(0); err == nil {
			view = st
		}
	case s.head != nil:
		v := s.state
		view = &v
		s.takeHead()
	default:
		if err := s.SeekEvent(s.Furthest()); err != nil {
			// a budget stopped the way there: the line does not run, and
			// the simulation goes back where it was, if it can
			s.SeekEvent(n)
			s.said = nil
			r := Result{Err: err, Lines: []string{s.sayError(err)}}
			if t, ok := s.said[r.Lines[0]]; ok {
				r.Said = []SaidLine{{0, t}}
			}
			return r
		}
	}
	r := s.Run(line, o)
	if wasEnd && s.Furthest() == n {
		return r // no event past the moment shown: it is still the end
	}
	end := s.state
	if view != nil {
		s.replaceState(*view)
	} else if err := s.SeekEvent(n); err != nil {
		// a budget stopped the way back: the end stays in place
		s.head = nil
		s.replaceState(end)
		return r
	}
	s.head = &end
	return r
}
