package engine

import (
	"strings"
	"testing"
)

// A consumer tag freed by basic.cancel can be used again on the channel
// while the old consumer's deliveries are unacked. rabbit_limiter keys
// per-consumer credit by tag (ack_from_queue(Limiter, CTag, Credit)), so
// acking the old deliveries gives credit to the new consumer: with
// prefetch 2 it ends up holding four unacked deliveries, and only then
// does it stop at its prefetch. Built with
// -tags invariants, the queue's checks run after every step.
func TestConsumerTagReusedAfterCancel(t *testing.T) {
	s := New(Options{Record: true})
	steps := []struct{ line, want string }{
		{"queue.declare queue=q", "c1.1 declare-ok queue=q messages=0 consumers=0"},
		{"basic.publish key=q body=m{i} count=6", ""},
		{"basic.qos prefetch=2 on=c1.2", ""},
		{"basic.consume queue=q tag=c on=c1.2", "c1.2 consume-ok tag=c|c1.2 deliver consumer=c tag=1 exchange= key=q body=m0|c1.2 deliver consumer=c tag=2 exchange= key=q body=m1"},
		{"basic.cancel tag=c on=c1.2", ""},
		{"basic.consume queue=q tag=c on=c1.2", "c1.2 consume-ok tag=c|c1.2 deliver consumer=c tag=3 exchange= key=q body=m2|c1.2 deliver consumer=c tag=4 exchange= key=q body=m3"},
		{"basic.ack tag=1 on=c1.2", "c1.2 deliver consumer=c tag=5 exchange= key=q body=m4"},
		{"basic.reject tag=2 on=c1.2", "c1.2 deliver consumer=c tag=6 redelivered exchange= key=q body=m1"},
		{"queue.declare queue=q passive", "c1.1 declare-ok queue=q messages=1 consumers=1"},
		{"basic.ack tag=3 on=c1.2", "c1.2 deliver consumer=c tag=7 exchange= key=q body=m5"},
		{"basic.publish key=q body=n", ""},
		{"queue.declare queue=q passive", "c1.1 declare-ok queue=q messages=1 consumers=1"},
	}
	for _, st := range steps {
		out, p := exec(s, st.line)
		if p != "" {
			t.Fatal(p)
		}
		if got := strings.Join(out, "|"); got != st.want {
			t.Fatalf("%s:\n got %q\nwant %q", st.line, got, st.want)
		}
	}
	// Its credit counts two outstanding, but the new consumer holds four
	// unacked deliveries (tags 4 to 7): show consumers counts those.
	out, p := exec(s, "show consumers")
	if p != "" {
		t.Fatal(p)
	}
	if want := "consumer c queue=q channel c1.2 priority=0 prefetch=2 unacked=4 state=blocked"; strings.Join(out, "|") != want {
		t.Errorf("show consumers:\n got %q\nwant %q", strings.Join(out, "|"), want)
	}
}
