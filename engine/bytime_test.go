package engine

import "testing"

// TestEventAtTime finds, for times across a recorded run and after a seek
// back, the last event starting at or before each: never one after it,
// never an earlier one when the next also starts in time.
func TestEventAtTime(t *testing.T) {
	s := runScript(t, `queue.declare queue=q
basic.consume queue=q tag=c on=c2.1 ack-every=1
basic.publish key=q size=100 count=500`)
	end := s.Furthest()
	if err := s.SeekEvent(end / 3); err != nil { // a seek back leaves the whole timeline searchable
		t.Fatal(err)
	}
	last := s.Event(end).Start
	for _, at := range []int64{-1, 0, 1, 250, last / 7, last / 2, last - 1, last, last + 1_000_000} {
		n := s.EventAtTime(at)
		if n > 0 && s.log.At(n).Start > at {
			t.Errorf("t=%d: event %d starts at %d, after it", at, n, s.log.At(n).Start)
		}
		if n < end && s.log.At(n+1).Start <= at {
			t.Errorf("t=%d: event %d, but event %d starts at %d, in time too", at, n, n+1, s.log.At(n+1).Start)
		}
	}
	if got := s.EventAtTime(last + 1_000_000); got != end {
		t.Errorf("after the last event: %d, want %d", got, end)
	}
}
