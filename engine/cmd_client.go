package engine

// The client commands: AMQP 0-9-1 methods, each turned into the frames a
// client library would send, on the connection and channel it names
// (on=cN.M). The simulated client side is client.go.

import (
	"bytes"
	"strconv"
	"strings"

	"warren/engine/amqp"
	"warren/engine/node"
	"warren/engine/say"
	"warren/engine/script"
)

// clientCommands are the AMQP methods.
var clientCommands = []command{
	{"queue.declare", method(func(s *Sim, cmd script.Command, _ *clientChan) any {
		return &node.QueueDeclare{Queue: cmd.Str("queue", ""), Durable: cmd.Has("durable"), Exclusive: cmd.Has("exclusive"),
			AutoDelete: cmd.Has("auto-delete"), Passive: cmd.Has("passive"), Args: cmd.Table()}
	})},
	{"queue.delete", method(func(s *Sim, cmd script.Command, _ *clientChan) any {
		return &node.QueueDelete{Queue: cmd.Str("queue", ""), IfUnused: cmd.Has("if-unused"), IfEmpty: cmd.Has("if-empty")}
	})},
	{"queue.purge", method(func(s *Sim, cmd script.Command, _ *clientChan) any {
		return &node.QueuePurge{Queue: cmd.Str("queue", "")}
	})},
	{"queue.bind", method(func(s *Sim, cmd script.Command, _ *clientChan) any {
		return &node.QueueBind{Queue: cmd.Str("queue", ""), Exchange: cmd.Str("exchange", ""), Key: cmd.Str("key", ""), Args: cmd.Table()}
	})},
	{"queue.unbind", method(func(s *Sim, cmd script.Command, _ *clientChan) any {
		return &node.QueueUnbind{Queue: cmd.Str("queue", ""), Exchange: cmd.Str("exchange", ""), Key: cmd.Str("key", ""), Args: cmd.Table()}
	})},
	{"exchange.declare", method(func(s *Sim, cmd script.Command, _ *clientChan) any {
		return &node.ExchangeDeclare{Exchange: cmd.Str("exchange", ""), Type: cmd.Str("type", ""), Durable: cmd.Has("durable"),
			AutoDelete: cmd.Has("auto-delete"), Passive: cmd.Has("passive"), Internal: cmd.Has("internal"), Args: cmd.Table()}
	})},
	{"exchange.bind", method(func(s *Sim, cmd script.Command, _ *clientChan) any {
		return &node.ExchangeBind{Destination: cmd.Str("destination", ""), Source: cmd.Str("source", ""), Key: cmd.Str("key", ""), Args: cmd.Table()}
	})},
	{"exchange.unbind", method(func(s *Sim, cmd script.Command, _ *clientChan) any {
		return &node.ExchangeBind{Destination: cmd.Str("destination", ""), Source: cmd.Str("source", ""), Key: cmd.Str("key", ""), Args: cmd.Table(), Unbind: true}
	})},
	{"tx.select", method(func(s *Sim, cmd script.Command, _ *clientChan) any { return node.TxSelect{} })},
	{"tx.commit", method(func(s *Sim, cmd script.Command, _ *clientChan) any { return node.TxCommit{} })},
	{"tx.rollback", method(func(s *Sim, cmd script.Command, _ *clientChan) any { return node.TxRollback{} })},
	{"exchange.delete", method(func(s *Sim, cmd script.Command, _ *clientChan) any {
		return &node.ExchangeDelete{Exchange: cmd.Str("exchange", "")}
	})},
	{"basic.qos", method(func(s *Sim, cmd script.Command, _ *clientChan) any {
		return &node.BasicQos{PrefetchCount: int(cmd.Int("prefetch", 0)), PrefetchSize: cmd.Int("prefetch-size", 0), Global: cmd.Has("global")}
	})},
	{"basic.consume", method(consume)},
	{"basic.cancel", method(func(s *Sim, cmd script.Command, _ *clientChan) any {
		return &node.BasicCancel{Tag: cmd.Str("tag", "")}
	})},
	{"basic.publish", handler{family: familyClient, check: checkConnOpen, apply: func(s *Sim, cmd script.Command) ([]string, error) {
		_, send := s.clientChannel(cmd)
		s.publish(cmd, send)
		return nil, nil
	}}},
	{"basic.get", method(func(s *Sim, cmd script.Command, _ *clientChan) any {
		return &node.BasicGet{Queue: cmd.Str("queue", ""), NoAck: cmd.Has("no-ack")}
	})},
	{"basic.ack", method(func(s *Sim, cmd script.Command, _ *clientChan) any {
		return s.cluster.NewAck(uint64(cmd.Int("tag", 0)), cmd.Has("multiple"))
	})},
	{"basic.nack", method(func(s *Sim, cmd script.Command, _ *clientChan) any {
		return &node.BasicNack{Tag: uint64(cmd.Int("tag", 0)), Multiple: cmd.Has("multiple"), Requeue: cmd.Bool("requeue", true)}
	})},
	{"basic.reject", method(func(s *Sim, cmd script.Command, _ *clientChan) any {
		return &node.BasicNack{Tag: uint64(cmd.Int("tag", 0)), Requeue: cmd.Bool("requeue", true), Reject: true}
	})},
	{"basic.recover", method(func(s *Sim, cmd script.Command, _ *clientChan) any {
		return &node.BasicRecover{Requeue: cmd.Bool("requeue", false)}
	})},
	{"confirm.select", method(func(s *Sim, cmd script.Command, ch *clientChan) any {
		ch.confirm = true
		return node.ConfirmSelect{}
	})},
	// closing what is not open does nothing, on any node
	{"channel.close", handler{family: familyClient, apply: channelClose}},
	{"connection.close", handler{family: familyClient, apply: connectionClose}},
}

// method is the handler of an AMQP method that sends one frame, built by
// frame, on the channel the command names (opened on first use).
func method(frame func(s *Sim, cmd script.Command, ch *clientChan) any) handler {
	return handler{family: familyClient, check: checkConnOpen, apply: func(s *Sim, cmd script.Command) ([]string, error) {
		ch, send := s.clientChannel(cmd)
		send(frame(s, cmd, ch))
		return nil, nil
	}}
}

// checkConnOpen refuses a method on a connection whose node is stopped.
func checkConnOpen(s *Sim, cmd script.Command) error {
	if err := s.cluster.CheckConnOpen(cmd.On().Conn); err != nil {
		return say.Wrap("con.named", err, cmd.Name)
	}
	return nil
}

// clientChannel is the client's side of the channel a command names: a
// connection the broker closed opens again, and a channel opens on first
// use. send puts a frame on it.
func (s *Sim) clientChannel(cmd script.Command) (*clientChan, func(any)) {
	on := cmd.On()
	cc := s.client.conn(on.Conn)
	if !s.cluster.Open(on.Conn) {
		cc.open = true
		cc.chans = map[int]*clientChan{}
	}
	ch := cc.chans[on.Chan]
	if ch == nil {
		ch = &clientChan{open: true}
		cc.chans[on.Chan] = ch
	}
	return ch, func(m any) { s.cluster.Send(on.Conn, on.Chan, m) }
}

func channelClose(s *Sim, cmd script.Command) ([]string, error) {
	on := cmd.On()
	cc := s.client.conn(on.Conn)
	if !s.cluster.Open(on.Conn) {
		cc.open = true
		cc.chans = map[int]*clientChan{}
	}
	if cc.chans[on.Chan] == nil {
		return nil, nil
	}
	s.cluster.Send(on.Conn, on.Chan, node.ChannelClose{})
	delete(cc.chans, on.Chan)
	return nil, nil
}

func connectionClose(s *Sim, cmd script.Command) ([]string, error) {
	on := cmd.On()
	cc := s.client.conn(on.Conn)
	if !s.cluster.Open(on.Conn) {
		return nil, nil
	}
	s.cluster.Send(on.Conn, 0, node.ConnectionClose{})
	cc.open = false
	cc.chans = map[int]*clientChan{}
	return nil, nil
}

// consume names the consumer (amq.ctag-N without tag=) and notes a
// consumer whose client acknowledges by itself (ack-every=N).
func consume(s *Sim, cmd script.Command, _ *clientChan) any {
	on := cmd.On()
	tag := cmd.Str("tag", "")
	if !cmd.Has("tag") {
		s.client.ctagN++
		tag = "amq.ctag-" + strconv.Itoa(s.client.ctagN)
	}
	if every := cmd.Int("ack-every", 0); every > 0 && !cmd.Has("no-ack") {
		s.client.autoAck[autoKey{on.Conn, on.Chan, tag}] = &autoAck{every: int(every), work: cmd.Int("work-us", 0)}
		s.client.lastAuto = nil
	}
	return &node.BasicConsume{Queue: cmd.Str("queue", ""), Tag: tag, NoAck: cmd.Has("no-ack"), Exclusive: cmd.Has("exclusive"), Args: cmd.Table()}
}

// publish sends count=N basic.publish frames, {i} in the body or key
// numbering them.
func (s *Sim) publish(cmd script.Command, send func(any)) {
	props := amqp.Properties{Headers: cmd.Headers()}
	if cmd.Has("persistent") {
		props.DeliveryMode = 2
	}
	if p := cmd.Int("priority", 0); p > 0 {
		props.Priority, props.HasPriority = uint8(p), true
	}
	if cmd.Has("expiration") {
		props.Expiration, props.HasExpiration = cmd.Str("expiration", ""), true
	}
	props.ContentType, props.ContentEncoding = cmd.Str("content-type", ""), cmd.Str("content-encoding", "")
	props.CorrelationID, props.ReplyTo, props.MessageID = cmd.Str("correlation-id", ""), cmd.Str("reply-to", ""), cmd.Str("message-id", "")
	props.Type, props.UserID, props.AppID = cmd.Str("type", ""), cmd.Str("user-id", ""), cmd.Str("app-id", "")
	if cmd.Has("timestamp") {
		props.Timestamp, props.HasTimestamp = uint64(cmd.Int("timestamp", 0)), true
	}
	var body []byte
	text := cmd.Str("body", "")
	perMessage := strings.Contains(text, script.IndexMark)
	if cmd.Has("size") {
		body = bytes.Repeat([]byte{'x'}, int(cmd.Int("size", 0)))
	} else if !perMessage {
		body = []byte(text)
	}
	count := cmd.Int("count", 1)
	tmpl := node.BasicPublish{Exchange: cmd.Str("exchange", ""), Key: cmd.Str("key", ""), Mandatory: cmd.Has("mandatory"),
		Immediate: cmd.Has("immediate"), Props: props, Body: body}
	perKey := strings.Contains(tmpl.Key, script.IndexMark)
	// NB: frames are immutable once sent, so identical publishes share one.
	shared := &tmpl
	for i := int64(0); i < count; i++ {
		if perMessage || perKey {
			f := tmpl
			if perMessage {
				f.Body = []byte(script.Indexed(text, i))
			}
			f.Key = script.Indexed(tmpl.Key, i)
			send(&f)
			continue
		}
		send(shared)
	}
}
