package engine

import (
	"slices"
	"strings"
	"testing"

	"warren/engine/amqp"
	"warren/engine/trace"
)

// TestLineLogDerivesTheSameText: a line kept as fields reads back as the
// text trace.Event.String prints, for every kind of line, short and long
// bodies, redelivered, persistent and prioritised deliveries; truncating
// keeps exactly the earlier lines.
func TestLineLogDerivesTheSameText(t *testing.T) {
	long := []byte(strings.Repeat("x", 8192))
	events := []trace.Event{
		{Conn: 2, Chan: 1, Kind: trace.Deliver, ConsumerTag: "c", DeliveryTag: 7, Key: "q", Body: []byte("m1")},
		{Conn: 2, Chan: 1, Kind: trace.Deliver, ConsumerTag: "c", DeliveryTag: 8, Redelivered: true, Exchange: "x", Key: "k", Body: long,
			Props: &amqp.Properties{DeliveryMode: 2, Priority: 5, HasPriority: true}},
		{Conn: 2, Chan: 1, Kind: trace.Deliver, ConsumerTag: "d", DeliveryTag: 9, Key: "q", Body: []byte(strings.Repeat("y", 40)),
			Props: &amqp.Properties{HasExpiration: true, Expiration: "100"}},
		{Conn: 2, Chan: 1, Kind: trace.Deliver, ConsumerTag: "c", DeliveryTag: 10, Key: "q", Body: []byte("p"),
			Props: &amqp.Properties{MessageID: "id-1", ContentType: "text/plain", HasTimestamp: true, Timestamp: 5}},
		{Conn: 1, Chan: 1, Kind: trace.ConfirmAck, Seq: 3},
		{Conn: 1, Chan: 1, Kind: trace.ConfirmNack, Seq: 4},
		{Conn: 1, Chan: 1, Kind: trace.DeclareOK, Queue: "q", Messages: 2},
		{Conn: 1, Chan: 1, Kind: trace.GetOK, DeliveryTag: 1, Key: "q", Body: []byte("b")},
		{Conn: 1, Chan: 1, Kind: trace.Return, Code: 312, Text: "NO_ROUTE", Key: "nowhere", Body: []byte("r")},
		{Conn: 3, Kind: trace.ConnectionClosed, Code: 320, Text: "forced"},
		{Conn: 70_000, Chan: 1, Kind: trace.ConfirmAck, Seq: 1},
	}
	var l lineLog
	var want []TraceLine
	for i := 0; i < 2500; i++ {
		e := events[i%len(events)]
		e.DeliveryTag += uint64(i)
		l.add(int64(i/3+1), int64(i*10), &e)
		want = append(want, TraceLine{Event: int64(i/3 + 1), Time: int64(i * 10), Text: e.String()})
	}
	check := func() {
		t.Helper()
		var side int64
		for _, x := range l.text {
			side += int64(len(x)) + 16
		}
		for _, x := range l.strs {
			side += 2*int64(len(x)) + 40
		}
		if l.sideBytes != side {
			t.Fatalf("sideBytes %d, the strings hold %d", l.sideBytes, side)
		}
		if l.n != len(want) {
			t.Fatalf("%d lines, want %d", l.n, len(want))
		}
		for i := range want {
			if got := l.line(i); got != want[i] {
				t.Fatalf("line %d: got %+v, want %+v", i, got, want[i])
			}
		}
	}
	check()
	l.truncate(400) // lines up to event 400: 1200 of them
	want = want[:l.upTo(400)]
	if len(want) != 1200 {
		t.Fatalf("kept %d lines", len(want))
	}
	check()
	for i := 0; i < 100; i++ {
		e := events[(i+3)%len(events)]
		l.add(401, 5000, &e)
		want = append(want, TraceLine{Event: 401, Time: 5000, Text: e.String()})
	}
	check()
}

// A bounded Run (RunOptions.Most) prints the start of exactly what an
// unbounded one prints, and
// counts the rest: with confirms sorted among deliveries on two
// connections, and bounds below, at and past the output's length; a
// budget's stop line is shown, last, whatever the bound.
func TestBoundedRunIsTheStartOfTheOutput(t *testing.T) {
	setup := []string{
		"queue.declare queue=q",
		"confirm.select on=c1.1",
		"basic.consume queue=q tag=a on=c2.1",
		"basic.consume queue=q tag=b on=c3.1 no-ack",
	}
	run := "basic.publish key=q body=m{i} count=40"
	for _, most := range []int{1, 7, 40, 79, 80, 81, 500} {
		full, part := New(Options{Record: true}), New(Options{Record: true})
		for _, l := range setup {
			full.runLine(l)
			part.runLine(l)
		}
		want := full.runLine(run)
		r := part.Run(run, RunOptions{Most: most})
		got, omitted := r.Lines, r.Omitted
		n := min(most, len(want))
		if !slices.Equal(got, want[:n]) || omitted != len(want)-n {
			t.Fatalf("most=%d: %d lines, %d omitted; want the first %d of %d:\n%q\nwant\n%q", most, len(got), omitted, n, len(want), got, want[:n])
		}
		if !slices.Equal(full.runLine("show queues"), part.runLine("show queues")) {
			t.Fatalf("most=%d: the runs differ after", most)
		}
		if later := part.runLine(run); !slices.Equal(later, full.runLine(run)) {
			t.Fatalf("most=%d: the next command prints %d lines, not all", most, len(later))
		}
	}
	// a command cut by the event budget: its stop line is shown, last, in
	// place of the last delivery that would fit (a reader must see why it
	// stopped)
	full, part := New(Options{Record: true}), New(Options{Record: true})
	for _, s := range []*Sim{full, part} {
		lim := defaultLimits
		lim.events = 200
		s.budgetLimits = &lim
		s.runLine("queue.declare queue=q")
		s.runLine("basic.consume queue=q tag=a on=c2.1")
	}
	want := full.runLine(run)
	r := part.Run(run, RunOptions{Most: 3})
	got, omitted := r.Lines, r.Omitted
	if stop := want[len(want)-1]; !strings.HasPrefix(stop, "stopped after") || !slices.Equal(got, append(want[:2:2], stop)) || omitted != len(want)-3 {
		t.Fatalf("cut by the budget: %q, %d omitted; want the first 2 of %q and its last", got, omitted, want)
	}
}
