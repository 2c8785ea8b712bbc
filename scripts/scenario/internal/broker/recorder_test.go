package broker

import (
	"slices"
	"testing"

	amqp091 "github.com/rabbitmq/amqp091-go"

	"warren/engine/trace"
)

func TestLinesGroupsAndSorts(t *testing.T) {
	ev := func(conn, ch int, k trace.Kind, seq uint64) recorded {
		return recorded{ev: trace.Event{Conn: conn, Chan: ch, Kind: k, Seq: seq, ConsumerTag: "c", Queue: "q"}}
	}
	got := lines([]recorded{
		ev(1, 10, trace.GetEmpty, 0),
		ev(2, 1, trace.GetEmpty, 0),
		ev(1, 2, trace.ConfirmAck, 3),
		ev(1, 2, trace.Cancelled, 0),
		ev(1, 2, trace.ConfirmNack, 1),
		ev(1, 2, trace.ConfirmAck, 2),
		ev(1, 0, trace.Unblocked, 0),
	})
	want := []string{
		"c1 unblocked",
		"c1.2 confirm-nack seq=1",
		"c1.2 cancelled consumer=c",
		"c1.2 confirm-ack seq=2",
		"c1.2 confirm-ack seq=3",
		"c1.10 get-empty",
		"c2.1 get-empty",
	}
	if !slices.Equal(got, want) {
		t.Errorf("got\n%q\nwant\n%q", got, want)
	}
}

// A connection closed by the broker reaches every channel's close listener
// with the same *Error: only the connection's line is printed, while a
// channel closed on its own keeps its line.
func TestLinesDropsChannelCopiesOfConnectionClose(t *testing.T) {
	connErr := &amqp091.Error{Code: 503, Reason: "COMMAND_INVALID - unknown exchange type 'x-bogus'"}
	chanErr := &amqp091.Error{Code: 404, Reason: "NOT_FOUND - no queue 'q' in vhost '/'"}
	closed := func(conn, ch int, e *amqp091.Error) recorded {
		k := trace.ChannelClosed
		if ch == 0 {
			k = trace.ConnectionClosed
		}
		return recorded{ev: trace.Event{Conn: conn, Chan: ch, Kind: k, Code: e.Code, Text: e.Reason}, cause: e}
	}
	got := lines([]recorded{
		closed(1, 1, connErr),
		closed(2, 1, chanErr),
		closed(1, 0, connErr),
		closed(1, 2, connErr),
	})
	want := []string{
		`c1 closed code=503 text="COMMAND_INVALID - unknown exchange type 'x-bogus'"`,
		`c2.1 closed code=404 text="NOT_FOUND - no queue 'q' in vhost '/'"`,
	}
	if !slices.Equal(got, want) {
		t.Errorf("got\n%q\nwant\n%q", got, want)
	}
}

func TestRecorderTakeDrains(t *testing.T) {
	r := newRecorder()
	r.add(trace.Event{Conn: 1, Chan: 1, Kind: trace.GetEmpty}, nil)
	if got := r.take(); len(got) != 1 {
		t.Fatalf("take = %q", got)
	}
	if got := r.take(); len(got) != 0 {
		t.Errorf("second take = %q, want nothing", got)
	}
}
