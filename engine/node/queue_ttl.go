package node

// Time in rabbit_amqqueue_process: per-queue and per-message TTL, checked
// at the head of each priority level (drop_expired_msgs) with a timer for
// the next head to expire, and the queue's own x-expires timer
// (ensure_expiry_timer).

import (
	"strconv"

	"warren/engine/beam"
)

// expiryOf is the absolute expiry of a message entering the queue: the
// smaller of the queue TTL and the message's expiration.
func (q *queue) expiryOf(ctx *beam.Ctx, m *Message) int64 {
	ttl := q.ttl
	if m.Props.HasExpiration {
		n, _ := strconv.ParseInt(m.Props.Expiration, 10, 64) // checked by the channel
		if ttl < 0 || n < ttl {
			ttl = n
		}
	}
	if ttl < 0 {
		return 0
	}
	return ctx.End() + ttl*1000
}

// dropExpired is drop_expired_msgs: it looks at the head of what would be
// delivered next, dropping (dead-lettering) expired heads from the highest
// level down, and stops at the first live head, as rabbit_priority_queue's
// dropwhile does: expired messages below a live head, in its level or a
// lower one, stay. The timer is set for that live head, if it expires.
func (q *queue) dropExpired(ctx *beam.Ctx) {
	now := ctx.End()
	var expired []*Message
	next := int64(0)
	for i := len(q.ready.levels) - 1; i >= 0 && next == 0; i-- {
		l := &q.ready.levels[i]
		for l.len() > 0 {
			e := l.front()
			if e.expiry == 0 || now < e.expiry {
				next = e.expiry
				if next == 0 {
					next = -1 // a live head that does not expire: no timer
				}
				break
			}
			gone := q.ready.popLevel(i)
			q.gone(&gone)
			expired = append(expired, gone.msg)
		}
	}
	if len(expired) > 0 {
		q.deadLetter(ctx, expired, "expired")
	}
	if next > 0 {
		q.ensureTTLTimer(ctx, next)
	}
}

func (q *queue) ensureTTLTimer(ctx *beam.Ctx, expiry int64) {
	if q.ttlTimer != 0 {
		if expiry+1000 >= q.ttlAt {
			return
		}
		ctx.CancelTimer(q.ttlTimer)
	}
	// always fire later: rounded up to the next whole millisecond
	after := ((expiry - ctx.End()) + 999) / 1000 * 1000
	if after < 0 {
		after = 0
	}
	q.ttlGen++
	q.ttlTimer = ctx.SendAfter(q.pid, after, beam.Msg{Kind: kTimerTTL, N: q.ttlGen})
	q.ttlAt = expiry
}

func (q *queue) ensureExpiryTimer(ctx *beam.Ctx) {
	if q.expires <= 0 || q.cons.count > 0 {
		return
	}
	if q.expiryTimer != 0 {
		ctx.CancelTimer(q.expiryTimer)
	}
	q.expiryGen++
	q.expiryTimer = ctx.SendAfter(q.pid, q.expires*1000, beam.Msg{Kind: kTimerExpires, N: q.expiryGen})
}
