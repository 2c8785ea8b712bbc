package engine

import (
	"bytes"
	"fmt"
	"strconv"
	"strings"

	"warren/engine/amqp"
	"warren/engine/node"
	"warren/engine/script"
	"warren/engine/trace"
)

// submit turns a client command into the frames a client library would
// send, on the connection and channel it names.
func (s *Sim) submit(cmd script.Command) {
	on := cmd.On()
	cc := s.client.conn(on.Conn)
	if cmd.Name == "connection.close" {
		if !s.cluster.Open(on.Conn) {
			return
		}
		s.cluster.Send(on.Conn, 0, node.ConnectionClose{})
		cc.open = false
		cc.chans = map[int]*clientChan{}
		return
	}
	if !s.cluster.Open(on.Conn) {
		cc.open = true
		cc.chans = map[int]*clientChan{}
	}
	ch := cc.chans[on.Chan]
	if cmd.Name == "channel.close" {
		if ch == nil {
			return
		}
		s.cluster.Send(on.Conn, on.Chan, node.ChannelClose{})
		delete(cc.chans, on.Chan)
		return
	}
	if ch == nil {
		ch = &clientChan{open: true}
		cc.chans[on.Chan] = ch
	}
	send := func(m any) { s.cluster.Send(on.Conn, on.Chan, m) }
	switch cmd.Name {
	case "queue.declare":
		send(&node.QueueDeclare{Queue: cmd.Str("queue", ""), Durable: cmd.Has("durable"), Exclusive: cmd.Has("exclusive"),
			AutoDelete: cmd.Has("auto-delete"), Passive: cmd.Has("passive"), Args: cmd.Table()})
	case "queue.delete":
		send(&node.QueueDelete{Queue: cmd.Str("queue", ""), IfUnused: cmd.Has("if-unused"), IfEmpty: cmd.Has("if-empty")})
	case "queue.purge":
		send(&node.QueuePurge{Queue: cmd.Str("queue", "")})
	case "queue.bind":
		send(&node.QueueBind{Queue: cmd.Str("queue", ""), Exchange: cmd.Str("exchange", ""), Key: cmd.Str("key", ""), Args: cmd.Table()})
	case "queue.unbind":
		send(&node.QueueUnbind{Queue: cmd.Str("queue", ""), Exchange: cmd.Str("exchange", ""), Key: cmd.Str("key", ""), Args: cmd.Table()})
	case "exchange.declare":
		send(&node.ExchangeDeclare{Exchange: cmd.Str("exchange", ""), Type: cmd.Str("type", ""), Durable: cmd.Has("durable"),
			AutoDelete: cmd.Has("auto-delete"), Args: cmd.Table()})
	case "exchange.delete":
		send(&node.ExchangeDelete{Exchange: cmd.Str("exchange", "")})
	case "basic.qos":
		send(&node.BasicQos{PrefetchCount: int(cmd.Int("prefetch", 0)), PrefetchSize: cmd.Int("prefetch-size", 0), Global: cmd.Has("global")})
	case "basic.consume":
		tag := cmd.Str("tag", "")
		if !cmd.Has("tag") {
			s.client.ctagN++
			tag = "amq.ctag-" + strconv.Itoa(s.client.ctagN)
		}
		if every := cmd.Int("ack-every", 0); every > 0 && !cmd.Has("no-ack") {
			s.client.autoAck[autoKey{on.Conn, on.Chan, tag}] = &autoAck{every: int(every), work: cmd.Int("work-us", 0)}
			s.client.lastAuto = nil
		}
		send(&node.BasicConsume{Queue: cmd.Str("queue", ""), Tag: tag, NoAck: cmd.Has("no-ack"), Exclusive: cmd.Has("exclusive"), Args: cmd.Table()})
	case "basic.cancel":
		send(&node.BasicCancel{Tag: cmd.Str("tag", "")})
	case "basic.publish":
		s.publish(cmd, send)
	case "basic.get":
		send(&node.BasicGet{Queue: cmd.Str("queue", ""), NoAck: cmd.Has("no-ack")})
	case "basic.ack":
		send(s.cluster.NewAck(uint64(cmd.Int("tag", 0)), cmd.Has("multiple")))
	case "basic.nack":
		send(&node.BasicNack{Tag: uint64(cmd.Int("tag", 0)), Multiple: cmd.Has("multiple"), Requeue: cmd.Bool("requeue", true)})
	case "basic.reject":
		send(&node.BasicNack{Tag: uint64(cmd.Int("tag", 0)), Requeue: cmd.Bool("requeue", true), Reject: true})
	case "basic.recover":
		send(&node.BasicRecover{Requeue: cmd.Bool("requeue", false)})
	case "confirm.select":
		ch.confirm = true
		send(node.ConfirmSelect{})
	}
}

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

// operator runs set_policy, clear_policy and list_queues.
func (s *Sim) operator(cmd script.Command) []string {
	switch cmd.Name {
	case "set_policy":
		err := s.cluster.SetPolicy(cmd.Str("name", ""), cmd.Str("pattern", ""), cmd.Str("apply-to", "all"), int(cmd.Int("priority", 0)), cmd.Table())
		if err != nil {
			return []string{"error: " + err.Error()}
		}
	case "clear_policy":
		if err := s.cluster.ClearPolicy(cmd.Str("name", "")); err != nil {
			return []string{"error: " + err.Error()}
		}
	case "crash":
		if err := s.cluster.CrashQueue(cmd.Str("queue", "")); err != nil {
			return []string{"error: " + err.Error()}
		}
	case "stop_app", "start_app":
		m, err := s.cluster.Member(cmd.Str("node", ""))
		if err == nil && cmd.Name == "stop_app" {
			err = s.cluster.StopApp(m)
		} else if err == nil {
			err = s.cluster.StartApp(m)
		}
		if err != nil {
			return []string{"error: " + err.Error()}
		}
	case "list_policies":
		var out []string
		for _, p := range s.cluster.Policies() {
			out = append(out, trace.PolicyLine(p.Name, p.Pattern, p.ApplyTo, p.Priority, p.Definition))
		}
		return out
	case "list_queues":
		cols := cmd.Words()
		if len(cols) == 0 {
			cols = []string{"messages"}
		}
		var out []string
		for _, q := range s.cluster.ListQueues() {
			var b strings.Builder
			b.WriteString("queue name=" + q.Name)
			for _, c := range cols {
				if c == "name" {
					continue
				}
				b.WriteString(" " + c + "=" + queueColumn(q, c))
			}
			out = append(out, b.String())
		}
		return out
	}
	return nil
}

func queueColumn(q node.QueueInfo, col string) string {
	if q.Down {
		// rabbitmqctl cannot ask the process of a queue whose node is down
		switch col {
		case "messages", "messages_ready", "messages_unacknowledged", "consumers", "memory", "message_bytes":
			return ""
		case "state":
			return "down"
		}
	}
	switch col {
	case "messages":
		return strconv.Itoa(q.Messages)
	case "messages_ready":
		return strconv.Itoa(q.Ready)
	case "messages_unacknowledged":
		return strconv.Itoa(q.Unack)
	case "consumers":
		return strconv.Itoa(q.Consumers)
	case "durable":
		return strconv.FormatBool(q.Durable)
	case "auto_delete":
		return strconv.FormatBool(q.AutoDelete)
	case "exclusive":
		return strconv.FormatBool(q.Exclusive)
	case "policy":
		return q.Policy
	case "message_bytes":
		return strconv.FormatInt(q.Bytes, 10)
	case "arguments":
		return q.Args.String()
	case "state":
		return "running"
	case "node":
		return q.Node
	}
	return fmt.Sprintf("?%s", col)
}
