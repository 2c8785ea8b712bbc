package node

// Models rabbit_channel: one process per AMQP channel. It routes publishes
// through exchanges to queue processes (under credit flow), tracks
// publisher confirms and unacked deliveries, and turns queue calls into
// replies to the client.

import (
	"fmt"
	"slices"
	"sort"
	"strconv"

	"warren/engine/amqp"
	"warren/engine/sim"
)

type unacked struct {
	tag    uint64
	q      sim.PID
	ackTag uint64
	ctag   string // "" for basic.get
}

type chConsumer struct {
	queue string
	qpid  sim.PID
	spec  *callConsume // what basic.consume asked: to consume again after a queue crash
}

type confirmRec struct {
	seq     uint64
	waiting []sim.PID // queues that have not confirmed yet
	nack    bool
}

type channel struct {
	n      *Node
	conn   int
	num    int
	pid    sim.PID
	writer sim.PID
	reader sim.PID
	proc   *sim.Process

	nextTag     uint64
	unacked     fifo[unacked] // ascending delivery tags
	consumers   map[string]*chConsumer
	prefetch    int // basic.qos global=false: for consumers created after it
	limiter     *Limiter
	confirm     bool
	pubSeq      uint64
	unconfirmed []*confirmRec // ascending seq
	confirmOut  []Confirm     // settled, not yet sent (see flushConfirms)
	credit      creditFlow
	touched     []sim.PID // queues that know this channel
	call        *pendingCall
	closed      bool
	dying       bool
	routeBuf    []string
	routes      routeCache
	moved       map[sim.PID]sim.PID // crashed queue process -> its restarted one
	waiting     *deadWait           // sleeping in with/4 for a dead queue
}

// routeCache keeps the last routing decision until the topology changes.
type routeCache struct {
	gen   uint64
	x     *Exchange
	key   string
	dests []*QueueRecord
}

type pendingCall struct {
	done  func(ctx *sim.Ctx, reply any)
	to    sim.PID
	ref   uint32
	queue string
	req   any
}

func newChannel(n *Node, conn, num int, reader sim.PID) *channel {
	ch := &channel{n: n, conn: conn, num: num, reader: reader, consumers: map[string]*chConsumer{},
		limiter: &Limiter{}, credit: newCreditFlow(n.Config.Credit)}
	ch.proc = n.spawn(fmt.Sprintf("channel c%d.%d", conn, num), "channel", ch)
	ch.proc.Prio = channelPriority
	ch.pid = ch.proc.PID
	w := &writer{n: n, conn: conn, num: num}
	ch.writer = n.spawn(fmt.Sprintf("writer c%d.%d", conn, num), "writer", w).PID
	w.channel = ch.pid
	return ch
}

// channelPriority is rabbit_channel's prioritise_cast: confirms first.
func channelPriority(kind uint16, _ any) int {
	if kind == kConfirm || kind == kReject {
		return 5
	}
	return 0
}

func (ch *channel) Handle(ctx *sim.Ctx, m sim.Msg) {
	if ch.closed || (ch.dying && m.Kind != kShutdown) {
		return
	}
	c := &ch.n.Config.Costs
	switch m.Kind {
	case kMethod:
		if m.N == 1 {
			if to := ch.credit.ack(m.From); to != sim.None {
				ctx.Send(to, sim.Msg{Kind: kBump, N: int64(ch.credit.spec.MoreAfter)})
			}
		}
		if err := ch.method(ctx, m.P); err != nil {
			ch.fail(ctx, err)
		}
	case kReply:
		ctx.Charge(c.ChannelMethod)
		call := ch.call
		ch.call = nil
		if _, failed := m.P.(*callFailed); failed && call != nil {
			// with/4: the queue died under the call; look it up again
			if q, ok := ch.n.queues[call.queue]; ok {
				ch.callQueue(ctx, q, call.req, call.done)
			} else {
				ch.fail(ctx, notFoundQueue(call.queue))
			}
			return
		}
		if e, ok := m.P.(*amqp.Error); ok {
			ch.fail(ctx, e)
			return
		}
		if call != nil {
			call.done(ctx, m.P)
		}
	case kBump:
		ctx.Charge(1)
		released, _ := ch.credit.bump(m.From, int(m.N))
		ch.grant(ctx, released)
	case kToConsumer:
		ch.toConsumer(ctx, m.P.(*consumerDelivery))
	case kConfirm, kReject:
		ctx.Charge(c.ChannelAck)
		ch.confirmed(uint64(m.N), m.From, m.Kind == kReject)
		// noreply_coalesce: confirms wait until the mailbox is empty or
		// another message is handled
		if ctx.MailboxEmpty() {
			ch.flushConfirms(ctx)
		}
		return
	case kQueueGone:
		ctx.Charge(c.ChannelMethod)
		g := m.P.(*queueGone)
		for _, tag := range g.tags {
			if _, ok := ch.consumers[tag]; ok {
				delete(ch.consumers, tag)
				ch.send(ctx, Cancel{Tag: tag})
			}
		}
		ch.queueDown(ctx, m.From)
	case kQueueDown:
		ctx.Charge(c.ChannelMethod)
		ch.queueCrashed(ctx, m.P.(*queueDown))
	case kWaitDone:
		ctx.Charge(c.ChannelMethod)
		ch.endWait(ctx, m.Ref)
	case kShutdown:
		ctx.Charge(c.ChannelMethod)
		ch.terminate(ctx)
	}
	// next_state: any other message handled sends the settled confirms
	if !ch.closed && !ch.dying {
		ch.flushConfirms(ctx)
	}
}

// flushConfirms sends the publisher confirms settled so far
// (send_confirms_and_nacks).
func (ch *channel) flushConfirms(ctx *sim.Ctx) {
	for _, c := range ch.confirmOut {
		ch.n.Stats.Confirmed++
		ch.send(ctx, c)
	}
	ch.confirmOut = ch.confirmOut[:0]
}

// resumeConsumerQueues tells the queues this channel consumes from that
// its limit changed (deactivate_limit_all).
func (ch *channel) resumeConsumerQueues(ctx *sim.Ctx) {
	var seen []sim.PID
	for _, tag := range sortedKeys(ch.consumers) {
		q := ch.consumers[tag].qpid
		dup := false
		for _, p := range seen {
			dup = dup || p == q
		}
		if !dup {
			seen = append(seen, q)
			ctx.Send(q, sim.Msg{Kind: kResume})
		}
	}
}

func sortedKeys(m map[string]*chConsumer) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}

func (ch *channel) grant(ctx *sim.Ctx, to []sim.PID) {
	for _, p := range to {
		ctx.Send(p, sim.Msg{Kind: kBump, N: int64(ch.credit.spec.MoreAfter)})
	}
}

// send writes a method to the client through this channel's writer.
func (ch *channel) send(ctx *sim.Ctx, method any) {
	ctx.Send(ch.writer, sim.Msg{Kind: kWrite, P: method})
}

// fail handles an AMQP exception raised while handling a method: a soft
// error closes the channel, a hard error the whole connection.
func (ch *channel) fail(ctx *sim.Ctx, e *amqp.Error) {
	if amqp.IsConnectionError(e.Code) {
		ctx.Send(ch.reader, sim.Msg{Kind: kConnError, P: e})
		ch.dying = true // the reader will shut every channel down
		return
	}
	ch.send(ctx, Closed{Code: e.Code, Text: e.Error()})
	ch.terminate(ctx)
	ctx.Send(ch.reader, sim.Msg{Kind: kChannelExit})
}

// terminate ends the channel: queues that know it requeue its unacked
// messages and drop its consumers; the writer stops after what it holds.
func (ch *channel) terminate(ctx *sim.Ctx) {
	ch.closed = true
	for _, q := range ch.touched {
		ctx.Send(q, sim.Msg{Kind: kChannelDown})
	}
	ctx.Send(ch.writer, sim.Msg{Kind: kShutdown})
	ctx.Exit()
}

func (ch *channel) touch(q sim.PID) {
	if !slices.Contains(ch.touched, q) {
		ch.touched = append(ch.touched, q)
	}
}

// callQueue makes a synchronous call to a queue process.
// A queue whose supervisor gave up keeps the channel waiting (with/4).
func (ch *channel) callQueue(ctx *sim.Ctx, q *QueueRecord, req any, done func(ctx *sim.Ctx, reply any)) {
	if q.down {
		ch.fail(ctx, homeDown(q))
		return
	}
	if q.dead {
		name := q.Name
		ch.waitForQueue(ctx, name, true, func(ctx *sim.Ctx) {
			switch q, ok := ch.n.queues[name]; {
			case !ok:
				ch.fail(ctx, notFoundQueue(name))
			case q.dead:
				ch.fail(ctx, queueTimeout(name))
			default:
				ch.callQueue(ctx, q, req, done)
			}
		})
		return
	}
	if r, ok := req.(*callConsume); ok {
		if c := ch.consumers[r.tag]; c != nil {
			c.qpid = q.PID
		}
	}
	ch.touch(q.PID)
	ref := ctx.Call(q.PID, sim.Msg{Kind: kCall, P: req})
	ch.call = &pendingCall{done: done, to: q.PID, ref: ref, queue: q.Name, req: req}
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
	q, ok := ch.n.queues[name]
	if !ok {
		return nil, notFoundQueue(name)
	}
	if q.Exclusive && q.Owner != ch.conn {
		return nil, resourceLocked(name)
	}
	return q, nil
}

func (ch *channel) method(ctx *sim.Ctx, method any) *amqp.Error {
	c := &ch.n.Config.Costs
	switch m := method.(type) {
	case *BasicPublish:
		return ch.publish(ctx, m)
	case *BasicAck:
		ctx.Charge(c.ChannelAck)
		err := ch.ack(ctx, m.Tag, m.Multiple, kAck)
		ch.n.freeAck(m)
		return err
	case *BasicNack:
		ctx.Charge(c.ChannelAck)
		kind := kRequeue
		if !m.Requeue {
			kind = kRejectDrop
		}
		return ch.ack(ctx, m.Tag, m.Multiple, kind)
	}
	ctx.Charge(c.ChannelMethod)
	switch m := method.(type) {
	case *QueueDeclare:
		return ch.queueDeclare(ctx, m)
	case *QueueDelete:
		q, ok := ch.n.queues[m.Queue]
		if !ok {
			ch.send(ctx, DeleteOk{})
			return nil
		}
		if q.Exclusive && q.Owner != ch.conn {
			return resourceLocked(m.Queue)
		}
		if q.down {
			return homeDown(q)
		}
		if q.dead {
			ch.n.deleteCrashed(q)
			ch.send(ctx, DeleteOk{})
			return nil
		}
		ch.callQueue(ctx, q, &callDelete{ifUnused: m.IfUnused, ifEmpty: m.IfEmpty}, func(ctx *sim.Ctx, r any) {
			ch.send(ctx, r)
		})
	case *QueuePurge:
		q, err := ch.lookupQueue(m.Queue)
		if err != nil {
			return err
		}
		ch.callQueue(ctx, q, &callPurge{}, func(ctx *sim.Ctx, r any) { ch.send(ctx, r) })
	case *QueueBind:
		return ch.bind(ctx, m.Queue, m.Exchange, m.Key, m.Args, true)
	case *QueueUnbind:
		return ch.bind(ctx, m.Queue, m.Exchange, m.Key, m.Args, false)
	case *ExchangeDeclare:
		return ch.exchangeDeclare(ctx, m)
	case *ExchangeDelete:
		if m.Exchange == "" {
			return amqp.Errorf(amqp.AccessRefused, "operation not permitted on the default exchange")
		}
		if len(m.Exchange) >= 4 && m.Exchange[:4] == "amq." {
			return amqp.Errorf(amqp.AccessRefused, "deletion of system exchange '"+m.Exchange+"' in vhost '/' not allowed")
		}
		delete(ch.n.exchanges, m.Exchange)
		ch.n.changed()
		ch.send(ctx, Ok{Method: "exchange.delete-ok"})
	case *BasicQos:
		if m.PrefetchSize != 0 {
			return amqp.Errorf(amqp.NotImplemented, fmt.Sprintf("prefetch_size!=0 (%d)", m.PrefetchSize))
		}
		switch {
		case !m.Global:
			// a per-consumer prefetch lifts any channel-wide one
			ch.prefetch = m.PrefetchCount
			ch.limiter.unlimit(ctx)
			ch.resumeConsumerQueues(ctx)
		case m.PrefetchCount == 0:
			ch.limiter.unlimit(ctx)
			ch.resumeConsumerQueues(ctx)
		default:
			ch.limiter.limit(ctx, m.PrefetchCount, ch.unacked.len())
		}
		ch.send(ctx, Ok{Method: "basic.qos-ok"})
	case *BasicConsume:
		return ch.consume(ctx, m)
	case *BasicCancel:
		cons, ok := ch.consumers[m.Tag]
		if !ok {
			ch.send(ctx, Ok{Method: "basic.cancel-ok"})
			return nil
		}
		delete(ch.consumers, m.Tag)
		q, ok := ch.n.queues[cons.queue]
		if !ok || q.PID != cons.qpid {
			ch.send(ctx, Ok{Method: "basic.cancel-ok"})
			return nil
		}
		ch.callQueue(ctx, q, &callCancel{tag: m.Tag}, func(ctx *sim.Ctx, r any) {
			ch.send(ctx, Ok{Method: "basic.cancel-ok"})
		})
	case *BasicGet:
		q, err := ch.lookupQueue(m.Queue)
		if err != nil {
			return err
		}
		ch.callQueue(ctx, q, &callGet{noAck: m.NoAck, limiter: ch.limiter}, func(ctx *sim.Ctx, r any) {
			g, ok := r.(*getReply)
			if !ok || g.msg == nil {
				ch.send(ctx, GetEmpty{})
				return
			}
			ch.nextTag++
			if !m.NoAck {
				ch.unacked.push(unacked{tag: ch.nextTag, q: q.PID, ackTag: g.ackTag})
			}
			ch.send(ctx, GetOk{DeliveryTag: ch.nextTag, Redelivered: g.redelivered, MessageCount: g.remaining, Msg: g.msg})
		})
	case *BasicRecover:
		if !m.Requeue {
			return amqp.Errorf(amqp.NotImplemented, "requeue=false")
		}
		all := append([]unacked(nil), ch.unacked.items()...)
		ch.unacked = fifo[unacked]{}
		ch.settle(ctx, all, kRequeue)
		ch.send(ctx, Ok{Method: "basic.recover-ok"})
	case ConfirmSelect:
		ch.confirm = true
		ch.send(ctx, Ok{Method: "confirm.select-ok"})
	case ChannelClose:
		ch.send(ctx, Ok{Method: "channel.close-ok"})
		ch.terminate(ctx)
	}
	return nil
}

func (ch *channel) queueDeclare(ctx *sim.Ctx, m *QueueDeclare) *amqp.Error {
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
		n.nextGen++
		name = "amq.gen-" + strconv.Itoa(n.nextGen)
	} else if len(name) >= 4 && name[:4] == "amq." {
		return amqp.Errorf(amqp.AccessRefused, "queue name '"+name+"' contains reserved prefix 'amq.*'")
	}
	durable := m.Durable && !m.Exclusive
	if q, ok := n.queues[name]; ok {
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
	rec.Policy = n.policyFor(name)
	n.placeQueue(rec).startQueue(ctx, rec)
	n.changed()
	ch.committed(ctx, DeclareOk{Queue: name})
	return nil
}

func (ch *channel) stat(ctx *sim.Ctx, q *QueueRecord) {
	ch.callQueue(ctx, q, &callStat{}, func(ctx *sim.Ctx, r any) {
		s := r.(*statReply)
		ch.send(ctx, DeclareOk{Queue: q.Name, Messages: s.messages, Consumers: s.consumers})
	})
}

func (ch *channel) bind(ctx *sim.Ctx, queue, exchange, key string, args amqp.Table, add bool) *amqp.Error {
	n := ch.n
	if exchange == "" {
		return amqp.Errorf(amqp.AccessRefused, "operation not permitted on the default exchange")
	}
	x, ok := n.exchanges[exchange]
	if !ok {
		return notFoundExchange(exchange)
	}
	q, ok := n.queues[queue]
	if !ok {
		return notFoundQueue(queue)
	}
	if q.Exclusive && q.Owner != ch.conn {
		return resourceLocked(queue)
	}
	if q.down {
		return homeDown(q)
	}
	b := &Binding{Queue: queue, Key: key, Args: args}
	if add {
		if e := x.validateBinding(b); e != nil {
			return e
		}
		if !x.hasBinding(b) {
			x.Bindings = append(x.Bindings, b)
			x.hadBindings = true
			n.changed()
		}
		ch.committed(ctx, Ok{Method: "queue.bind-ok"})
		return nil
	}
	x.removeBinding(b)
	n.unbound(x)
	n.changed()
	ch.committed(ctx, Ok{Method: "queue.unbind-ok"})
	return nil
}

func (ch *channel) exchangeDeclare(ctx *sim.Ctx, m *ExchangeDeclare) *amqp.Error {
	if !exchangeTypes[m.Type] {
		return amqp.Errorf(amqp.CommandInvalid, "unknown exchange type '"+m.Type+"'")
	}
	if m.Exchange == "" {
		return amqp.Errorf(amqp.AccessRefused, "operation not permitted on the default exchange")
	}
	what := "exchange '" + m.Exchange + "' in vhost '/'"
	if x, ok := ch.n.exchanges[m.Exchange]; ok {
		if x.Type != m.Type {
			return inequivalent("type", what, "'"+m.Type+"'", "'"+x.Type+"'")
		}
		if e := boolField("durable", what, x.Durable, m.Durable); e != nil {
			return e
		}
		if e := boolField("auto_delete", what, x.AutoDelete, m.AutoDelete); e != nil {
			return e
		}
		if e := boolField("internal", what, false, false); e != nil {
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
	ch.n.changed()
	ch.n.exchanges[m.Exchange] = &Exchange{Name: m.Exchange, Type: m.Type, Durable: m.Durable, AutoDelete: m.AutoDelete, Args: m.Args}
	ch.committed(ctx, Ok{Method: "exchange.declare-ok"})
	return nil
}

func (ch *channel) consume(ctx *sim.Ctx, m *BasicConsume) *amqp.Error {
	q, err := ch.lookupQueue(m.Queue)
	if err != nil {
		return err
	}
	tag := m.Tag
	if tag == "" {
		ch.n.nextCtag++
		tag = "amq.ctag-" + strconv.Itoa(ch.n.nextCtag)
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
	ch.callQueue(ctx, q, req, func(ctx *sim.Ctx, r any) {
		ch.send(ctx, ConsumeOk{Tag: tag})
	})
	return nil
}

func (ch *channel) toConsumer(ctx *sim.Ctx, d *consumerDelivery) {
	ctx.Charge(ch.n.Config.Costs.ChannelDeliver)
	if ch.n.remote(d.queue) {
		ch.n.hop(ctx)
	}
	ch.nextTag++
	if d.ackRequired {
		ch.unacked.push(unacked{tag: ch.nextTag, q: d.queue, ackTag: d.ackTag, ctag: d.ConsumerTag})
	}
	d.DeliveryTag = ch.nextTag
	ctx.Send(ch.writer, sim.Msg{Kind: kWrite, P: d})
}

// ack settles delivery tags: tag 0 with multiple means every outstanding one.
func (ch *channel) ack(ctx *sim.Ctx, tag uint64, multiple bool, kind uint16) *amqp.Error {
	var picked []unacked
	list := ch.unacked.items()
	if multiple {
		i := 0
		for i < len(list) && (tag == 0 || list[i].tag <= tag) {
			i++
		}
		if i == 0 && tag != 0 {
			return amqp.Errorf(amqp.PreconditionFailed, "unknown delivery tag "+strconv.FormatUint(tag, 10))
		}
		picked = append(picked, list[:i]...)
		ch.unacked.dropFront(i)
	} else {
		i := sort.Search(len(list), func(i int) bool { return list[i].tag >= tag })
		if i == len(list) || list[i].tag != tag {
			return amqp.Errorf(amqp.PreconditionFailed, "unknown delivery tag "+strconv.FormatUint(tag, 10))
		}
		u := list[i]
		ch.unacked.removeAt(i)
		if u.ctag != "" {
			ch.limiter.release(ctx, 1)
		}
		ctx.Send(ch.queuePID(u.q), sim.Msg{Kind: kind, N: int64(u.ackTag)})
		return nil
	}
	ch.settle(ctx, picked, kind)
	return nil
}

// settle sends acks, requeues or rejects to the queues concerned, one
// message per queue, and gives the global limiter its room back.
func (ch *channel) settle(ctx *sim.Ctx, list []unacked, kind uint16) {
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
			ctx.Send(to, sim.Msg{Kind: kind, N: int64(tags[0])})
		} else {
			ctx.Send(to, sim.Msg{Kind: kind, P: tags})
		}
		list = rest
	}
}

func (ch *channel) publish(ctx *sim.Ctx, m *BasicPublish) *amqp.Error {
	n := ch.n
	c := &n.Config.Costs
	ctx.Charge(c.ChannelPublish + int64(len(m.Body)>>10)*c.PerKB)
	if m.Immediate {
		return amqp.Errorf(amqp.NotImplemented, "immediate=true")
	}
	rc := &ch.routes
	if rc.gen != n.gen || rc.x == nil || rc.x.Name != m.Exchange || rc.key != m.Key || rc.x.Type == "headers" {
		x, ok := n.exchanges[m.Exchange]
		if !ok {
			return notFoundExchange(m.Exchange)
		}
		rc.gen, rc.x, rc.key = n.gen, x, m.Key
		rc.dests = rc.dests[:0]
		for _, name := range n.route(x, m.Key, m.Props.Headers, ch.routeBuf[:0]) {
			// a queue whose node is stopped takes nothing (stop_app and
			// start_app change the topology, so the cache follows)
			if q := n.queues[name]; !q.down {
				rc.dests = append(rc.dests, q)
			}
		}
	}
	if m.Props.HasExpiration {
		if e := checkExpiration(m.Props.Expiration); e != nil {
			return e
		}
	}
	n.Stats.Published++
	msg := &Message{ID: n.newMsgID(), Exchange: m.Exchange, Key: m.Key, Props: m.Props, Body: m.Body}
	var seq uint64
	if ch.confirm {
		ch.pubSeq++
		seq = ch.pubSeq
	}
	dests := rc.dests
	if len(dests) == 0 {
		if m.Mandatory {
			ch.send(ctx, Return{Code: amqp.NoRoute, Text: "NO_ROUTE", Msg: msg})
		}
		if ch.confirm {
			ch.confirmOut = append(ch.confirmOut, Confirm{Seq: seq})
		}
		return nil
	}
	var rec *confirmRec
	if ch.confirm {
		rec = &confirmRec{seq: seq}
		ch.unconfirmed = append(ch.unconfirmed, rec)
	}
	lost := false
	for _, q := range dests {
		if q.dead {
			// routed to a process that is gone: lost, and rejected
			lost = true
			continue
		}
		if rec != nil {
			rec.waiting = append(rec.waiting, q.PID)
		}
		ctx.Charge(c.ChannelPerDest)
		if n.remote(q.PID) {
			n.hop(ctx)
		}
		ch.touch(q.PID)
		ctx.Send(q.PID, deliverMsg(msg, seq, true))
		ch.credit.send(q.PID, ctx.Now)
	}
	if lost && rec != nil {
		ch.unconfirmed = ch.unconfirmed[:len(ch.unconfirmed)-1]
		ch.confirmOut = append(ch.confirmOut, Confirm{Seq: seq, Nack: true})
	}
	return nil
}

// checkExpiration validates a per-message expiration as rabbit_basic does.
func checkExpiration(s string) *amqp.Error {
	n, err := strconv.ParseInt(s, 10, 64)
	if err != nil || !amqp.LooksInteger(s) {
		return amqp.Errorf(amqp.PreconditionFailed, fmt.Sprintf("invalid expiration '%s': no_integer", s))
	}
	if e := checkExpiry(n); e != "" {
		return amqp.Errorf(amqp.PreconditionFailed, fmt.Sprintf("invalid expiration '%s': %s", s, e))
	}
	return nil
}

// confirmed handles a queue's confirm (or rejection) of a sequence number.
func (ch *channel) confirmed(seq uint64, q sim.PID, nack bool) {
	i := sort.Search(len(ch.unconfirmed), func(i int) bool { return ch.unconfirmed[i].seq >= seq })
	if i == len(ch.unconfirmed) || ch.unconfirmed[i].seq != seq {
		return
	}
	r := ch.unconfirmed[i]
	r.waiting = removePID(r.waiting, q)
	if nack {
		r.nack = true
	}
	if len(r.waiting) == 0 {
		ch.unconfirmed = append(ch.unconfirmed[:i], ch.unconfirmed[i+1:]...)
		ch.confirmOut = append(ch.confirmOut, Confirm{Seq: r.seq, Nack: r.nack})
	}
}

func removePID(list []sim.PID, p sim.PID) []sim.PID {
	for i, e := range list {
		if e == p {
			return append(list[:i], list[i+1:]...)
		}
	}
	return list
}

// queueDown forgets a queue that is gone: its pending confirms count as
// confirmed, its credit is forgotten.
func (ch *channel) queueDown(ctx *sim.Ctx, q sim.PID) {
	released, _ := ch.credit.peerDown(q)
	ch.grant(ctx, released)
	// rabbit_confirms:remove_queue: what only this queue still owed is
	// confirmed (a deleted queue's rejections are not nacked)
	keep := ch.unconfirmed[:0]
	for _, r := range ch.unconfirmed {
		before := len(r.waiting)
		r.waiting = removePID(r.waiting, q)
		if before > 0 && len(r.waiting) == 0 {
			ch.confirmOut = append(ch.confirmOut, Confirm{Seq: r.seq, Nack: r.nack})
			continue
		}
		keep = append(keep, r)
	}
	ch.unconfirmed = keep
}
