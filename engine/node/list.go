package node

// What rabbitmqctl's list commands show of exchanges, bindings, consumers,
// channels and connections (rabbit_exchange:info, rabbit_binding:info,
// rabbit_amqqueue:consumers, rabbit_channel:info, rabbit_reader:info).

import (
	"sort"
	"strconv"

	"warren/engine/amqp"
	"warren/engine/beam"
)

// ExchangeInfo is one exchange as list_exchanges shows it.
type ExchangeInfo struct {
	Name, Type                    string
	Durable, AutoDelete, Internal bool
	Args                          amqp.Table
	// Policy is the name of the policy in force, empty when none applies.
	Policy string
}

// ListExchanges returns every exchange of the vhost, sorted by name.
func (c *Cluster) ListExchanges() []ExchangeInfo {
	var out []ExchangeInfo
	for _, name := range c.ExchangeNames() {
		x := c.exchanges[name]
		info := ExchangeInfo{Name: x.Name, Type: x.Type, Durable: x.Durable, AutoDelete: x.AutoDelete, Internal: x.Internal, Args: x.Args}
		if p := c.exchangePolicyFor(x.Name); p != nil {
			info.Policy = p.Name
		}
		out = append(out, info)
	}
	return out
}

// BindingInfo is one binding as list_bindings shows it.
type BindingInfo struct {
	Source, SourceKind, Destination, DestinationKind, Key string
	Args                                                  amqp.Table
}

// ListBindings returns every binding, the default exchange's implicit one
// to each queue included, but none to a durable queue whose node is down
// (RabbitMQ keeps those routes only in its durable tables until the queue
// comes back, and rabbit_binding:list/1 reads the others). They are
// sorted by source, destination and routing key, and bindings that differ
// only in their arguments as mnesia keeps them, in the Erlang order of
// the arguments.
func (c *Cluster) ListBindings() []BindingInfo {
	var out []BindingInfo
	for _, q := range c.ListQueues() {
		if q.Down {
			continue
		}
		out = append(out, BindingInfo{SourceKind: "exchange", Destination: q.Name, DestinationKind: "queue", Key: q.Name})
	}
	for _, name := range c.ExchangeNames() {
		for _, b := range c.exchanges[name].Bindings {
			kind, dest := "queue", b.Queue
			if b.Exchange != "" {
				kind, dest = "exchange", b.Exchange
			} else if q := c.queues[b.Queue]; q != nil && q.down {
				continue
			}
			out = append(out, BindingInfo{Source: name, SourceKind: "exchange", Destination: dest, DestinationKind: kind, Key: b.Key, Args: b.Args})
		}
	}
	sort.SliceStable(out, func(i, j int) bool {
		a, b := out[i], out[j]
		if a.Source != b.Source {
			return a.Source < b.Source
		}
		if a.Destination != b.Destination {
			return a.Destination < b.Destination
		}
		if a.Key != b.Key {
			return a.Key < b.Key
		}
		return a.Args.Compare(b.Args) < 0
	})
	return out
}

// ConsumerListing is one consumer as list_consumers shows it.
type ConsumerListing struct {
	Queue, Tag, Channel string // Channel is cN.M
	AckRequired, Active bool
	ActivityStatus      string // up, single_active, waiting
	Prefetch            int
	Args                amqp.Table
}

// ListConsumers returns every consumer, sorted by queue then tag.
func (c *Cluster) ListConsumers() []ConsumerListing {
	var out []ConsumerListing
	for _, name := range c.QueueNames() {
		rec := c.queues[name]
		q := rec.proc
		if q == nil || rec.dead || rec.down {
			continue
		}
		for _, k := range q.allConsumers() {
			l := ConsumerListing{Queue: name, Tag: k.tag, AckRequired: k.ackRequired, Active: true, ActivityStatus: "up",
				Prefetch: k.prefetch, Args: k.args}
			if p := c.RT.Process(k.ch.pid); p != nil {
				if ch, ok := p.Handler.(*channel); ok {
					l.Channel = "c" + strconv.Itoa(ch.conn) + "." + strconv.Itoa(ch.num)
				}
			}
			if q.sac {
				l.ActivityStatus = "single_active"
				if q.holder != k {
					l.Active, l.ActivityStatus = false, "waiting"
				}
			}
			out = append(out, l)
		}
	}
	sort.SliceStable(out, func(i, j int) bool {
		if out[i].Queue != out[j].Queue {
			return out[i].Queue < out[j].Queue
		}
		return out[i].Tag < out[j].Tag
	})
	return out
}

// ChannelInfo is one channel as list_channels shows it.
type ChannelInfo struct {
	Conn, Num           int
	Consumers, Unacked  int
	Prefetch, Global    int
	Confirm, Tx         bool
	Unconfirmed         int
	UncommittedMessages int
	UncommittedAcks     int
}

// ListChannels returns every open channel, by connection then number.
func (c *Cluster) ListChannels() []ChannelInfo {
	var out []ChannelInfo
	c.eachChannel(func(ch *channel) {
		if ch.dying {
			return
		}
		info := ChannelInfo{Conn: ch.conn, Num: ch.num, Consumers: len(ch.consumers), Unacked: ch.unacked.len(),
			Prefetch: ch.prefetch, Confirm: ch.confirm, Unconfirmed: len(ch.unconfirmed)}
		if ch.limiter.active {
			info.Global = ch.limiter.Prefetch
		}
		if ch.tx != nil {
			info.Tx, info.UncommittedMessages, info.UncommittedAcks = true, len(ch.tx.publishes), ch.tx.ackCount()
		}
		out = append(out, info)
	})
	return out
}

// ConnectionInfo is one connection as list_connections shows it.
type ConnectionInfo struct {
	Conn     int
	State    string // running, flow, blocking, blocked
	Channels int
}

// ListConnections returns every open connection, by number.
func (c *Cluster) ListConnections() []ConnectionInfo {
	var out []ConnectionInfo
	for _, r := range c.readers() {
		info := ConnectionInfo{Conn: r.conn, State: "running"}
		switch {
		case r.blocked:
			info.State = "blocked"
		case len(r.alarms) > 0:
			info.State = "blocking"
		case r.credit.blocked():
			info.State = "flow"
		}
		for _, ref := range r.chans {
			if p := c.RT.Process(ref.pid); p != nil {
				if ch, ok := p.Handler.(*channel); ok && !ch.closed && !ch.dying {
					info.Channels++
				}
			}
		}
		out = append(out, info)
	}
	return out
}

// CheckQueueAdmin refuses purge_queue or delete_queue as rabbitmqctl does,
// before the queue is touched: a queue that does not exist, and a
// conditional delete whose condition does not hold.
func (c *Cluster) CheckQueueAdmin(cmd, name string, ifUnused, ifEmpty bool) error {
	rec, ok := c.queues[name]
	if !ok || rec.dead {
		if cmd == "purge_queue" {
			return &OperatorError{Text: "not_found"}
		}
		return &OperatorError{Text: "Queue not found"}
	}
	q := rec.proc
	if q == nil || rec.down {
		return &OperatorError{Text: "not_found"}
	}
	if ifEmpty && q.ready.count > 0 {
		return &OperatorError{Text: "Queue is not empty"}
	}
	if ifUnused && q.cons.count > 0 {
		return &OperatorError{Text: "Queue is in use"}
	}
	return nil
}

// QueueAdmin purges or deletes a queue for rabbitmqctl: its process does
// it when it next runs.
func (c *Cluster) QueueAdmin(cmd, name string) {
	rec := c.queues[name]
	var p any = &callPurge{}
	if cmd == "delete_queue" {
		p = &callDelete{}
	}
	c.RT.Send(rec.PID, beam.Msg{Kind: kOperatorCall, P: p})
}

// operatorCall is a purge or delete asked by rabbitmqctl: no channel waits
// for its answer.
func (q *queue) operatorCall(ctx *beam.Ctx, p any) {
	switch p.(type) {
	case *callPurge:
		for i := range q.ready.levels {
			q.ready.levels[i].each(func(e *entry) { q.gone(e) })
		}
		q.ready.purge()
	case *callDelete:
		q.delete(ctx)
	}
}
