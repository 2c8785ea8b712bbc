package broker

import (
	"errors"
	"fmt"
	"strconv"
	"strings"
	"time"

	amqp091 "github.com/rabbitmq/amqp091-go"

	"warren/engine/script"
	"warren/engine/trace"
)

// isBrokerError reports whether err is an AMQP exception from the broker
// (or the client noticing that the broker already closed the channel). Such
// an error needs no line of its own: the close collectors print it.
func isBrokerError(err error) bool {
	var e *amqp091.Error
	return errors.As(err, &e)
}

// client runs one client command (an AMQP method, or wait) and records the
// synchronous replies that print something. It returns an error only for a
// failure that is not the broker's answer (no connection, a client-side
// refusal).
func (t *Target) client(cmd *script.Command) error {
	on := cmd.On()
	switch cmd.Name {
	case "wait":
		time.Sleep(time.Duration(cmd.Int("ms", 0)) * time.Millisecond)
		return nil
	case "channel.close":
		return t.closeChannel(on)
	case "connection.close":
		return t.closeConn(on.Conn)
	}
	ch, err := t.channelFor(on)
	if err != nil {
		return err
	}
	err = t.method(ch, cmd)
	if err != nil && isBrokerError(err) {
		return nil
	}
	if err == nil && asynchronous[cmd.Name] {
		barrier(ch)
	}
	return err
}

// asynchronous are the methods the broker does not answer.
var asynchronous = map[string]bool{
	"basic.publish": true, "basic.ack": true, "basic.nack": true, "basic.reject": true,
}

// barrier makes one synchronous round trip on ch after an asynchronous
// method, so that the channel process has handled the method (routed the
// publishes, passed the acks to the queues) before the runner starts
// counting quiet time and before the next command can overtake it through
// another channel. A passive declare of amq.direct changes nothing; if the
// broker closed the channel meanwhile the close collectors report it.
func barrier(ch *channel) {
	if !ch.closed() {
		_ = ch.ch.ExchangeDeclarePassive("amq.direct", "direct", true, false, false, false, nil)
	}
}

// method sends one AMQP method on ch.
func (t *Target) method(ch *channel, cmd *script.Command) error {
	c := ch.ch
	at := trace.Event{Conn: ch.conn.n, Chan: ch.n}
	queue := cmd.Str("queue", "")
	switch cmd.Name {
	case "queue.declare":
		declare := c.QueueDeclare
		if cmd.Has("passive") {
			declare = c.QueueDeclarePassive
		}
		q, err := declare(queue, cmd.Has("durable"), cmd.Has("auto-delete"), cmd.Has("exclusive"), false, toTable(cmd.Table()))
		if err != nil {
			return err
		}
		at.Kind, at.Queue, at.Messages, at.Consumers = trace.DeclareOK, q.Name, q.Messages, q.Consumers
	case "queue.delete":
		n, err := c.QueueDelete(queue, cmd.Has("if-unused"), cmd.Has("if-empty"), false)
		if err != nil {
			return err
		}
		at.Kind, at.Messages = trace.DeleteOK, n
	case "queue.purge":
		n, err := c.QueuePurge(queue, false)
		if err != nil {
			return err
		}
		at.Kind, at.Messages = trace.PurgeOK, n
	case "queue.bind":
		return c.QueueBind(queue, cmd.Str("key", ""), cmd.Str("exchange", ""), false, toTable(cmd.Table()))
	case "queue.unbind":
		return c.QueueUnbind(queue, cmd.Str("key", ""), cmd.Str("exchange", ""), toTable(cmd.Table()))
	case "exchange.declare":
		declare := c.ExchangeDeclare
		if cmd.Has("passive") {
			declare = c.ExchangeDeclarePassive
		}
		return declare(cmd.Str("exchange", ""), cmd.Str("type", ""), cmd.Has("durable"), cmd.Has("auto-delete"), cmd.Has("internal"), false, toTable(cmd.Table()))
	case "exchange.bind":
		return c.ExchangeBind(cmd.Str("destination", ""), cmd.Str("key", ""), cmd.Str("source", ""), false, toTable(cmd.Table()))
	case "exchange.unbind":
		return c.ExchangeUnbind(cmd.Str("destination", ""), cmd.Str("key", ""), cmd.Str("source", ""), false, toTable(cmd.Table()))
	case "tx.select":
		return c.Tx()
	case "tx.commit":
		return c.TxCommit()
	case "tx.rollback":
		return c.TxRollback()
	case "exchange.delete":
		return c.ExchangeDelete(cmd.Str("exchange", ""), false, false)
	case "basic.qos":
		return c.Qos(int(cmd.Int("prefetch", 0)), int(cmd.Int("prefetch-size", 0)), cmd.Has("global"))
	case "basic.consume":
		tag, ok := cmd.Arg("tag")
		name := tag.Val
		if !ok {
			t.ctags++
			name = "amq.ctag-" + strconv.Itoa(t.ctags)
		}
		deliveries, err := c.Consume(queue, name, cmd.Has("no-ack"), cmd.Has("exclusive"), false, false, toTable(cmd.Table()))
		if err != nil {
			return err
		}
		if queue == "amq.rabbitmq.reply-to" {
			t.reply.consumed("c" + strconv.Itoa(ch.conn.n) + "." + strconv.Itoa(ch.n))
		}
		at.Kind, at.ConsumerTag = trace.ConsumeOK, name
		t.rec.addOn(ch.id, at, nil)
		every := 0
		if !cmd.Has("no-ack") {
			every = int(cmd.Int("ack-every", 0))
		}
		t.watchDeliveries(ch, deliveries, every)
		return nil
	case "basic.cancel":
		return c.Cancel(cmd.Str("tag", ""), false)
	case "basic.publish":
		return t.publish(c, cmd)
	case "basic.get":
		d, ok, err := c.Get(queue, cmd.Has("no-ack"))
		if err != nil {
			return err
		}
		if !ok {
			at.Kind = trace.GetEmpty
			break
		}
		at.Kind, at.DeliveryTag, at.Redelivered = trace.GetOK, d.DeliveryTag, d.Redelivered
		at.Exchange, at.Key, at.Messages, at.Body, at.Props = d.Exchange, d.RoutingKey, int(d.MessageCount), d.Body, props(&d)
	case "basic.ack":
		return c.Ack(uint64(cmd.Int("tag", 0)), cmd.Has("multiple"))
	case "basic.nack":
		return c.Nack(uint64(cmd.Int("tag", 0)), cmd.Has("multiple"), cmd.Bool("requeue", true))
	case "basic.reject":
		return c.Reject(uint64(cmd.Int("tag", 0)), cmd.Bool("requeue", true))
	case "basic.recover":
		return c.Recover(cmd.Bool("requeue", false))
	case "confirm.select":
		return c.Confirm(false)
	default:
		return fmt.Errorf("%s: the broker target does not know this command", cmd.Name)
	}
	t.rec.addOn(ch.id, at, nil)
	return nil
}

// publish sends count messages (1 by default); `{i}` in the body or the
// routing key becomes the message's index. It stops at the first failure:
// once the broker has closed the channel the rest could not be sent anyway.
func (t *Target) publish(c *amqp091.Channel, cmd *script.Command) error {
	body := cmd.Str("body", "")
	if cmd.Has("size") {
		body = strings.Repeat("x", int(cmd.Int("size", 0)))
	}
	msg := amqp091.Publishing{
		Priority:        uint8(cmd.Int("priority", 0)),
		Expiration:      cmd.Str("expiration", ""),
		Headers:         toTable(cmd.Headers()),
		ContentType:     cmd.Str("content-type", ""),
		ContentEncoding: cmd.Str("content-encoding", ""),
		CorrelationId:   cmd.Str("correlation-id", ""),
		ReplyTo:         cmd.Str("reply-to", ""),
		MessageId:       cmd.Str("message-id", ""),
		Type:            cmd.Str("type", ""),
		UserId:          cmd.Str("user-id", ""),
		AppId:           cmd.Str("app-id", ""),
	}
	if cmd.Has("timestamp") {
		msg.Timestamp = time.Unix(cmd.Int("timestamp", 0), 0)
	}
	if cmd.Has("persistent") {
		msg.DeliveryMode = amqp091.Persistent
	}
	exchange, key := cmd.Str("exchange", ""), cmd.Str("key", "")
	mandatory, immediate := cmd.Has("mandatory"), cmd.Has("immediate")
	for i := range cmd.Int("count", 1) {
		msg.Body = []byte(script.Indexed(body, i))
		if err := c.Publish(exchange, script.Indexed(key, i), mandatory, immediate, msg); err != nil {
			return err
		}
	}
	return nil
}
