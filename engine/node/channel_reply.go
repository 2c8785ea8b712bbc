package node

// Direct reply-to in rabbit_channel (3.10.8): a no-ack consumer on the
// pseudo-queue amq.rabbitmq.reply-to makes its channel a reply consumer.
// A publish from that channel with reply-to=amq.rabbitmq.reply-to carries
// the consumer's own name instead (maybe_set_fast_reply_to), and a publish
// to the default exchange with that name as its routing key goes to the
// channel directly, past every queue (rabbit_exchange:route, then the
// channel's deliver_reply): no queue, no credit, no ack, and the delivery
// tag is the channel's next one, which the reply does not use up.
//
// RabbitMQ encodes the channel's pid and a random key in the name
// (rabbit_direct_reply_to); warren names the reply consumers
// amq.rabbitmq.reply-to.N, N counting them from 1 in the order they were
// made, and the broker target maps the real names to these.

import (
	"strconv"
	"strings"

	"warren/engine/amqp"
	"warren/engine/beam"
)

// replyQueue is the pseudo-queue a reply consumer consumes from.
const replyQueue = "amq.rabbitmq.reply-to"

// replyPrefix starts every reply consumer's name.
const replyPrefix = replyQueue + "."

// replyConsumer is a channel's reply consumer: its tag and its name.
type replyConsumer struct {
	tag, name string
}

// consumeReply is basic.consume on amq.rabbitmq.reply-to.
func (ch *channel) consumeReply(ctx *beam.Ctx, m *BasicConsume) *amqp.Error {
	if _, dup := ch.consumers[m.Tag]; dup && m.Tag != "" {
		return amqp.Errorf(amqp.NotAllowed, "attempt to reuse consumer tag '"+m.Tag+"'")
	}
	if !m.NoAck {
		return amqp.Errorf(amqp.PreconditionFailed, "reply consumer cannot acknowledge")
	}
	if ch.reply != nil {
		return amqp.Errorf(amqp.PreconditionFailed, "reply consumer already set")
	}
	n := ch.n
	tag := m.Tag
	if tag == "" {
		tag = n.cluster.newCtag()
	}
	n.cluster.nextReply++
	r := &replyConsumer{tag: tag, name: replyPrefix + strconv.Itoa(n.cluster.nextReply)}
	ch.reply = r
	if n.cluster.replies == nil {
		n.cluster.replies = map[string]beam.PID{}
	}
	n.cluster.replies[r.name] = ch.pid
	ch.send(ctx, ConsumeOk{Tag: tag})
	return nil
}

// dropReply forgets the channel's reply consumer: replies to its name are
// dropped from now on.
func (ch *channel) dropReply() {
	if ch.reply != nil {
		delete(ch.n.cluster.replies, ch.reply.name)
		ch.reply = nil
	}
}

// setReplyTo gives a publish that asks for direct reply-to the name of
// this channel's reply consumer; m itself is shared, so it fills a copy.
func (ch *channel) setReplyTo(m *BasicPublish) (*BasicPublish, *amqp.Error) {
	if m.Props.ReplyTo != replyQueue {
		return m, nil
	}
	if ch.reply == nil {
		return m, amqp.Errorf(amqp.PreconditionFailed, "fast reply consumer does not exist")
	}
	c := *m
	c.Props.ReplyTo = ch.reply.name
	return &c, nil
}

// isReplyName says whether a routing key on the default exchange names a
// reply consumer rather than a queue (virtual_reply_queue).
func isReplyName(exchange, key string) bool {
	return exchange == "" && strings.HasPrefix(key, replyPrefix)
}

// deliverReply sends a publish to the reply consumer its routing key
// names; a name that no live reply consumer has is dropped.
func (ch *channel) deliverReply(ctx *beam.Ctx, m *BasicPublish) {
	to, ok := ch.n.cluster.replies[m.Key]
	if !ok {
		return
	}
	if ch.n.remote(to) {
		ch.n.hop(ctx)
	}
	ctx.Send(to, beam.Msg{Kind: kDeliverReply, P: &Message{Key: m.Key, Props: &m.Props, Body: m.Body}})
}

// replied hands a reply to the client if it is for this channel's reply
// consumer as it is now (one made again since has another name).
func (ch *channel) replied(ctx *beam.Ctx, msg *Message) {
	if r := ch.reply; r != nil && r.name == msg.Key {
		ch.send(ctx, &Deliver{ConsumerTag: r.tag, DeliveryTag: ch.nextTag + 1, Msg: msg})
	}
}

// declareReply is queue.declare of the pseudo-queue or of a reply
// consumer's name: every such declare is passive, and one that exists has
// one consumer.
func (ch *channel) declareReply(ctx *beam.Ctx, name string) *amqp.Error {
	if _, ok := ch.n.cluster.replies[name]; name != replyQueue && !ok {
		return notFoundQueue(name)
	}
	ch.send(ctx, DeclareOk{Queue: name, Consumers: 1})
	return nil
}
