package node

// Models rabbit_amqqueue_process: one process per queue. It accepts
// publishes from channels (under credit flow), delivers to consumers,
// settles acks, requeues to the original position, enforces length limits
// and TTLs, dead-letters, and answers the channels' calls.

import (
	"warren/engine/amqp"
	"warren/engine/beam"
	"warren/engine/store"
)

type queueGone struct{ tags []string }

// Calls from a channel, and their replies.
type (
	callStat   struct{}
	callPurge  struct{}
	callDelete struct{ ifUnused, ifEmpty bool }
	callCancel struct{ tag string }
	callGet    struct {
		noAck   bool
		limiter *Limiter
	}
	callConsume struct {
		tag             string
		noAck           bool
		exclusive       bool
		args            amqp.Table
		prefetch        int
		limiter         *Limiter
		channel, writer beam.PID
		nowait          bool // consuming again after a crash: no reply
	}
	statReply struct{ messages, consumers int }
	getReply  struct {
		msg         *Message
		ackTag      uint64
		redelivered bool
		remaining   int
	}
)

type queue struct {
	n    *Node
	rec  *QueueRecord
	proc *beam.Process
	pid  beam.PID

	ready    messages
	pending  pendingAcks // delivered, awaiting ack; ack tag = seq id
	nextSeq  uint64
	cons     consumerSet
	channels []*chRecord
	sac      bool
	holder   *consumer // the single active consumer
	use      consumerUse
	credit   creditFlow

	// settings from arguments and policy
	ttl       int64 // ms; -1 none
	maxLen    int64 // -1 none
	maxBytes  int64 // -1 none
	overflow  string
	dlx       *string
	dlxKey    *string
	expires   int64 // ms; -1 none
	hasHadCon bool

	ttlTimer    beam.TimerID
	ttlGen      int64
	ttlAt       int64
	expiryTimer beam.TimerID
	expiryGen   int64
	deleted     bool
	oneTag      [1]uint64
	disk        *queueDisk // files of a durable or lazy queue
	failed      error      // a fault its files met during this event
}

// startQueue spawns a queue process for a new queue record.
func (n *Node) startQueue(ctx *beam.Ctx, rec *QueueRecord) {
	was := n.cluster.lifeOf(rec.Name)
	maxPrio := 0
	if v, ok := rec.Args.Get("x-max-priority"); ok {
		maxPrio = int(v.Int)
	}
	q := &queue{n: n, rec: rec, ready: newMessages(maxPrio), credit: newCreditFlow(n.Config.Credit), use: newConsumerUse(n.cluster.RT.Now())}
	if rec.Type == "quorum" {
		q.ready = newTiers()
	}
	if old := rec.proc; old != nil {
		old.detach()
	}
	q.attach()
	if v, ok := rec.Args.Get("x-single-active-consumer"); ok && v.Kind == amqp.Bool && v.Int != 0 {
		q.sac = true
	}
	q.proc = n.spawn("queue "+rec.Name, "queue", q)
	rec.home = n
	q.proc.Prio = queuePriority
	q.pid = q.proc.PID
	rec.PID = q.pid
	rec.proc = q
	rec.Policy = n.cluster.policyFor(rec.Name)
	n.cluster.queues[rec.Name] = rec
	n.cluster.lifeTold(rec.Name, was)
	q.configure()
	if !n.recovering {
		q.openFiles()
	}
	// the expiry timer starts with the queue (init → process_args_policy
	// → init_exp → ensure_expiry_timer): in the declaring channel's event,
	// or, for a queue no channel declares (one imported, recovered on
	// boot or restarted after a crash), in an init of its own process
	if ctx != nil {
		q.ensureExpiryTimer(ctx)
	} else if q.expires > 0 {
		n.cluster.RT.Send(q.pid, beam.Msg{Kind: kInit})
	}
}

// queuePriority is rabbit_amqqueue_process's prioritise_call/cast/info:
// timers and acks jump ahead of publishes, so that consumers are served
// even while publishers flood the mailbox.
func queuePriority(kind uint16, payload any) int {
	switch kind {
	case kTimerTTL, kTimerExpires, kPageOut, kExclusiveDown:
		return 8 // drop_expired, maybe_expire, set_ram_duration_target, delete_exclusive
	case kCall:
		switch payload.(type) {
		case *callStat:
			return 7
		case *callConsume, *callCancel:
			return 2 // consumer_bias
		}
		return 0
	case kAck:
		return 4
	case kResume:
		return 3
	case kNotifySent:
		return 2 // consumer_bias
	case kBump:
		return 1
	}
	return 0
}

// configure reads the queue's settings from its arguments and policy.
func (q *queue) configure() {
	args, pol := q.rec.Args, q.rec.Policy
	intOr := func(key string) int64 {
		if v, ok := effective(args, pol, key); ok && v.Kind.IsInt() {
			return v.Int
		}
		return -1
	}
	q.ttl = intOr("message-ttl")
	q.maxLen = intOr("max-length")
	q.maxBytes = intOr("max-length-bytes")
	q.expires = intOr("expires")
	q.overflow = "drop-head"
	if v, ok := effective(args, pol, "overflow"); ok && v.Kind == amqp.LongStr {
		q.overflow = v.Str
	}
	q.dlx, q.dlxKey = nil, nil
	if v, ok := effective(args, pol, "dead-letter-exchange"); ok && v.Kind == amqp.LongStr {
		s := v.Str
		q.dlx = &s
	}
	if v, ok := effective(args, pol, "dead-letter-routing-key"); ok && v.Kind == amqp.LongStr {
		s := v.Str
		q.dlxKey = &s
	}
}

func (q *queue) Handle(ctx *beam.Ctx, m beam.Msg) {
	if q.deleted {
		return
	}
	defer q.crashOnFault()
	if checkingInvariants {
		defer q.checkInvariants()
	}
	if q.disk != nil {
		defer q.afterEvent(ctx)
	}
	c := &q.n.Config.Costs
	switch m.Kind {
	case kDeliver:
		if m.N&1 == 1 {
			if to := q.credit.ack(m.From); to != beam.None {
				ctx.Send(to, beam.Msg{Kind: kBump, N: int64(q.credit.spec.MoreAfter)})
			}
		}
		msg := m.P.(*Message)
		ctx.Charge(c.QueueEnqueue + int64(len(msg.Body)>>10)*c.PerKB + q.backlogCost())
		if q.n.remote(m.From) {
			q.n.hop(ctx)
		}
		q.publish(ctx, msg, uint64(m.N>>1), m.From)
	case kAck:
		tags := q.ackTags(&m)
		ctx.Charge(c.QueueAck * int64(len(tags)))
		q.ack(ctx, m.From, tags)
	case kRequeue:
		tags := q.ackTags(&m)
		ctx.Charge(c.QueueAck * int64(len(tags)))
		q.requeue(ctx, m.From, tags)
	case kRejectDrop:
		tags := q.ackTags(&m)
		ctx.Charge(c.QueueAck * int64(len(tags)))
		q.rejectDrop(ctx, m.From, tags)
	case kNotifySent:
		ctx.Charge(1)
		if cr := q.chRecord(m.P.(beam.PID)); cr != nil {
			was := cr.isBlocked()
			cr.unsent -= int(m.N)
			if was && !cr.isBlocked() {
				q.unblock(cr)
				q.run(ctx)
			}
		}
	case kResume:
		ctx.Charge(1)
		if cr := q.chRecord(m.From); cr != nil && cr.suspended {
			cr.suspended = false
			q.unblock(cr)
			q.run(ctx)
		}
	case kChannelDown:
		ctx.Charge(c.QueueCall)
		q.channelDown(ctx, m.From)
	case kCall:
		ctx.Charge(c.QueueCall)
		q.call(ctx, m)
	case kOperatorCall:
		ctx.Charge(c.QueueCall)
		q.operatorCall(ctx, m.P)
	case kInit:
		// init → process_args_policy → init_exp: a queue that no channel
		// declared starts its expiry timer here
		ctx.Charge(c.QueueCall)
		q.ensureExpiryTimer(ctx)
	case kTimerTTL:
		ctx.Charge(c.Timer)
		if m.N == q.ttlGen {
			q.ttlTimer = 0
			q.dropExpired(ctx)
		}
	case kTimerExpires:
		ctx.Charge(c.Timer)
		if m.N == q.expiryGen && q.cons.count == 0 {
			q.delete(ctx)
		}
	case kPageOut:
		q.pageOut(ctx)
	case kStoreConfirm:
		ctx.Charge(c.QueueAck)
		q.storeConfirmed(ctx, m.P.(*store.Confirm))
	case kTimerSync, kTimerFlush:
		ctx.Charge(c.Timer)
		q.diskTimer(ctx, m.Kind)
	case kPolicyChanged:
		ctx.Charge(c.QueueCall)
		q.dropHead(ctx)
		q.dropExpired(ctx)
		q.ensureExpiryTimer(ctx)
		q.run(ctx)
	case kExclusiveDown:
		ctx.Charge(c.QueueCall)
		q.delete(ctx)
	}
}

// delete removes the queue: bindings, record, consumers (their channels
// are told), and the process.
func (q *queue) delete(ctx *beam.Ctx) {
	q.deleteFiles(ctx)
	q.deleted = true
	q.n.cluster.unbindQueue(q.rec.Name)
	if cur, ok := q.n.cluster.queues[q.rec.Name]; ok && cur == q.rec {
		was := q.n.cluster.lifeOf(q.rec.Name)
		delete(q.n.cluster.queues, q.rec.Name)
		q.n.cluster.lifeTold(q.rec.Name, was)
		q.detach()
	}
	q.n.cluster.changed()
	// every channel that knows the queue (consumers, publishers) sees it go
	byCh := map[beam.PID][]string{}
	var order []beam.PID
	see := func(pid beam.PID) {
		if _, seen := byCh[pid]; !seen {
			order = append(order, pid)
			byCh[pid] = nil
		}
	}
	for _, c := range q.allConsumers() {
		see(c.ch.pid)
		byCh[c.ch.pid] = append(byCh[c.ch.pid], c.tag)
	}
	for _, p := range q.credit.fromPeer {
		if pr := q.n.cluster.RT.Process(p.pid); pr != nil && pr.Kind == "channel" {
			see(p.pid)
		}
	}
	for _, pid := range order {
		ctx.Send(pid, beam.Msg{Kind: kQueueGone, P: &queueGone{tags: byCh[pid]}})
	}
	ctx.Exit()
}
