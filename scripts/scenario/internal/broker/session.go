package broker

import (
	"fmt"

	amqp091 "github.com/rabbitmq/amqp091-go"

	"warren/engine/amqp"
	"warren/engine/script"
	"warren/engine/trace"
)

// conn is one client connection named cN in the scenario.
type conn struct {
	n     int
	c     *amqp091.Connection
	tap   *tap
	chans map[int]*channel
}

// channel is one channel named cN.M in the scenario.
type channel struct {
	conn *conn
	n    int
	id   uint16 // the AMQP channel number
	ch   *amqp091.Channel
}

func (c *channel) closed() bool { return c.ch.IsClosed() }

// channelFor returns the open channel a command acts on, opening its
// connection and the channel on first use, and again after either was
// closed (by the broker or by the scenario).
func (t *Target) channelFor(on script.Target) (*channel, error) {
	cn, err := t.connFor(on.Conn)
	if err != nil {
		return nil, err
	}
	if ch := cn.chans[on.Chan]; ch != nil && !ch.closed() {
		return ch, nil
	}
	raw, err := cn.c.Channel()
	if err != nil {
		return nil, fmt.Errorf("open channel %s: %w", on, err)
	}
	ch := &channel{conn: cn, n: on.Chan, id: cn.tap.opened(), ch: raw}
	t.watchChannel(ch)
	cn.chans[on.Chan] = ch
	return ch, nil
}

func (t *Target) connFor(n int) (*conn, error) {
	if cn := t.conns[n]; cn != nil && !cn.c.IsClosed() {
		return cn, nil
	}
	addr, err := t.nodeURL(t.connNode[n])
	if err != nil {
		return nil, err
	}
	cfg, tp := t.rec.dialer(n)
	raw, err := amqp091.DialConfig(addr, cfg)
	if err != nil {
		return nil, fmt.Errorf("connect c%d to %s: %w", n, addr, err)
	}
	cn := &conn{n: n, c: raw, tap: tp, chans: map[int]*channel{}}
	t.watchConn(cn)
	t.conns[n] = cn
	return cn, nil
}

// watchConn collects the connection's own events: the broker closing it,
// and connection.blocked / unblocked.
func (t *Target) watchConn(cn *conn) {
	closes := cn.c.NotifyClose(make(chan *amqp091.Error, 1))
	blocks := cn.c.NotifyBlocked(make(chan amqp091.Blocking))
	go func() {
		for closes != nil || blocks != nil {
			select {
			case e, ok := <-closes:
				if !ok {
					closes = nil
					continue
				}
				if e != nil {
					e = cn.tap.reason(e)
					t.rec.add(trace.Event{Conn: cn.n, Kind: trace.ConnectionClosed, Code: e.Code, Text: e.Reason}, e)
				}
			case b, ok := <-blocks:
				if !ok {
					blocks = nil
					continue
				}
				ev := trace.Event{Conn: cn.n, Kind: trace.Unblocked}
				if b.Active {
					ev.Kind, ev.Text = trace.Blocked, b.Reason
				}
				t.rec.add(ev, nil)
			}
		}
	}()
}

// watchChannel collects a channel's asynchronous events; the recorder
// puts them in the order their frames came.
func (t *Target) watchChannel(ch *channel) {
	closes := ch.ch.NotifyClose(make(chan *amqp091.Error, 1))
	returns := ch.ch.NotifyReturn(make(chan amqp091.Return))
	confirms := ch.ch.NotifyPublish(make(chan amqp091.Confirmation))
	cancels := ch.ch.NotifyCancel(make(chan string))
	at := trace.Event{Conn: ch.conn.n, Chan: ch.n}
	go func() {
		for closes != nil || returns != nil || confirms != nil || cancels != nil {
			ev := at
			var cause *amqp091.Error
			select {
			case e, ok := <-closes:
				if !ok || e == nil {
					closes = nil
					continue
				}
				ev.Kind, ev.Code, ev.Text, cause = trace.ChannelClosed, e.Code, e.Reason, e
			case r, ok := <-returns:
				if !ok {
					returns = nil
					continue
				}
				ev.Kind, ev.Code, ev.Text = trace.Return, int(r.ReplyCode), r.ReplyText
				ev.Exchange, ev.Key, ev.Body, ev.Props = r.Exchange, r.RoutingKey, r.Body, returnProps(&r)
			case c, ok := <-confirms:
				if !ok {
					confirms = nil
					continue
				}
				ev.Kind, ev.Seq = trace.ConfirmAck, c.DeliveryTag
				if !c.Ack {
					ev.Kind = trace.ConfirmNack
				}
			case tag, ok := <-cancels:
				if !ok {
					cancels = nil
					continue
				}
				ev.Kind, ev.ConsumerTag = trace.Cancelled, tag
			}
			t.rec.addOn(ch.id, ev, cause)
		}
	}()
}

// watchDeliveries records a consumer's deliveries; the recorder puts them
// in the order their frames came, among those of every other consumer and
// channel. With ackEvery > 0 the client acks by
// itself every ackEvery-th delivery (multiple when ackEvery > 1), as the
// engine's client does for basic.consume ack-every=N.
func (t *Target) watchDeliveries(ch *channel, deliveries <-chan amqp091.Delivery, ackEvery int) {
	at := trace.Event{Conn: ch.conn.n, Chan: ch.n, Kind: trace.Deliver}
	go func() {
		seen := 0
		for d := range deliveries {
			ev := at
			ev.ConsumerTag, ev.DeliveryTag, ev.Redelivered = d.ConsumerTag, d.DeliveryTag, d.Redelivered
			ev.Exchange, ev.Key, ev.Body, ev.Props = d.Exchange, d.RoutingKey, d.Body, props(&d)
			t.rec.addOn(ch.id, ev, nil)
			if seen++; ackEvery > 0 && seen%ackEvery == 0 {
				// A failure means the channel is gone; its close is reported.
				_ = ch.ch.Ack(d.DeliveryTag, ackEvery > 1)
			}
		}
	}()
}

// props reads the properties warren prints from a delivery. amqp091-go
// cannot tell an absent priority from priority 0, nor an absent short
// string from an empty one, and the language treats them alike.
func props(d *amqp091.Delivery) *amqp.Properties {
	return readProps(d.DeliveryMode, d.Priority, d.Expiration, d.Headers, amqp091.Publishing{
		ContentType: d.ContentType, ContentEncoding: d.ContentEncoding, CorrelationId: d.CorrelationId,
		ReplyTo: d.ReplyTo, MessageId: d.MessageId, Timestamp: d.Timestamp, Type: d.Type, UserId: d.UserId, AppId: d.AppId,
	})
}

// returnProps reads the properties of a returned message.
func returnProps(r *amqp091.Return) *amqp.Properties {
	return readProps(r.DeliveryMode, r.Priority, r.Expiration, r.Headers, amqp091.Publishing{
		ContentType: r.ContentType, ContentEncoding: r.ContentEncoding, CorrelationId: r.CorrelationId,
		ReplyTo: r.ReplyTo, MessageId: r.MessageId, Timestamp: r.Timestamp, Type: r.Type, UserId: r.UserId, AppId: r.AppId,
	})
}

// readProps gathers the properties; p carries the short strings and the
// timestamp (zero when absent).
func readProps(mode, prio uint8, expiration string, headers amqp091.Table, p amqp091.Publishing) *amqp.Properties {
	out := &amqp.Properties{
		DeliveryMode:    mode,
		Priority:        prio,
		HasPriority:     prio > 0,
		Expiration:      expiration,
		HasExpiration:   expiration != "",
		Headers:         fromTable(headers),
		ContentType:     p.ContentType,
		ContentEncoding: p.ContentEncoding,
		CorrelationID:   p.CorrelationId,
		ReplyTo:         p.ReplyTo,
		MessageID:       p.MessageId,
		Type:            p.Type,
		UserID:          p.UserId,
		AppID:           p.AppId,
	}
	if !p.Timestamp.IsZero() {
		out.Timestamp, out.HasTimestamp = uint64(p.Timestamp.Unix()), true
	}
	return out
}

// closeChannel closes cN.M if it is open; closing what is not open does
// nothing.
func (t *Target) closeChannel(on script.Target) error {
	cn := t.conns[on.Conn]
	if cn == nil || cn.c.IsClosed() {
		return nil
	}
	ch := cn.chans[on.Chan]
	if ch == nil || ch.closed() {
		return nil
	}
	delete(cn.chans, on.Chan)
	if err := ch.ch.Close(); err != nil && !isBrokerError(err) {
		return fmt.Errorf("close channel %s: %w", on, err)
	}
	return nil
}

// closeConn closes cN if it is open.
func (t *Target) closeConn(n int) error {
	cn := t.conns[n]
	if cn == nil {
		return nil
	}
	delete(t.conns, n)
	if cn.c.IsClosed() {
		return nil
	}
	if err := cn.c.Close(); err != nil && !isBrokerError(err) {
		return fmt.Errorf("close connection c%d: %w", n, err)
	}
	return nil
}
