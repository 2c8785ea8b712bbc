package engine

import "sort"

// EventAtTime is the last recorded event that starts at or before virtual
// time t (µs), anywhere on the timeline as far as it was run (Furthest),
// or 0 when none does: playback by virtual time goes from event to event
// at the pace of the node's own clock. Events start in order (the
// runtime always runs the work that can start earliest), so it searches.
func (s *Sim) EventAtTime(t int64) int64 {
	n := s.log.Len()
	// the first event that starts after t, less one
	i := sort.Search(int(n), func(i int) bool { return s.log.At(int64(i)+1).Start > t })
	return int64(i)
}
