package engine

import (
	"math/rand"
	"slices"
	"testing"

	"warren/engine/trace"
)

// TestBlockedEventsPrintAsSorted: a command's events, kept in blocks and
// printed from them when they arrived in output order, print exactly as
// trace.Lines prints the same events in one slice, and a bounded Run's
// bound prints the start of that: runs in order, runs with a lower
// channel or connection late, and confirms out of sequence, each across
// several blocks and on a block's edge.
func TestBlockedEventsPrintAsSorted(t *testing.T) {
	rng := rand.New(rand.NewSource(11))
	deliver := func(conn, ch int, tag uint64) trace.Event {
		return trace.Event{Conn: conn, Chan: ch, Kind: trace.Deliver, ConsumerTag: "c", DeliveryTag: tag, Exchange: "", Key: "q", Body: []byte("b")}
	}
	confirm := func(conn, ch int, seq uint64) trace.Event {
		return trace.Event{Conn: conn, Chan: ch, Kind: trace.ConfirmAck, Seq: seq}
	}
	cases := map[string][]trace.Event{}
	for _, n := range []int{1, eventBlock - 1, eventBlock, eventBlock + 1, 3*eventBlock + 7} {
		var inOrder, late, confirms []trace.Event
		for i := range n {
			inOrder = append(inOrder, deliver(2, 1, uint64(i+1)))
			late = append(late, deliver(2, 1+i%3, uint64(i+1)))
			confirms = append(confirms, confirm(1, 1, uint64(n-i)))
		}
		late = append(late, deliver(1, 1, 1)) // a lower connection, last
		cases["in order "+itoa(n)] = inOrder
		cases["late "+itoa(n)] = late
		cases["confirms "+itoa(n)] = confirms
		mixed := slices.Clone(inOrder)
		for i := range mixed {
			if rng.Intn(4) == 0 {
				mixed[i] = confirm(2, 1, uint64(rng.Intn(5)))
			}
		}
		cases["mixed "+itoa(n)] = mixed
	}
	for name, events := range cases {
		want := trace.Lines(slices.Clone(events))
		for _, most := range []int{0, 1, eventBlock, len(events) + 1} {
			s := New(Options{Record: true})
			for i := range events {
				s.client.add(&events[i])
			}
			if most > 0 {
				s.printing = showing{on: true, left: most}
			}
			got := s.lines()
			w := want
			if most > 0 {
				w = want[:min(most, len(want))]
				if s.printing.unprinted != len(want)-len(w) {
					t.Errorf("%s, at most %d: %d unprinted, want %d", name, most, s.printing.unprinted, len(want)-len(w))
				}
			}
			if !slices.Equal(got, w) {
				t.Fatalf("%s, at most %d: the lines differ from trace.Lines' (%d against %d)", name, most, len(got), len(w))
			}
			if len(s.client.events) != 0 || len(s.client.spare) == 0 {
				t.Fatalf("%s: the blocks were not handed back (%d kept, %d spare)", name, len(s.client.events), len(s.client.spare))
			}
		}
	}
}
