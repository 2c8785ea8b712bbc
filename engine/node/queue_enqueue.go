package node

// Enqueueing in rabbit_amqqueue_process (maybe_deliver_or_enqueue): a
// publish is delivered at once to a consumer that can take it, or kept;
// the length limits (x-max-length, x-max-length-bytes and x-overflow) drop
// the head or refuse the publish, and under memory pressure new messages
// are paged out to disk.

import (
	"warren/engine/beam"
)

// A publish travels from a channel to a queue as kDeliver with P the
// *Message and N = seq<<1 | flow: seq is the publisher confirm sequence
// number (0 when the channel is not confirming), flow whether the send
// counted against credit.
func deliverMsg(m *Message, seq uint64, flow bool) beam.Msg {
	n := int64(seq) << 1
	if flow {
		n |= 1
	}
	return beam.Msg{Kind: kDeliver, N: n, P: m}
}

// publish is maybe_deliver_or_enqueue.
func (q *queue) publish(ctx *beam.Ctx, msg *Message, seq uint64, from beam.PID) {
	if (q.maxLen >= 0 || q.maxBytes >= 0) && q.overflow != "drop-head" && q.willOverflow(msg) {
		if q.overflow == "reject-publish-dlx" {
			q.deadLetter(ctx, []*Message{msg}, "maxlen")
		}
		if seq != 0 {
			ctx.Send(from, beam.Msg{Kind: kReject, N: int64(seq)})
		}
		return
	}
	q.nextSeq++
	e := entry{seq: q.nextSeq, msg: msg, expiry: q.expiryOf(ctx, msg)}
	var c *consumer
	if q.ready.count == 0 {
		c = q.pickConsumer()
	}
	if c == nil && q.ttl == 0 && q.dlx == nil {
		// undelivered with TTL 0 and no DLX: discarded at once, unwritten
		if seq != 0 {
			ctx.Send(from, beam.Msg{Kind: kConfirm, N: int64(seq)})
		}
		return
	}
	// send_or_record_confirm: confirmed now, or once on disk
	waits := false
	if q.disk != nil {
		waits = q.store(ctx, &e, seq, from)
	}
	if seq != 0 && !waits {
		ctx.Send(from, beam.Msg{Kind: kConfirm, N: int64(seq)})
	}
	if c != nil {
		q.deliverTo(ctx, c, e)
		return
	}
	if q.n.paging {
		// under memory pressure a new message goes straight to disk
		e.paged = true
		ctx.Charge(q.n.Config.Costs.PageOut)
		// NB: a copy on the heap, so that e itself stays on the stack on
		// the common path (writePaged keeps its batch's pointers)
		pe := &entry{}
		*pe = e
		q.writePaged(ctx, []pagedEntry{{q.ready.levelOf(pe.msg), pe}})
		e = *pe
	}
	q.ready.push(e)
	// deliver_or_enqueue looks for expired messages only when the head may
	// have changed: a head was dropped, or the queue holds only this one
	// (and it may expire). A message with a TTL behind the head, or at the
	// top of a priority queue that was not empty, sets no timer.
	dropped := q.dropHead(ctx)
	alone := q.ready.count == 1
	if (dropped || alone) && !(dropped && alone && e.expiry == 0) {
		q.dropExpired(ctx)
	}
}

// backlogCost is the extra work per message a long queue costs.
func (q *queue) backlogCost() int64 {
	return int64(q.ready.count) * q.n.Config.Costs.BacklogPer100k / 100_000
}

// pageBatch is how many messages a queue pages out in one event.
const pageBatch = 200

// pageOut writes a batch of in-memory messages to disk while the node is
// above its paging threshold, and asks itself to continue.
func (q *queue) pageOut(ctx *beam.Ctx) {
	ctx.Charge(q.n.Config.Costs.Timer)
	if !q.n.paging {
		return
	}
	var batch []pagedEntry
	n := q.ready.pageOut(pageBatch, func(lvl int, e *entry) { batch = append(batch, pagedEntry{lvl, e}) })
	ctx.Charge(int64(n) * q.n.Config.Costs.PageOut)
	q.writePaged(ctx, batch)
	if n == pageBatch {
		ctx.Send(q.pid, beam.Msg{Kind: kPageOut})
	}
}

func (q *queue) willOverflow(m *Message) bool {
	return (q.maxLen >= 0 && int64(q.ready.count+1) > q.maxLen) ||
		(q.maxBytes >= 0 && q.ready.bytes+int64(len(m.Body)) > q.maxBytes)
}

func (q *queue) overMax() bool {
	return (q.maxLen >= 0 && int64(q.ready.count) > q.maxLen) ||
		(q.maxBytes >= 0 && q.ready.bytes > q.maxBytes)
}

// dropHead trims a drop-head queue back under its limits, dead-lettering
// what it drops (reason maxlen).
func (q *queue) dropHead(ctx *beam.Ctx) bool {
	if q.overflow != "drop-head" || (q.maxLen < 0 && q.maxBytes < 0) {
		return false
	}
	dropped := false
	for q.overMax() {
		e, ok := q.ready.pop()
		if !ok {
			break
		}
		q.gone(&e)
		dropped = true
		q.deadLetter(ctx, []*Message{e.msg}, "maxlen")
	}
	return dropped
}
