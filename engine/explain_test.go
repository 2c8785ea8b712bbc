package engine

import (
	"fmt"
	"testing"

	"warren/engine/say"
	"warren/engine/trace"
)

// TestRepliesComeExplained: a line that shows a channel RabbitMQ closed, a
// message it returned or rabbitmqctl's refusal of a policy stays as
// RabbitMQ prints it, and its answer says beside it, by its index, what
// the reply means; a line that shows none is not explained.
func TestRepliesComeExplained(t *testing.T) {
	s := New(Options{})
	for _, c := range []struct {
		line, shows string
		want        say.Text
	}{
		{"basic.ack tag=99", `c1.1 closed code=406 text="PRECONDITION_FAILED - unknown delivery tag 99"`,
			say.T("con.amqp.explain", say.S("con.amqp.channel", "c1.1"), "406", "PRECONDITION_FAILED", say.T("con.amqp.406"))},
		{"basic.publish on=c1.2 key=nowhere body=x mandatory", "c1.2 return code=312 text=NO_ROUTE exchange= key=nowhere body=x",
			say.T("con.amqp.returned", "312", "NO_ROUTE", say.T("con.amqp.312"))},
		{"set_policy name=p pattern=q max-length=many", `error: Validation failed: <<"many">> is not a valid maximum length`, say.T("con.ctl.validation")},
		{"clear_policy name=nope", "error: Parameter does not exist", say.T("con.ctl.noParameter")},
	} {
		r := s.Run(c.line, RunOptions{})
		at := -1
		for i, l := range r.Lines {
			if l == c.shows {
				at = i
			}
		}
		if at < 0 {
			t.Fatalf("%s printed %q, not %q", c.line, r.Lines, c.shows)
		}
		if len(r.Explain) != 1 || r.Explain[0].At != at || fmt.Sprint(r.Explain[0].Text) != fmt.Sprint(c.want) {
			t.Errorf("%s: explained %+v, want line %d as %q", c.line, r.Explain, at, c.want)
		}
	}
	if r := s.Run("basic.publish on=c1.3 key=nowhere body=x", RunOptions{}); len(r.Explain) != 0 {
		t.Errorf("a publish nothing returned is explained: %+v", r.Explain)
	}
	if r := s.Run("queue.declare on=c1.4 queue=q", RunOptions{}); len(r.Lines) != 1 || len(r.Explain) != 0 {
		t.Errorf("a declare-ok: %q explained %+v", r.Lines, r.Explain)
	}
}

// TestOnlyKnownCodesAreExplained: a close with a code the catalog has no
// meaning for (200, a normal close) is not explained.
func TestOnlyKnownCodesAreExplained(t *testing.T) {
	for _, c := range []struct {
		e    trace.Event
		want bool
	}{
		{trace.Event{Conn: 1, Chan: 1, Kind: trace.ChannelClosed, Code: 200, Text: "OK"}, false},
		{trace.Event{Conn: 1, Kind: trace.ConnectionClosed, Code: 320, Text: "CONNECTION_FORCED - broker forced connection closure with reason 'shutdown'"}, true},
		{trace.Event{Conn: 1, Chan: 1, Kind: trace.Return, Code: 313, Text: "NO_CONSUMERS"}, true},
		{trace.Event{Conn: 1, Chan: 1, Kind: trace.Deliver, Code: 406}, false},
	} {
		if _, got := explained(&c.e); got != c.want {
			t.Errorf("%s explained: %v, want %v", c.e.String(), got, c.want)
		}
	}
	got, _ := explained(&trace.Event{Conn: 2, Kind: trace.ConnectionClosed, Code: 320, Text: "CONNECTION_FORCED - shutdown"})
	if want := say.T("con.amqp.explain", say.S("con.amqp.connection", "c2"), "320", "CONNECTION_FORCED", say.T("con.amqp.320")); fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("got %v, want %v", got, want)
	}
}
