package node

// Consumers and deliveries in rabbit_channel: basic.consume registers a
// consumer with its queue; a delivery from the queue gets the channel's
// next delivery tag, is remembered until acked, and goes to the writer.
// The channel's limiter (limiter.go) is told when the prefetch changes.

import (
	"fmt"
	"strconv"

	"warren/engine/amqp"
	"warren/engine/beam"
	"warren/engine/internal/order"
)

type chConsumer struct {
	queue string
	qpid  beam.PID
	spec  *callConsume // what basic.consume asked: to consume again after a queue crash
}

func (ch *channel) consume(ctx *beam.Ctx, m *BasicConsume) *amqp.Error {
	q, err := ch.lookupQueue(m.Queue)
	if err != nil {
		return err
	}
	tag := m.Tag
	if tag == "" {
		tag = ch.n.cluster.newCtag()
	}
	if _, dup := ch.consumers[tag]; dup {
		return amqp.Errorf(amqp.NotAllowed, "attempt to reuse consumer tag '"+tag+"'")
	}
	if v, ok := m.Args.Get("x-priority"); ok && !v.Kind.IsInt() {
		return amqp.Errorf(amqp.PreconditionFailed, fmt.Sprintf("invalid arg 'x-priority' for %s: %q", rs(m.Queue), "expected integer, got "+v.Kind.String()))
	}
	req := &callConsume{tag: tag, noAck: m.NoAck, exclusive: m.Exclusive, args: m.Args,
		prefetch: ch.prefetch, limiter: ch.limiter, channel: ch.pid, writer: ch.writer}
	ch.consumers[tag] = &chConsumer{queue: q.Name, qpid: q.PID, spec: req}
	ch.callQueue(ctx, q, req, func(ctx *beam.Ctx, r any) {
		ch.send(ctx, ConsumeOk{Tag: tag})
	})
	return nil
}

// newCtag names a consumer whose basic.consume gave no tag.
func (c *Cluster) newCtag() string {
	c.nextCtag++
	return "amq.ctag-" + strconv.Itoa(c.nextCtag)
}

func (ch *channel) toConsumer(ctx *beam.Ctx, d *consumerDelivery) {
	ctx.Charge(ch.n.Config.Costs.ChannelDeliver)
	if ch.n.remote(d.queue) {
		ch.n.hop(ctx)
	}
	ch.nextTag++
	if d.ackRequired {
		ch.unacked.push(unacked{tag: ch.nextTag, q: d.queue, ackTag: d.ackTag, ctag: d.ConsumerTag, at: ctx.Now})
		ch.armTick(ctx)
	}
	d.DeliveryTag = ch.nextTag
	ctx.Send(ch.writer, beam.Msg{Kind: kWrite, P: d})
}

// resumeConsumerQueues tells the queues this channel consumes from that
// its limit changed (deactivate_limit_all).
func (ch *channel) resumeConsumerQueues(ctx *beam.Ctx) {
	var seen []beam.PID
	for _, tag := range sortedKeys(ch.consumers) {
		q := ch.consumers[tag].qpid
		dup := false
		for _, p := range seen {
			dup = dup || p == q
		}
		if !dup {
			seen = append(seen, q)
			ctx.Send(q, beam.Msg{Kind: kResume})
		}
	}
}

func sortedKeys(m map[string]*chConsumer) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	order.Strings(keys)
	return keys
}
