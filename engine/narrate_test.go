package engine

import (
	"strings"
	"testing"
)

// TestNarrate steps one publish through the node, then three more, and
// reads each event in words: what the process did and what it holds now.
func TestNarrate(t *testing.T) {
	s := runScript(t, `queue.declare queue=jobs
submit basic.publish key=jobs body=a count=3`)
	var said []string
	for s.Step(1) == 1 {
		said = append(said, s.NarrateNow().String())
	}
	want := []string{
		"reader c1 reads a frame from the client's socket; 2 more publishes wait unread",
		"channel c1.1 takes a command from reader c1; its mailbox is empty",
		"queue jobs takes a publish from its mailbox; 1 ready",
	}
	for _, w := range want {
		found := false
		for _, got := range said {
			if got == w {
				found = true
			}
		}
		if !found {
			t.Errorf("no event said %q; they said:\n\t%s", w, strings.Join(said, "\n\t"))
		}
	}
	if last := said[len(said)-1]; last != "queue jobs takes a publish from its mailbox; 3 ready" {
		t.Errorf("the last event says %q", last)
	}
	// seeking back speaks of the event there, as the state is then
	if err := s.SeekEvent(0); err != nil {
		t.Fatal(err)
	}
	if got := s.NarrateNow().String(); got != "nothing has run yet" {
		t.Errorf("at event 0: %q", got)
	}
	for _, got := range said {
		if strings.Contains(got, "#") || strings.Contains(got, "µs") {
			t.Errorf("the words carry the event line's notation: %q", got)
		}
	}
}

func TestNarrateAckAndCredit(t *testing.T) {
	s := runScript(t, `queue.declare queue=jobs
basic.qos prefetch=5 on=c2.1
basic.consume queue=jobs tag=w on=c2.1
basic.publish key=jobs body=a count=2
basic.ack tag=1 on=c2.1`)
	found := false
	for n := int64(1); n <= s.Furthest(); n++ {
		if err := s.SeekEvent(n); err != nil {
			t.Fatal(err)
		}
		if s.NarrateNow().String() == "queue jobs takes an ack from channel c2.1; 0 ready, 1 unacked" {
			found = true
		}
	}
	if !found {
		t.Error("no event says the queue took the ack with one message left unacked")
	}
	s = runScript(t, `queue.declare queue=orders
submit basic.publish key=orders body=m count=1000
run ms=100`)
	found = false
	for n := int64(1); n <= s.Furthest() && !found; n++ {
		e := s.Event(n)
		if err := s.SeekEvent(n); err != nil {
			t.Fatal(err)
		}
		if got := s.Narrate(&e).String(); strings.HasPrefix(got, "reader c1 gets more credit from channel c1.1; it may send ") {
			found = true
		}
	}
	if !found {
		t.Error("no credit grant to the reader is said in words")
	}
}
