package node

// Models rabbit_limiter's channel-wide prefetch (basic.qos global=true).
// NB: in RabbitMQ the queue asks the limiter process with a call; here the
// queue reads the channel's limiter directly, which gives the same answers
// because a call would be answered before anything else changes it.

import "warren/engine/sim"

// Limiter is a channel's global prefetch: how many deliveries needing an
// ack may be outstanding across all its consumers.
type Limiter struct {
	Prefetch int // 0 = unlimited
	Volume   int // outstanding deliveries that need an ack
	waiting  []sim.PID
}

// canSend takes one unit of the limit for a delivery that needs an ack; if
// there is no room it remembers the queue so it can be resumed later.
func (l *Limiter) canSend(q sim.PID, ackRequired bool) bool {
	if !ackRequired {
		return true
	}
	if l.Prefetch == 0 || l.Volume < l.Prefetch {
		l.Volume++
		return true
	}
	for _, p := range l.waiting {
		if p == q {
			return false
		}
	}
	l.waiting = append(l.waiting, q)
	return false
}

// suspended reports whether the limit is reached.
func (l *Limiter) suspended() bool { return l.Prefetch > 0 && l.Volume >= l.Prefetch }

// release gives back n units (acks, nacks, rejects) and resumes waiting
// queues when there is room.
func (l *Limiter) release(ctx *sim.Ctx, n int) {
	l.Volume -= n
	if l.Volume < 0 {
		l.Volume = 0
	}
	l.maybeResume(ctx)
}

func (l *Limiter) maybeResume(ctx *sim.Ctx) {
	if l.suspended() || len(l.waiting) == 0 {
		return
	}
	for _, q := range l.waiting {
		ctx.Send(q, sim.Msg{Kind: kResume})
	}
	l.waiting = nil
}
