package node

// Acks, nacks, rejects and requeues in rabbit_channel: the delivery tags
// settled are looked up in the channel's unacked list, grouped per queue
// and sent to each queue process, and the global limiter gets its room
// back.

import (
	"sort"
	"strconv"

	"warren/engine/amqp"
	"warren/engine/beam"
)

type unacked struct {
	tag    uint64
	q      beam.PID
	ackTag uint64
	ctag   string // "" for basic.get
	at     int64  // delivered_at (µs)
}

// ack settles delivery tags: tag 0 with multiple means every outstanding one.
// Otherwise the tag itself must be outstanding, with multiple too: like
// collect_acks, a multiple ack of a tag beyond the last delivered, or of
// one settled already, settles nothing and fails the channel.
func (ch *channel) ack(ctx *beam.Ctx, tag uint64, multiple bool, kind uint16) *amqp.Error {
	list := ch.unacked.items()
	if multiple && tag == 0 {
		picked := append([]unacked(nil), list...)
		ch.unacked.dropFront(len(list))
		ch.settleOrHold(ctx, picked, kind)
		return nil
	}
	i := 0 // the oldest, as most acks are
	if len(list) > 0 && list[0].tag < tag {
		i = sort.Search(len(list), func(i int) bool { return list[i].tag >= tag })
	}
	if i == len(list) || list[i].tag != tag {
		return amqp.Errorf(amqp.PreconditionFailed, "unknown delivery tag "+strconv.FormatUint(tag, 10))
	}
	if multiple {
		picked := append([]unacked(nil), list[:i+1]...)
		ch.unacked.dropFront(i + 1)
		ch.settleOrHold(ctx, picked, kind)
		return nil
	}
	u := list[i]
	ch.unacked.removeAt(i)
	if ch.tx != nil {
		ch.tx.hold([]unacked{u}, kind)
		return nil
	}
	if u.ctag != "" {
		ch.limiter.release(ctx, 1)
	}
	ctx.Send(ch.queuePID(u.q), beam.Msg{Kind: kind, N: int64(u.ackTag)})
	return nil
}

// settleOrHold settles now, or at tx.commit in a transaction.
func (ch *channel) settleOrHold(ctx *beam.Ctx, list []unacked, kind uint16) {
	if ch.tx != nil {
		ch.tx.hold(list, kind)
		return
	}
	ch.settle(ctx, list, kind)
}

// settle sends acks, requeues or rejects to the queues concerned, one
// message per queue, and gives the global limiter its room back.
func (ch *channel) settle(ctx *beam.Ctx, list []unacked, kind uint16) {
	if len(list) == 0 {
		return
	}
	counted := 0
	for _, u := range list {
		if u.ctag != "" {
			counted++
		}
	}
	ch.limiter.release(ctx, counted)
	for len(list) > 0 {
		q := list[0].q
		var tags []uint64
		rest := list[:0:0]
		for _, u := range list {
			if u.q == q {
				tags = append(tags, u.ackTag)
			} else {
				rest = append(rest, u)
			}
		}
		to := ch.queuePID(q)
		if len(tags) == 1 {
			ctx.Send(to, beam.Msg{Kind: kind, N: int64(tags[0])})
		} else {
			ctx.Send(to, beam.Msg{Kind: kind, P: tags})
		}
		list = rest
	}
}
