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
// and the parked end with it (branch).

// parkHeldBytes is the most a parked end may hold (HeldBytes).
const parkHeldBytes = 32 << 20

// parkHead keeps the state aside before a seek replaces it, if it is the
// state at the end of the timeline.
func (s *Sim) parkHead() {
	if !s.opts.Record || s.applied != len(s.ops) || s.partial != 0 || s.rt.Events() != s.Furthest() || s.heldBytes() > parkHeldBytes {
		return
	}
	h := s.state
	s.head = &h
}

// takeHead puts the parked end back in place.
func (s *Sim) takeHead() {
	h := *s.head
	s.head = nil
	s.replaceState(h)
}
