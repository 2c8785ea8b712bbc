package node

// Declarations in rabbit_channel: queue.declare, queue.bind and unbind,
// exchange.declare, and the lookups and errors they share (the
// checks of rabbit_amqqueue and rabbit_exchange that the channel runs
// before it changes the metadata).

import (
	"fmt"
	"strconv"

	"warren/engine/amqp"
	"warren/engine/beam"
)

func (ch *channel) queueDeclare(ctx *beam.Ctx, m *QueueDeclare) *amqp.Error {
	n := ch.n
	name := m.Queue
	if m.Passive {
		q, err := ch.lookupQueue(name)
		if err != nil {
			return err
		}
		ch.stat(ctx, q)
		return nil
	}
	if name == "" {
		n.cluster.nextGen++
		name = "amq.gen-" + strconv.Itoa(n.cluster.nextGen)
	} else if len(name) >= 4 && name[:4] == "amq." {
		return amqp.Errorf(amqp.AccessRefused, "queue name '"+name+"' contains reserved prefix 'amq.*'")
	}
	durable := m.Durable && !m.Exclusive
	if q, ok := n.cluster.queues[name]; ok {
		if q.Exclusive && q.Owner != ch.conn {
			return resourceLocked(name)
		}
		if q.Exclusive != m.Exclusive {
			// check_exclusive_access(strict): the declare must name the
			// same owner, none for a shared queue
			return resourceLocked(name)
		}
		what := rs(name)
		if e := boolField("durable", what, q.Durable, durable); e != nil {
			return e
		}
		if e := boolField("auto_delete", what, q.AutoDelete, m.AutoDelete); e != nil {
			return e
		}
		if e := assertArgsEquivalence(what, q.Args, m.Args, equivalenceKeys); e != nil {
			return e
		}
		ch.stat(ctx, q)
		return nil
	}
	if v, ok := m.Args.Get("x-dead-letter-exchange"); ok && v.Kind != amqp.LongStr {
		return amqp.Errorf(amqp.PreconditionFailed, fmt.Sprintf("invalid type '%s' for arg 'x-dead-letter-exchange' in %s", v.Kind, rs(name)))
	}
	if e := checkDeclareArgs(name, m.Args, n.Config.Version); e != nil {
		return e
	}
	qtype := "classic"
	if v, ok := m.Args.Get("x-queue-type"); ok && v.Kind == amqp.LongStr && v.Str == "quorum" {
		qtype = "quorum"
		if !durable {
			return amqp.Errorf(amqp.PreconditionFailed, "invalid property 'non-durable' for "+rs(name))
		}
		if m.AutoDelete {
			return amqp.Errorf(amqp.PreconditionFailed, "invalid property 'auto-delete' for "+rs(name))
		}
		if m.Exclusive {
			return amqp.Errorf(amqp.PreconditionFailed, "invalid property 'exclusive-owner' for "+rs(name))
		}
	}
	ctx.Charge(n.Config.Costs.QueueDeclare)
	rec := &QueueRecord{Name: name, Durable: durable, AutoDelete: m.AutoDelete, Exclusive: m.Exclusive, Args: m.Args, Type: qtype}
	if m.Exclusive {
		rec.Owner = ch.conn
	}
	rec.Policy = n.cluster.policyFor(name)
	n.placeQueue(rec).startQueue(ctx, rec)
	n.cluster.changed()
	ch.committed(ctx, DeclareOk{Queue: name})
	return nil
}

func (ch *channel) stat(ctx *beam.Ctx, q *QueueRecord) {
	ch.callQueue(ctx, q, &callStat{}, func(ctx *beam.Ctx, r any) {
		s := r.(*statReply)
		ch.send(ctx, DeclareOk{Queue: q.Name, Messages: s.messages, Consumers: s.consumers})
	})
}

// bind adds or removes a binding in the order rabbit_binding checks:
// the exchange and the queue must exist (for an unbind a missing one is
// no error, only a queue whose home node is down), then a new binding must
// be valid for the exchange type, then an exclusive queue must belong to
// this connection; an unbind of a binding that does not exist succeeds
// without that last check.
func (ch *channel) bind(ctx *beam.Ctx, queue, exchange, key string, args amqp.Table, add bool) *amqp.Error {
	n := ch.n
	if exchange == "" {
		return amqp.Errorf(amqp.AccessRefused, "operation not permitted on the default exchange")
	}
	x, xok := n.cluster.exchanges[exchange]
	q, qok := n.cluster.queues[queue]
	switch {
	case add && !xok:
		return notFoundExchange(exchange)
	case add && !qok:
		return notFoundQueue(queue)
	case qok && q.down:
		return homeDown(q)
	case !xok || !qok:
		ch.committed(ctx, Ok{Method: "queue.unbind-ok"})
		return nil
	}
	b := &Binding{Queue: queue, Key: key, Args: args.Sorted()}
	if add {
		if e := x.validateBinding(b); e != nil {
			return e
		}
	}
	if (add || x.hasBinding(b)) && q.Exclusive && q.Owner != ch.conn {
		return resourceLocked(queue)
	}
	if add {
		if !x.hasBinding(b) {
			x.Bindings = append(x.Bindings, b)
			n.cluster.changed()
		}
		ch.committed(ctx, Ok{Method: "queue.bind-ok"})
		return nil
	}
	if x.removeBinding(b) {
		n.cluster.changed()
		n.cluster.maybeAutoDelete(x)
	}
	ch.committed(ctx, Ok{Method: "queue.unbind-ok"})
	return nil
}

func (ch *channel) exchangeDeclare(ctx *beam.Ctx, m *ExchangeDeclare) *amqp.Error {
	if m.Passive {
		if m.Exchange == "" {
			return amqp.Errorf(amqp.AccessRefused, "operation not permitted on the default exchange")
		}
		if _, ok := ch.n.cluster.exchanges[m.Exchange]; !ok {
			return notFoundExchange(m.Exchange)
		}
		ch.send(ctx, Ok{Method: "exchange.declare-ok"})
		return nil
	}
	if !exchangeTypes[m.Type] {
		return amqp.Errorf(amqp.CommandInvalid, "unknown exchange type '"+m.Type+"'")
	}
	if m.Exchange == "" {
		return amqp.Errorf(amqp.AccessRefused, "operation not permitted on the default exchange")
	}
	what := "exchange '" + m.Exchange + "' in vhost '/'"
	if x, ok := ch.n.cluster.exchanges[m.Exchange]; ok {
		if x.Type != m.Type {
			return inequivalent("type", what, "'"+m.Type+"'", "'"+x.Type+"'")
		}
		if e := boolField("durable", what, x.Durable, m.Durable); e != nil {
			return e
		}
		if e := boolField("auto_delete", what, x.AutoDelete, m.AutoDelete); e != nil {
			return e
		}
		if e := boolField("internal", what, x.Internal, m.Internal); e != nil {
			return e
		}
		if e := assertArgsEquivalence(what, x.Args, m.Args, []string{"alternate-exchange"}); e != nil {
			return e
		}
		ch.send(ctx, Ok{Method: "exchange.declare-ok"})
		return nil
	}
	if len(m.Exchange) >= 4 && m.Exchange[:4] == "amq." {
		return amqp.Errorf(amqp.AccessRefused, "exchange name '"+m.Exchange+"' contains reserved prefix 'amq.*'")
	}
	if m.Type == "x-consistent-hash" {
		_, h := m.Args.Get("hash-header")
		p, hp := m.Args.Get("hash-property")
		if h && hp {
			return amqp.Errorf(amqp.PreconditionFailed, "hash-header and hash-property are mutually exclusive")
		}
		if hp && !(p.Kind == amqp.LongStr && (p.Str == "message_id" || p.Str == "correlation_id" || p.Str == "timestamp")) {
			return amqp.Errorf(amqp.PreconditionFailed, "Unsupported property: "+p.Term())
		}
	}
	ch.n.cluster.changed()
	ch.n.cluster.exchanges[m.Exchange] = &Exchange{Name: m.Exchange, Type: m.Type, Durable: m.Durable, AutoDelete: m.AutoDelete, Internal: m.Internal, Args: m.Args}
	ch.committed(ctx, Ok{Method: "exchange.declare-ok"})
	return nil
}

// bindExchange adds or removes an exchange-to-exchange binding: neither
// end may be the default exchange, and both must exist for a bind.
func (ch *channel) bindExchange(ctx *beam.Ctx, m *ExchangeBind) *amqp.Error {
	n := ch.n
	if m.Destination == "" || m.Source == "" {
		return amqp.Errorf(amqp.AccessRefused, "operation not permitted on the default exchange")
	}
	src, sok := n.cluster.exchanges[m.Source]
	_, dok := n.cluster.exchanges[m.Destination]
	reply := "exchange.bind-ok"
	if m.Unbind {
		reply = "exchange.unbind-ok"
	}
	switch {
	case !sok && !m.Unbind:
		return notFoundExchange(m.Source)
	case !dok && !m.Unbind:
		return notFoundExchange(m.Destination)
	case !sok || !dok:
		ch.committed(ctx, Ok{Method: reply})
		return nil
	}
	b := &Binding{Exchange: m.Destination, Key: m.Key, Args: m.Args.Sorted()}
	if !m.Unbind {
		if e := src.validateBinding(b); e != nil {
			return e
		}
		if !src.hasBinding(b) {
			src.Bindings = append(src.Bindings, b)
			n.cluster.changed()
		}
	} else {
		if src.removeBinding(b) {
			n.cluster.changed()
			n.cluster.maybeAutoDelete(src)
		}
	}
	ch.committed(ctx, Ok{Method: reply})
	return nil
}

func notFoundQueue(name string) *amqp.Error {
	return amqp.Errorf(amqp.NotFound, "no queue '"+name+"' in vhost '/'")
}

func notFoundExchange(name string) *amqp.Error {
	return amqp.Errorf(amqp.NotFound, "no exchange '"+name+"' in vhost '/'")
}

func resourceLocked(name string) *amqp.Error {
	return amqp.Errorf(amqp.ResourceLocked, "cannot obtain exclusive access to locked "+rs(name)+
		". It could be originally declared on another connection or the exclusive property value does not match that of the original declaration.")
}

// lookupQueue finds a queue this connection may use.
func (ch *channel) lookupQueue(name string) (*QueueRecord, *amqp.Error) {
	q, ok := ch.n.cluster.queues[name]
	if !ok {
		return nil, notFoundQueue(name)
	}
	if q.Exclusive && q.Owner != ch.conn {
		return nil, resourceLocked(name)
	}
	return q, nil
}
