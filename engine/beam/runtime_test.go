package beam

import (
	"testing"
)

// worker charges cost per message and forwards to next, if any.
type worker struct {
	cost int64
	next PID
	seen []int64
}

func (w *worker) Handle(ctx *Ctx, m Msg) {
	ctx.Charge(w.cost)
	w.seen = append(w.seen, m.N)
	if w.next != None {
		ctx.Send(w.next, Msg{Kind: 1, N: m.N})
	}
}

func TestOneProcessOneSchedulerAtATime(t *testing.T) {
	// Two schedulers, one busy process: it never runs on both at once, so
	// 100 messages of 10 µs take 1000 µs whatever the number of schedulers.
	for _, n := range []int{1, 2, 8} {
		rt := New(n)
		w := &worker{cost: 10}
		p := rt.Spawn("q", "queue", w)
		for i := 0; i < 100; i++ {
			rt.Send(p.PID, Msg{Kind: 1, N: int64(i)})
		}
		for rt.Step(-1) {
		}
		var busy int64
		for _, s := range rt.Schedulers() {
			busy += s.Busy
		}
		if busy != 1000 || p.Busy != 1000 {
			t.Fatalf("%d schedulers: busy %d, process %d, want 1000", n, busy, p.Busy)
		}
		last := int64(0)
		for _, s := range rt.Schedulers() {
			last = max(last, s.FreeAt)
		}
		if last != 1000 {
			t.Fatalf("%d schedulers: finished at %d µs, want 1000", n, last)
		}
		for i, v := range w.seen {
			if v != int64(i) {
				t.Fatalf("out of order: %v", w.seen)
			}
		}
	}
}

func TestIndependentProcessesUseAllSchedulers(t *testing.T) {
	rt := New(4)
	for q := 0; q < 4; q++ {
		p := rt.Spawn("q", "queue", &worker{cost: 10})
		for i := 0; i < 100; i++ {
			rt.Send(p.PID, Msg{Kind: 1})
		}
	}
	for rt.Step(-1) {
	}
	for i, s := range rt.Schedulers() {
		if s.Busy != 1000 || s.FreeAt != 1000 {
			t.Fatalf("scheduler %d: busy %d free at %d, want 1000/1000", i, s.Busy, s.FreeAt)
		}
	}
}

func TestPreemptionAfterSlice(t *testing.T) {
	// A process with a long backlog yields after 4000 reductions (200 µs)
	// so that another runnable process gets the scheduler.
	rt := New(1)
	a := &worker{cost: 10}
	b := &worker{cost: 10}
	pa := rt.Spawn("a", "queue", a)
	pb := rt.Spawn("b", "queue", b)
	for i := 0; i < 50; i++ {
		rt.Send(pa.PID, Msg{Kind: 1, N: int64(i)})
	}
	rt.Send(pb.PID, Msg{Kind: 1, N: 99})
	var order []PID
	rt.Observe = func(e *Event) { order = append(order, e.PID) }
	for rt.Step(-1) {
	}
	perSlice := SliceReductions / ReductionsPerMicro / 10
	for i := 0; i < perSlice; i++ {
		if order[i] != pa.PID {
			t.Fatalf("event %d ran %d, want a", i, order[i])
		}
	}
	if order[perSlice] != pb.PID {
		t.Fatalf("after a's slice, event %d ran %d, want b", perSlice, order[perSlice])
	}
}

func TestTimersAndCancel(t *testing.T) {
	rt := New(1)
	w := &worker{cost: 1}
	p := rt.Spawn("t", "timer", w)
	var ids []TimerID
	starter := rt.Spawn("s", "starter", handlerFunc(func(ctx *Ctx, m Msg) {
		ids = append(ids, ctx.SendAfter(p.PID, 500, Msg{Kind: 2, N: 1}))
		ids = append(ids, ctx.SendAfter(p.PID, 300, Msg{Kind: 2, N: 2}))
	}))
	rt.Send(starter.PID, Msg{})
	rt.Step(-1)
	rt.CancelTimer(ids[0])
	if rt.Step(10) {
		t.Fatal("a timer beyond the limit fired")
	}
	for rt.Step(-1) {
	}
	if len(w.seen) != 1 || w.seen[0] != 2 {
		t.Fatalf("fired %v, want only the uncancelled timer", w.seen)
	}
	if rt.Now() != 300 {
		t.Fatalf("timer handled at %d, want 300", rt.Now())
	}
}

type handlerFunc func(ctx *Ctx, m Msg)

func (f handlerFunc) Handle(ctx *Ctx, m Msg) { f(ctx, m) }

func TestCallWaitsForItsReply(t *testing.T) {
	rt := New(1)
	var got []int64
	server := rt.Spawn("server", "queue", handlerFunc(func(ctx *Ctx, m Msg) {
		ctx.Charge(5)
		ctx.Reply(m, Msg{Kind: 9, N: 42})
	}))
	client := rt.Spawn("client", "channel", handlerFunc(func(ctx *Ctx, m Msg) {
		ctx.Charge(1)
		got = append(got, m.N)
		if m.Kind == 1 {
			ctx.Call(server.PID, Msg{Kind: 3})
		}
	}))
	rt.Send(client.PID, Msg{Kind: 1, N: 1})
	rt.Send(client.PID, Msg{Kind: 2, N: 2}) // waits behind the call's reply
	for rt.Step(-1) {
	}
	if len(got) != 3 || got[1] != 42 || got[2] != 2 {
		t.Fatalf("handled %v, want [1 42 2]", got)
	}
}
