package node

// Models rabbit_limiter's channel-wide prefetch (basic.qos global=true).
// NB: in RabbitMQ the queue asks the limiter process with a call; here the
// queue reads the channel's limiter directly, which gives the same answers
// because a call would be answered before anything else changes it.

import "warren/engine/beam"

// Limiter is a channel's global prefetch: how many deliveries to its
// consumers that need an ack may be outstanding across all of them.
type Limiter struct {
	Prefetch int  // 0 = unlimited
	Volume   int  // outstanding deliveries counted against the limit
	active   bool // prefetch_limited: a global prefetch is in force
	waiting  []beam.PID
}

func (l *Limiter) reached() bool { return l.active && l.Prefetch != 0 && l.Volume >= l.Prefetch }

// limit is basic.qos global=true with a count: the volume starts at what
// the channel has unacked (basic.get deliveries included, as RabbitMQ does).
func (l *Limiter) limit(ctx *beam.Ctx, prefetch, unacked int) {
	was := l.reached()
	l.active, l.Prefetch, l.Volume = true, prefetch, unacked
	if was && !l.reached() {
		l.resume(ctx)
	}
}

// unlimit is basic.qos global=false, or global=true with 0: the channel
// limit goes, and queues it held back may deliver again.
func (l *Limiter) unlimit(ctx *beam.Ctx) {
	l.active, l.Prefetch, l.Volume = false, 0, 0
	l.resume(ctx)
}

// canSend takes one unit of the limit for a delivery that needs an ack; if
// the limit is reached it remembers the queue so it can be resumed later.
func (l *Limiter) canSend(q beam.PID, ackRequired bool) bool {
	if !l.active {
		return true
	}
	if l.reached() {
		for _, p := range l.waiting {
			if p == q {
				return false
			}
		}
		l.waiting = append(l.waiting, q)
		return false
	}
	if ackRequired {
		l.Volume++
	}
	return true
}

// suspended reports whether the limit is reached.
func (l *Limiter) suspended() bool { return l.reached() }

// release gives back n units (consumer acks, nacks, rejects; not those of
// basic.get) and resumes waiting queues when there is room again.
func (l *Limiter) release(ctx *beam.Ctx, n int) {
	if !l.active || n == 0 {
		return
	}
	was := l.reached()
	if l.Volume != 0 { // RabbitMQ's {ack, Count}: a zero volume stays zero
		l.Volume -= n
	}
	if was && !l.reached() {
		l.resume(ctx)
	}
}

func (l *Limiter) resume(ctx *beam.Ctx) {
	for _, q := range l.waiting {
		ctx.Send(q, beam.Msg{Kind: kResume})
	}
	l.waiting = nil
}
