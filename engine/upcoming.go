package engine

import "warren/engine/node"

// Upcoming is what the node does next, from the moment shown: a process
// that can run (In 0), or else the earliest timer, In µs of virtual time
// later, which sends What to Process. A widget at the end of its scenario
// uses it to stop where the story ends rather than run on half an hour to
// a consumer timeout.
type Upcoming struct {
	In      int64
	Timer   bool
	Process string
	What    string
}

// Upcoming says what happens next; ok is false when nothing ever will.
func (s *Sim) Upcoming() (u Upcoming, ok bool) {
	if !s.rt.Idle() {
		return Upcoming{}, true
	}
	at, to, kind, ok := s.rt.NextTimerTo()
	if !ok {
		return Upcoming{}, false
	}
	u = Upcoming{In: max(at-s.rt.Now(), 0), Timer: true, What: node.KindName(kind)}
	if p := s.rt.Process(to); p != nil {
		u.Process = p.Name
	}
	return u, true
}
