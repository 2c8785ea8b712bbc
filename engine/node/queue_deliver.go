package node

// Delivery in rabbit_amqqueue_process (run_message_queue and
// deliver_msgs_to_consumers): while a message is ready and a consumer can
// take it, the queue hands it over, remembering it as pending when the
// consumer acknowledges.

import (
	"warren/engine/beam"
)

// consumerDelivery is a message on its way from a queue to a consumer's channel.
type consumerDelivery struct {
	Deliver     // the method the channel completes with its delivery tag
	ackTag      uint64
	ackRequired bool
	queue       beam.PID
}

func (q *queue) deliverTo(ctx *beam.Ctx, c *consumer, e entry) {
	ctx.Charge(q.n.Config.Costs.QueueDeliver + q.backlogCost())
	if q.n.remote(c.ch.pid) {
		q.n.hop(ctx)
	}
	if e.paged {
		ctx.Charge(q.n.Config.Costs.PageIn)
		q.readBack(&e)
		e.paged = false
	}
	q.n.cluster.Stats.Delivered++
	redelivered := e.delivered
	if !c.ackRequired {
		q.gone(&e)
	}
	if c.ackRequired {
		e.delivered = true
		q.pending.add(e)
		c.ch.acktags.push(ackRec{tag: e.seq, ctag: c.tag})
		c.outstanding++
	}
	c.ch.unsent++
	d := q.n.cluster.newDelivery()
	*d = consumerDelivery{Deliver: Deliver{ConsumerTag: c.tag, Msg: e.msg, Redelivered: redelivered},
		ackTag: e.seq, ackRequired: c.ackRequired, queue: q.pid}
	ctx.Send(c.ch.pid, beam.Msg{Kind: kToConsumer, P: d})
}

// run is run_message_queue: deliver while a consumer can take a message.
// Each fetch takes the head as it is and then drops the expired messages
// that have become the head, as rabbit_amqqueue_process's fetch does.
func (q *queue) run(ctx *beam.Ctx) {
	for q.ready.count > 0 {
		c := q.pickConsumer()
		if c == nil {
			return
		}
		e, _ := q.ready.pop()
		q.dropExpired(ctx)
		q.deliverTo(ctx, c, e)
	}
}
