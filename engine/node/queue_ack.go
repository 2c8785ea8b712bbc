package node

// Acks, requeues and rejects in rabbit_amqqueue_process, and the end of
// a channel (handle_ch_down): settled tags leave the pending set and give
// their consumer credit back; requeued messages return to their original
// position.

import (
	"slices"

	"warren/engine/beam"
)

// ackTags reads the ack tags of kAck, kRequeue and kRejectDrop: one tag
// travels in N, several as a slice in P.
func (q *queue) ackTags(m *beam.Msg) []uint64 {
	if tags, ok := m.P.([]uint64); ok {
		return tags
	}
	q.oneTag[0] = uint64(m.N)
	return q.oneTag[:]
}

// subtractAcks removes ack tags from the channel record and gives their
// consumers credit back; it reports whether a consumer was unblocked.
// Acks mostly arrive in delivery order, so the search starts at the head.
func (q *queue) subtractAcks(cr *chRecord, tags []uint64) bool {
	if cr == nil {
		return false
	}
	for _, t := range tags {
		i := 0
		for i < cr.acktags.len() && cr.acktags.at(i).tag != t {
			i++
		}
		if i == cr.acktags.len() {
			continue
		}
		if ctag := cr.acktags.at(i).ctag; ctag != "" {
			if c := q.consumerOn(cr, ctag); c != nil {
				c.outstanding--
				if len(c.earlier) > 0 {
					c.earlier = slices.DeleteFunc(c.earlier, func(e uint64) bool { return e == t })
				}
			}
		}
		cr.acktags.removeAt(i)
	}
	before := len(cr.blocked)
	q.unblock(cr)
	return len(cr.blocked) < before
}

// Acks, requeues and rejects from a channel the queue does not know are
// ignored (rabbit_queue_consumers:subtract_acks answers not_found); from a
// channel it knows, every tag still pending is settled, whoever it was
// delivered to.
func (q *queue) ack(ctx *beam.Ctx, from beam.PID, tags []uint64) {
	q.n.cluster.Stats.Acked += int64(len(tags))
	cr := q.chRecord(from)
	if cr == nil {
		return
	}
	for _, t := range tags {
		if e, ok := q.pending.take(t); ok {
			q.gone(&e)
		}
	}
	if q.subtractAcks(cr, tags) || q.sac {
		q.run(ctx)
	}
}

func (q *queue) requeue(ctx *beam.Ctx, from beam.PID, tags []uint64) {
	cr := q.chRecord(from)
	if cr == nil {
		return
	}
	q.subtractAcks(cr, tags)
	q.requeueTags(ctx, tags)
}

func (q *queue) requeueTags(ctx *beam.Ctx, tags []uint64) {
	for _, t := range tags {
		if e, ok := q.pending.take(t); ok {
			q.ready.requeue(e)
		}
	}
	q.dropHead(ctx)
	q.dropExpired(ctx)
	q.run(ctx)
}

func (q *queue) rejectDrop(ctx *beam.Ctx, from beam.PID, tags []uint64) {
	cr := q.chRecord(from)
	if cr == nil {
		return
	}
	unblocked := q.subtractAcks(cr, tags)
	var msgs []*Message
	for _, t := range tags {
		if e, ok := q.pending.take(t); ok {
			q.gone(&e)
			msgs = append(msgs, e.msg)
		}
	}
	q.deadLetter(ctx, msgs, "rejected")
	if unblocked || q.sac {
		q.run(ctx)
	}
}

// channelDown is handle_ch_down: the channel's consumers go, its unacked
// messages are requeued, and an auto-delete queue may go with them.
func (q *queue) channelDown(ctx *beam.Ctx, pid beam.PID) {
	if released, _ := q.credit.peerDown(pid); len(released) > 0 {
		for _, p := range released {
			ctx.Send(p, beam.Msg{Kind: kBump, N: int64(q.credit.spec.MoreAfter)})
		}
	}
	cr := q.chRecord(pid)
	if cr == nil {
		return
	}
	for i, c := range q.channels {
		if c == cr {
			q.channels = append(q.channels[:i], q.channels[i+1:]...)
			break
		}
	}
	removed := 0
	var keep []*consumer
	for _, c := range q.cons.active {
		if c.ch == cr {
			removed++
		} else {
			keep = append(keep, c)
		}
	}
	q.cons.active = keep
	removed += len(cr.blocked)
	if q.sac {
		removed = cr.consumers
	}
	q.cons.count -= removed
	if q.holder != nil && q.holder.ch == cr {
		q.holder = q.nextHolder()
	}
	var tags []uint64
	for _, a := range cr.acktags.items() {
		tags = append(tags, a.tag)
	}
	if removed > 0 && q.shouldAutoDelete() {
		q.delete(ctx)
		return
	}
	q.ensureExpiryTimer(ctx)
	q.requeueTags(ctx, tags)
}

func (q *queue) shouldAutoDelete() bool {
	return q.rec.AutoDelete && q.hasHadCon && q.cons.count == 0
}
