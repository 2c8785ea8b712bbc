package node

// Models rabbit_channel: one process per AMQP channel. It routes publishes
// through exchanges to queue processes (under credit flow), tracks
// publisher confirms and unacked deliveries, and turns queue calls into
// replies to the client.

import (
	"fmt"
	"slices"
	"strconv"
	"strings"

	"warren/engine/amqp"
	"warren/engine/beam"
)

type channel struct {
	n      *Node
	conn   int
	num    int
	pid    beam.PID
	writer beam.PID
	reader beam.PID
	proc   *beam.Process

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
	touched     []beam.PID // queues that know this channel
	call        *pendingCall
	closed      bool
	dying       bool
	routeBuf    []string
	routes      routeCache
	moved       map[beam.PID]beam.PID // crashed queue process -> its restarted one
	waiting     *deadWait             // sleeping in with/4 for a dead queue
	// lastQueue is most_recently_declared_queue: the queue an empty queue
	// name stands for.
	lastQueue string
	tx        *txState       // nil: not transactional
	reply     *replyConsumer // nil: no direct reply-to consumer
	// born is when the channel opened: its ticks fall every channelTick
	// from then. timeout is its consumer_timeout (µs, 0: none), tick the
	// timer armed for the tick that may find the oldest delivery late.
	born, timeout int64
	tick          beam.TimerID
}

type pendingCall struct {
	done  func(ctx *beam.Ctx, reply any)
	to    beam.PID
	ref   uint32
	queue string
	req   any
}

func newChannel(n *Node, conn, num int, reader beam.PID) *channel {
	ch := &channel{n: n, conn: conn, num: num, reader: reader, consumers: map[string]*chConsumer{},
		limiter: &Limiter{}, credit: newCreditFlow(n.Config.Credit)}
	ch.proc = n.spawn(fmt.Sprintf("channel c%d.%d", conn, num), "channel", ch)
	ch.proc.Prio = channelPriority
	ch.pid = ch.proc.PID
	ch.born, ch.timeout = n.cluster.RT.Now(), n.Config.ConsumerTimeout*1000
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

func (ch *channel) Handle(ctx *beam.Ctx, m beam.Msg) {
	if m.Kind == kConfirm {
		ch.n.cluster.tell(Notice{Kind: Confirmed, PID: ch.pid})
	}
	if ch.closed || (ch.dying && m.Kind != kShutdown) {
		return
	}
	c := &ch.n.Config.Costs
	switch m.Kind {
	case kMethod:
		if m.N == 1 {
			if to := ch.credit.ack(m.From); to != beam.None {
				ctx.Send(to, beam.Msg{Kind: kBump, N: int64(ch.credit.spec.MoreAfter)})
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
			if q, ok := ch.n.cluster.queues[call.queue]; ok {
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
		released, back := ch.credit.bump(m.From, int(m.N))
		if back {
			ch.n.cluster.creditTold(ch.pid, m.From, false)
		}
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
	case kDeliverReply:
		ctx.Charge(c.ChannelDeliver)
		ch.replied(ctx, m.P.(*Message))
	case kTick:
		ctx.Charge(c.ChannelMethod)
		ch.tick = 0
		if ch.timedOut(ctx.Now) {
			ch.fail(ctx, amqp.Errorf(amqp.PreconditionFailed, "delivery acknowledgement on channel "+strconv.Itoa(ch.num)+
				" timed out. Timeout value used: "+strconv.FormatInt(ch.timeout/1000, 10)+
				" ms. This timeout value can be configured, see consumers doc guide to learn more"))
			return
		}
		ch.armTick(ctx)
	case kShutdown:
		ctx.Charge(c.ChannelMethod)
		ch.terminate(ctx)
	}
	// next_state: any other message handled sends the settled confirms
	if !ch.closed && !ch.dying {
		ch.flushConfirms(ctx)
	}
}

func (ch *channel) grant(ctx *beam.Ctx, to []beam.PID) {
	for _, p := range to {
		ctx.Send(p, beam.Msg{Kind: kBump, N: int64(ch.credit.spec.MoreAfter)})
	}
}

// send writes a method to the client through this channel's writer.
func (ch *channel) send(ctx *beam.Ctx, method any) {
	if ok, is := method.(DeclareOk); is {
		ch.lastQueue = ok.Queue
	}
	ctx.Send(ch.writer, beam.Msg{Kind: kWrite, P: method})
}

// fail handles an AMQP exception raised while handling a method: a soft
// error closes the channel, a hard error the whole connection.
func (ch *channel) fail(ctx *beam.Ctx, e *amqp.Error) {
	if amqp.IsConnectionError(e.Code) {
		ctx.Send(ch.reader, beam.Msg{Kind: kConnError, P: e})
		ch.dying = true // the reader will shut every channel down
		return
	}
	ch.send(ctx, Closed{Code: e.Code, Text: e.Error()})
	ch.terminate(ctx)
	ctx.Send(ch.reader, beam.Msg{Kind: kChannelExit})
}

// terminate ends the channel: queues that know it requeue its unacked
// messages and drop its consumers; the writer stops after what it holds.
func (ch *channel) terminate(ctx *beam.Ctx) {
	ch.closed = true
	ch.dropReply()
	for _, q := range ch.touched {
		ctx.Send(q, beam.Msg{Kind: kChannelDown})
	}
	ctx.Send(ch.writer, beam.Msg{Kind: kShutdown})
	ctx.Exit()
}

func (ch *channel) touch(q beam.PID) {
	if !slices.Contains(ch.touched, q) {
		ch.touched = append(ch.touched, q)
	}
}

// callQueue makes a synchronous call to a queue process.
// A queue whose supervisor gave up keeps the channel waiting (with/4).
func (ch *channel) callQueue(ctx *beam.Ctx, q *QueueRecord, req any, done func(ctx *beam.Ctx, reply any)) {
	if q.down {
		ch.fail(ctx, homeDown(q))
		return
	}
	if q.dead {
		name := q.Name
		ch.waitForQueue(ctx, name, true, func(ctx *beam.Ctx) {
			switch q, ok := ch.n.cluster.queues[name]; {
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
	ref := ctx.Call(q.PID, beam.Msg{Kind: kCall, P: req})
	ch.call = &pendingCall{done: done, to: q.PID, ref: ref, queue: q.Name, req: req}
}

func (ch *channel) method(ctx *beam.Ctx, method any) *amqp.Error {
	c := &ch.n.Config.Costs
	if ch.tx != nil && ch.tx.committing {
		// the spec lets a client send nothing while it waits for a
		// synchronous reply; RabbitMQ enforces it only here
		return amqp.Errorf(amqp.ChannelError, "unexpected command while processing 'tx.commit'")
	}
	switch m := method.(type) {
	case *BasicPublish:
		return ch.publish(ctx, m)
	case *BasicAck:
		ctx.Charge(c.ChannelAck)
		err := ch.ack(ctx, m.Tag, m.Multiple, kAck)
		ch.n.cluster.freeAck(m)
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
	// the pseudo-queue of direct reply-to is matched before the queue
	// name shortcuts are expanded
	switch m := method.(type) {
	case *BasicConsume:
		if m.Queue == replyQueue {
			return ch.consumeReply(ctx, m)
		}
	case *BasicCancel:
		if r := ch.reply; r != nil && r.tag == m.Tag {
			ch.dropReply()
			ch.send(ctx, Ok{Method: "basic.cancel-ok"})
			return nil
		}
	case *QueueDeclare:
		if strings.HasPrefix(m.Queue, replyQueue) {
			return ch.declareReply(ctx, m.Queue)
		}
	}
	method, err := ch.expandShortcuts(method)
	if err != nil {
		return err
	}
	switch m := method.(type) {
	case *QueueDeclare:
		return ch.queueDeclare(ctx, m)
	case *QueueDelete:
		q, ok := ch.n.cluster.queues[m.Queue]
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
			ch.n.cluster.deleteCrashed(q)
			ch.send(ctx, DeleteOk{})
			return nil
		}
		ch.callQueue(ctx, q, &callDelete{ifUnused: m.IfUnused, ifEmpty: m.IfEmpty}, func(ctx *beam.Ctx, r any) {
			ch.send(ctx, r)
		})
	case *QueuePurge:
		q, err := ch.lookupQueue(m.Queue)
		if err != nil {
			return err
		}
		ch.callQueue(ctx, q, &callPurge{}, func(ctx *beam.Ctx, r any) { ch.send(ctx, r) })
	case *QueueBind:
		return ch.bind(ctx, m.Queue, m.Exchange, m.Key, m.Args, true)
	case *QueueUnbind:
		return ch.bind(ctx, m.Queue, m.Exchange, m.Key, m.Args, false)
	case *ExchangeDeclare:
		return ch.exchangeDeclare(ctx, m)
	case *ExchangeBind:
		return ch.bindExchange(ctx, m)
	case *ExchangeDelete:
		if m.Exchange == "" {
			return amqp.Errorf(amqp.AccessRefused, "operation not permitted on the default exchange")
		}
		if len(m.Exchange) >= 4 && m.Exchange[:4] == "amq." {
			return amqp.Errorf(amqp.AccessRefused, "deletion of system exchange '"+m.Exchange+"' in vhost '/' not allowed")
		}
		ch.n.cluster.deleteExchange(m.Exchange, true)
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
		q, ok := ch.n.cluster.queues[cons.queue]
		if !ok || q.PID != cons.qpid {
			ch.send(ctx, Ok{Method: "basic.cancel-ok"})
			return nil
		}
		ch.callQueue(ctx, q, &callCancel{tag: m.Tag}, func(ctx *beam.Ctx, r any) {
			ch.send(ctx, Ok{Method: "basic.cancel-ok"})
		})
	case *BasicGet:
		q, err := ch.lookupQueue(m.Queue)
		if err != nil {
			return err
		}
		ch.callQueue(ctx, q, &callGet{noAck: m.NoAck, limiter: ch.limiter}, func(ctx *beam.Ctx, r any) {
			g, ok := r.(*getReply)
			if !ok || g.msg == nil {
				ch.send(ctx, GetEmpty{})
				return
			}
			ch.nextTag++
			if !m.NoAck {
				ch.unacked.push(unacked{tag: ch.nextTag, q: q.PID, ackTag: g.ackTag, at: ctx.Now})
				ch.armTick(ctx)
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
	case TxSelect, TxCommit, TxRollback:
		return ch.txMethod(ctx, m)
	case ConfirmSelect:
		if ch.tx != nil {
			return amqp.Errorf(amqp.PreconditionFailed, "cannot switch from tx to confirm mode")
		}
		ch.confirm = true
		ch.send(ctx, Ok{Method: "confirm.select-ok"})
	case ChannelClose:
		ch.send(ctx, Ok{Method: "channel.close-ok"})
		ch.terminate(ctx)
	}
	return nil
}

// expandShortcuts is rabbit_channel's expand_shortcuts: an empty queue name
// stands for the queue this channel declared last, and on a bind or unbind
// an empty routing key with it too; with none declared it is an error.
func (ch *channel) expandShortcuts(method any) (any, *amqp.Error) {
	last := ch.lastQueue
	switch m := method.(type) {
	case *QueueDelete:
		return fillQueue(m, last, func(m *QueueDelete) (*string, *string) { return &m.Queue, nil })
	case *QueuePurge:
		return fillQueue(m, last, func(m *QueuePurge) (*string, *string) { return &m.Queue, nil })
	case *BasicConsume:
		return fillQueue(m, last, func(m *BasicConsume) (*string, *string) { return &m.Queue, nil })
	case *BasicGet:
		return fillQueue(m, last, func(m *BasicGet) (*string, *string) { return &m.Queue, nil })
	case *QueueBind:
		return fillQueue(m, last, func(m *QueueBind) (*string, *string) { return &m.Queue, &m.Key })
	case *QueueUnbind:
		return fillQueue(m, last, func(m *QueueUnbind) (*string, *string) { return &m.Queue, &m.Key })
	}
	return method, nil
}

// fillQueue returns m itself when it names its queue, else a copy naming
// last (and, where the method has a routing key, last as an empty key).
// NB: frames are shared and immutable once sent: it fills a copy.
func fillQueue[T any](m *T, last string, fields func(*T) (queue, key *string)) (any, *amqp.Error) {
	if q, _ := fields(m); *q != "" {
		return m, nil
	}
	if last == "" {
		return m, amqp.Errorf(amqp.NotFound, "no previously declared queue")
	}
	c := *m
	q, key := fields(&c)
	*q = last
	if key != nil && *key == "" {
		*key = last
	}
	return &c, nil
}

// armTick sets the channel's tick timer for the first tick at which its
// oldest unacked delivery would be late (evaluate_consumer_timeout runs on
// every tick; warren skips the ticks that could find nothing), if no timer
// is set.
func (ch *channel) armTick(ctx *beam.Ctx) {
	if ch.timeout <= 0 || ch.tick != 0 || ch.unacked.len() == 0 {
		return
	}
	// late once now - timeout > delivered_at (in ms, as os:system_time)
	due := ch.unacked.at(0).at + ch.timeout + 1000
	k := (due - ch.born + channelTick - 1) / channelTick
	at := ch.born + max(k, 1)*channelTick
	for at <= ctx.Now {
		at += channelTick
	}
	ch.tick = ctx.SendAfter(ch.pid, at-ctx.Now, beam.Msg{Kind: kTick})
}

// timedOut says whether the oldest unacked delivery is past the timeout.
func (ch *channel) timedOut(now int64) bool {
	if ch.timeout <= 0 || ch.unacked.len() == 0 {
		return false
	}
	return ch.unacked.at(0).at/1000 < now/1000-ch.timeout/1000
}
