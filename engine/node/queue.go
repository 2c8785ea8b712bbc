package node

// Models rabbit_amqqueue_process: one process per queue. It accepts
// publishes from channels (under credit flow), delivers to consumers,
// settles acks, requeues to the original position, enforces length limits
// and TTLs, dead-letters, and answers the channels' calls.

import (
	"strconv"

	"warren/engine/amqp"
	"warren/engine/sim"
	"warren/engine/store"
)

// A publish travels from a channel to a queue as kDeliver with P the
// *Message and N = seq<<1 | flow: seq is the publisher confirm sequence
// number (0 when the channel is not confirming), flow whether the send
// counted against credit.
func deliverMsg(m *Message, seq uint64, flow bool) sim.Msg {
	n := int64(seq) << 1
	if flow {
		n |= 1
	}
	return sim.Msg{Kind: kDeliver, N: n, P: m}
}

// consumerDelivery is a message on its way from a queue to a consumer's channel.
type consumerDelivery struct {
	Deliver     // the method the channel completes with its delivery tag
	ackTag      uint64
	ackRequired bool
	queue       sim.PID
}

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
		channel, writer sim.PID
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
	proc *sim.Process
	pid  sim.PID

	ready    messages
	pending  pendingAcks // delivered, awaiting ack; ack tag = seq id
	nextSeq  uint64
	cons     consumerSet
	channels []*chRecord
	sac      bool
	holder   *consumer // the single active consumer
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

	ttlTimer    sim.TimerID
	ttlGen      int64
	ttlAt       int64
	expiryTimer sim.TimerID
	expiryGen   int64
	deleted     bool
	oneTag      [1]uint64
	disk        *queueDisk // files of a durable or lazy queue
}

// startQueue spawns a queue process for a new queue record.
func (n *Node) startQueue(ctx *sim.Ctx, rec *QueueRecord) {
	maxPrio := 0
	if v, ok := rec.Args.Get("x-max-priority"); ok {
		maxPrio = int(v.Int)
	}
	q := &queue{n: n, rec: rec, ready: newMessages(maxPrio), credit: newCreditFlow(n.Config.Credit)}
	if rec.Type == "quorum" {
		q.ready = newTiers()
	}
	if v, ok := rec.Args.Get("x-single-active-consumer"); ok && v.Kind == amqp.Bool && v.Int != 0 {
		q.sac = true
	}
	q.proc = n.spawn("queue "+rec.Name, "queue", q)
	rec.home = n
	q.proc.Prio = queuePriority
	q.pid = q.proc.PID
	rec.PID = q.pid
	rec.proc = q
	rec.Policy = n.policyFor(rec.Name)
	n.queues[rec.Name] = rec
	q.configure()
	if !n.recovering {
		q.openFiles()
	}
	// the expiry timer starts with the queue (init → ensure_expiry_timer)
	if ctx != nil {
		q.ensureExpiryTimer(ctx)
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

func (q *queue) Handle(ctx *sim.Ctx, m sim.Msg) {
	if q.deleted {
		return
	}
	defer q.checkInvariants()
	if q.disk != nil {
		defer q.afterEvent(ctx)
	}
	c := &q.n.Config.Costs
	switch m.Kind {
	case kDeliver:
		if m.N&1 == 1 {
			if to := q.credit.ack(m.From); to != sim.None {
				ctx.Send(to, sim.Msg{Kind: kBump, N: int64(q.credit.spec.MoreAfter)})
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
		if cr := q.chRecord(m.P.(sim.PID)); cr != nil {
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

// ackTags reads the ack tags of kAck, kRequeue and kRejectDrop: one tag
// travels in N, several as a slice in P.
func (q *queue) ackTags(m *sim.Msg) []uint64 {
	if tags, ok := m.P.([]uint64); ok {
		return tags
	}
	q.oneTag[0] = uint64(m.N)
	return q.oneTag[:]
}

func (q *queue) chRecord(pid sim.PID) *chRecord {
	for _, c := range q.channels {
		if c.pid == pid {
			return c
		}
	}
	return nil
}

func (q *queue) ensureChRecord(pid sim.PID, lim *Limiter) *chRecord {
	if c := q.chRecord(pid); c != nil {
		if lim != nil {
			c.limiter = lim
		}
		return c
	}
	if lim == nil {
		lim = &Limiter{}
	}
	c := &chRecord{pid: pid, limiter: lim}
	q.channels = append(q.channels, c)
	return c
}

// publish is maybe_deliver_or_enqueue.
func (q *queue) publish(ctx *sim.Ctx, msg *Message, seq uint64, from sim.PID) {
	if (q.maxLen >= 0 || q.maxBytes >= 0) && q.overflow != "drop-head" && q.willOverflow(msg) {
		if q.overflow == "reject-publish-dlx" {
			q.deadLetter(ctx, []*Message{msg}, "maxlen")
		}
		if seq != 0 {
			ctx.Send(from, sim.Msg{Kind: kReject, N: int64(seq)})
		}
		return
	}
	q.nextSeq++
	e := entry{seq: q.nextSeq, msg: msg, expiry: q.expiryOf(ctx, msg)}
	var c *consumer
	if q.ready.count == 0 {
		c = q.pickConsumer()
	}
	if c == nil && q.ttl == 0 && q.dlx == nil {
		// undelivered with TTL 0 and no DLX: discarded at once, unwritten
		if seq != 0 {
			ctx.Send(from, sim.Msg{Kind: kConfirm, N: int64(seq)})
		}
		return
	}
	// send_or_record_confirm: confirmed now, or once on disk
	waits := false
	if q.disk != nil {
		waits = q.store(ctx, &e, seq, from)
	}
	if seq != 0 && !waits {
		ctx.Send(from, sim.Msg{Kind: kConfirm, N: int64(seq)})
	}
	if c != nil {
		q.deliverTo(ctx, c, e)
		return
	}
	if q.n.paging {
		// under memory pressure a new message goes straight to disk
		e.paged = true
		ctx.Charge(q.n.Config.Costs.PageOut)
		q.writePaged(ctx, []pagedEntry{{q.ready.levelOf(e.msg), &e}})
	}
	q.ready.push(e)
	dropped := q.dropHead(ctx)
	if dropped || q.ready.count == 1 || e.expiry != 0 {
		q.dropExpired(ctx)
	}
}

// backlogCost is the extra work per message a long queue costs.
func (q *queue) backlogCost() int64 {
	return int64(q.ready.count) * q.n.Config.Costs.BacklogPer100k / 100_000
}

// pageBatch is how many messages a queue pages out in one event.
const pageBatch = 200

// pageOut writes a batch of in-memory messages to disk while the node is
// above its paging threshold, and asks itself to continue.
func (q *queue) pageOut(ctx *sim.Ctx) {
	ctx.Charge(q.n.Config.Costs.Timer)
	if !q.n.paging {
		return
	}
	var batch []pagedEntry
	n := q.ready.pageOut(pageBatch, func(lvl int, e *entry) { batch = append(batch, pagedEntry{lvl, e}) })
	ctx.Charge(int64(n) * q.n.Config.Costs.PageOut)
	q.writePaged(ctx, batch)
	if n == pageBatch {
		ctx.Send(q.pid, sim.Msg{Kind: kPageOut})
	}
}

func (q *queue) willOverflow(m *Message) bool {
	return (q.maxLen >= 0 && int64(q.ready.count+1) > q.maxLen) ||
		(q.maxBytes >= 0 && q.ready.bytes+int64(len(m.Body)) > q.maxBytes)
}

func (q *queue) overMax() bool {
	return (q.maxLen >= 0 && int64(q.ready.count) > q.maxLen) ||
		(q.maxBytes >= 0 && q.ready.bytes > q.maxBytes)
}

// dropHead trims a drop-head queue back under its limits, dead-lettering
// what it drops (reason maxlen).
func (q *queue) dropHead(ctx *sim.Ctx) bool {
	if q.overflow != "drop-head" || (q.maxLen < 0 && q.maxBytes < 0) {
		return false
	}
	dropped := false
	for q.overMax() {
		e, ok := q.ready.pop()
		if !ok {
			break
		}
		q.gone(&e)
		dropped = true
		q.deadLetter(ctx, []*Message{e.msg}, "maxlen")
	}
	return dropped
}

// expiryOf is the absolute expiry of a message entering the queue: the
// smaller of the queue TTL and the message's expiration.
func (q *queue) expiryOf(ctx *sim.Ctx, m *Message) int64 {
	ttl := q.ttl
	if m.Props.HasExpiration {
		n, _ := strconv.ParseInt(m.Props.Expiration, 10, 64) // checked by the channel
		if ttl < 0 || n < ttl {
			ttl = n
		}
	}
	if ttl < 0 {
		return 0
	}
	return ctx.End() + ttl*1000
}

// dropExpired removes expired messages at the head of each level (TTL is
// only checked at the head), dead-lettering them, and sets the timer for
// the next head to expire.
func (q *queue) dropExpired(ctx *sim.Ctx) {
	now := ctx.End()
	var expired []*Message
	next := int64(0)
	for i := len(q.ready.levels) - 1; i >= 0; i-- {
		l := &q.ready.levels[i]
		for l.len() > 0 {
			e := l.front()
			if e.expiry == 0 || now < e.expiry {
				if e.expiry != 0 && (next == 0 || e.expiry < next) {
					next = e.expiry
				}
				break
			}
			gone := q.ready.popLevel(i)
			q.gone(&gone)
			expired = append(expired, gone.msg)
		}
	}
	if len(expired) > 0 {
		q.deadLetter(ctx, expired, "expired")
	}
	if next != 0 {
		q.ensureTTLTimer(ctx, next)
	}
}

func (q *queue) ensureTTLTimer(ctx *sim.Ctx, expiry int64) {
	if q.ttlTimer != 0 {
		if expiry+1000 >= q.ttlAt {
			return
		}
		ctx.CancelTimer(q.ttlTimer)
	}
	// always fire later: rounded up to the next whole millisecond
	after := ((expiry - ctx.End()) + 999) / 1000 * 1000
	if after < 0 {
		after = 0
	}
	q.ttlGen++
	q.ttlTimer = ctx.SendAfter(q.pid, after, sim.Msg{Kind: kTimerTTL, N: q.ttlGen})
	q.ttlAt = expiry
}

// pickConsumer finds the consumer that gets the next message, blocking
// those that cannot take one; nil if none can.
func (q *queue) pickConsumer() *consumer {
	if q.sac {
		c := q.holder
		if c == nil || q.isConsumerBlocked(c) {
			return nil
		}
		if !q.canSend(c) {
			q.cons.removeActive(c)
			c.ch.blocked = append(c.ch.blocked, c)
			return nil
		}
		return c
	}
	for len(q.cons.active) > 0 {
		c := q.cons.active[0]
		if q.canSend(c) {
			q.cons.rotate()
			return c
		}
		q.cons.removeActive(c)
		c.ch.blocked = append(c.ch.blocked, c)
	}
	return nil
}

func (q *queue) isConsumerBlocked(c *consumer) bool {
	for _, b := range c.ch.blocked {
		if b == c {
			return true
		}
	}
	return false
}

// canSend is is_ch_blocked and rabbit_limiter:can_send for one consumer.
func (q *queue) canSend(c *consumer) bool {
	if c.ch.isBlocked() {
		return false
	}
	if c.ackRequired && c.prefetch > 0 && c.outstanding >= c.prefetch {
		return false
	}
	if !c.ch.limiter.canSend(q.pid, c.ackRequired) {
		c.ch.suspended = true
		return false
	}
	return true
}

func (q *queue) deliverTo(ctx *sim.Ctx, c *consumer, e entry) {
	ctx.Charge(q.n.Config.Costs.QueueDeliver + q.backlogCost())
	if q.n.remote(c.ch.pid) {
		q.n.hop(ctx)
	}
	if e.paged {
		ctx.Charge(q.n.Config.Costs.PageIn)
		e.paged = false
	}
	q.n.Stats.Delivered++
	redelivered := e.delivered
	if !c.ackRequired {
		q.gone(&e)
	}
	if c.ackRequired {
		e.delivered = true
		q.pending.add(e)
		c.ch.acktags.push(ackRec{tag: e.seq, ctag: c.tag})
		c.outstanding++
	}
	c.ch.unsent++
	d := q.n.newDelivery()
	*d = consumerDelivery{Deliver: Deliver{ConsumerTag: c.tag, Msg: e.msg, Redelivered: redelivered},
		ackTag: e.seq, ackRequired: c.ackRequired, queue: q.pid}
	ctx.Send(c.ch.pid, sim.Msg{Kind: kToConsumer, P: d})
}

// run is run_message_queue: deliver while a consumer can take a message.
func (q *queue) run(ctx *sim.Ctx) {
	for q.ready.count > 0 {
		q.dropExpired(ctx)
		if q.ready.count == 0 {
			return
		}
		c := q.pickConsumer()
		if c == nil {
			return
		}
		e, _ := q.ready.pop()
		q.deliverTo(ctx, c, e)
	}
}

// unblock returns a channel's blocked consumers to the active set.
func (q *queue) unblock(cr *chRecord) {
	if cr.isBlocked() {
		return
	}
	keep := cr.blocked[:0]
	for _, c := range cr.blocked {
		if c.ackRequired && c.prefetch > 0 && c.outstanding >= c.prefetch {
			keep = append(keep, c)
			continue
		}
		q.cons.insert(c)
	}
	cr.blocked = keep
}

// subtractAcks removes ack tags from the channel record and gives their
// consumers credit back; it reports whether a consumer was unblocked.
// Acks mostly arrive in delivery order, so the search starts at the head.
func (q *queue) subtractAcks(cr *chRecord, tags []uint64) bool {
	if cr == nil {
		return false
	}
	for _, t := range tags {
		i := 0
		for i < cr.acktags.len() && cr.acktags.at(i).tag != t {
			i++
		}
		if i == cr.acktags.len() {
			continue
		}
		if ctag := cr.acktags.at(i).ctag; ctag != "" {
			if c := q.consumerOn(cr, ctag); c != nil {
				c.outstanding--
			}
		}
		cr.acktags.removeAt(i)
	}
	before := len(cr.blocked)
	q.unblock(cr)
	return len(cr.blocked) < before
}

// consumerOn finds a channel's consumer by tag.
func (q *queue) consumerOn(cr *chRecord, tag string) *consumer {
	for _, c := range q.cons.active {
		if c.ch == cr && c.tag == tag {
			return c
		}
	}
	for _, c := range cr.blocked {
		if c.tag == tag {
			return c
		}
	}
	if q.holder != nil && q.holder.ch == cr && q.holder.tag == tag {
		return q.holder
	}
	return nil
}

func (q *queue) allConsumers() []*consumer {
	out := append([]*consumer(nil), q.cons.active...)
	for _, cr := range q.channels {
		out = append(out, cr.blocked...)
	}
	return out
}

// Acks, requeues and rejects from a channel the queue does not know are
// ignored (rabbit_queue_consumers:subtract_acks answers not_found); from a
// channel it knows, every tag still pending is settled, whoever it was
// delivered to.
func (q *queue) ack(ctx *sim.Ctx, from sim.PID, tags []uint64) {
	q.n.Stats.Acked += int64(len(tags))
	cr := q.chRecord(from)
	if cr == nil {
		return
	}
	for _, t := range tags {
		if e, ok := q.pending.take(t); ok {
			q.gone(&e)
		}
	}
	if q.subtractAcks(cr, tags) || q.sac {
		q.run(ctx)
	}
}

func (q *queue) requeue(ctx *sim.Ctx, from sim.PID, tags []uint64) {
	cr := q.chRecord(from)
	if cr == nil {
		return
	}
	q.subtractAcks(cr, tags)
	q.requeueTags(ctx, tags)
}

func (q *queue) requeueTags(ctx *sim.Ctx, tags []uint64) {
	for _, t := range tags {
		if e, ok := q.pending.take(t); ok {
			q.ready.requeue(e)
		}
	}
	q.dropHead(ctx)
	q.dropExpired(ctx)
	q.run(ctx)
}

func (q *queue) rejectDrop(ctx *sim.Ctx, from sim.PID, tags []uint64) {
	cr := q.chRecord(from)
	if cr == nil {
		return
	}
	unblocked := q.subtractAcks(cr, tags)
	var msgs []*Message
	for _, t := range tags {
		if e, ok := q.pending.take(t); ok {
			q.gone(&e)
			msgs = append(msgs, e.msg)
		}
	}
	q.deadLetter(ctx, msgs, "rejected")
	if unblocked || q.sac {
		q.run(ctx)
	}
}

// channelDown is handle_ch_down: the channel's consumers go, its unacked
// messages are requeued, and an auto-delete queue may go with them.
func (q *queue) channelDown(ctx *sim.Ctx, pid sim.PID) {
	if released, _ := q.credit.peerDown(pid); len(released) > 0 {
		for _, p := range released {
			ctx.Send(p, sim.Msg{Kind: kBump, N: int64(q.credit.spec.MoreAfter)})
		}
	}
	cr := q.chRecord(pid)
	if cr == nil {
		return
	}
	for i, c := range q.channels {
		if c == cr {
			q.channels = append(q.channels[:i], q.channels[i+1:]...)
			break
		}
	}
	removed := 0
	var keep []*consumer
	for _, c := range q.cons.active {
		if c.ch == cr {
			removed++
		} else {
			keep = append(keep, c)
		}
	}
	q.cons.active = keep
	removed += len(cr.blocked)
	if q.sac {
		removed = cr.consumers
	}
	q.cons.count -= removed
	if q.holder != nil && q.holder.ch == cr {
		q.holder = q.nextHolder()
	}
	var tags []uint64
	for _, a := range cr.acktags.items() {
		tags = append(tags, a.tag)
	}
	if removed > 0 && q.shouldAutoDelete() {
		q.delete(ctx)
		return
	}
	q.ensureExpiryTimer(ctx)
	q.requeueTags(ctx, tags)
}

func (q *queue) shouldAutoDelete() bool {
	return q.rec.AutoDelete && q.hasHadCon && q.cons.count == 0
}

// nextHolder picks the single active consumer after the current one left:
// the highest priority, then the earliest registered.
func (q *queue) nextHolder() *consumer {
	var best *consumer
	for _, c := range q.sacWaiting() {
		if best == nil || c.priority > best.priority || (c.priority == best.priority && c.order < best.order) {
			best = c
		}
	}
	return best
}

func (q *queue) sacWaiting() []*consumer {
	var out []*consumer
	for _, c := range q.cons.active {
		if c != q.holder {
			out = append(out, c)
		}
	}
	for _, cr := range q.channels {
		for _, c := range cr.blocked {
			if c != q.holder {
				out = append(out, c)
			}
		}
	}
	return out
}

func (q *queue) ensureExpiryTimer(ctx *sim.Ctx) {
	if q.expires <= 0 || q.cons.count > 0 {
		return
	}
	if q.expiryTimer != 0 {
		ctx.CancelTimer(q.expiryTimer)
	}
	q.expiryGen++
	q.expiryTimer = ctx.SendAfter(q.pid, q.expires*1000, sim.Msg{Kind: kTimerExpires, N: q.expiryGen})
}

// delete removes the queue: bindings, record, consumers (their channels
// are told), and the process.
func (q *queue) delete(ctx *sim.Ctx) {
	q.deleteFiles(ctx)
	q.deleted = true
	q.n.unbindQueue(q.rec.Name)
	if cur, ok := q.n.queues[q.rec.Name]; ok && cur == q.rec {
		delete(q.n.queues, q.rec.Name)
	}
	q.n.changed()
	// every channel that knows the queue (consumers, publishers) sees it go
	byCh := map[sim.PID][]string{}
	var order []sim.PID
	see := func(pid sim.PID) {
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
		if pr := q.n.RT.Process(p.pid); pr != nil && pr.Kind == "channel" {
			see(p.pid)
		}
	}
	for _, pid := range order {
		ctx.Send(pid, sim.Msg{Kind: kQueueGone, P: &queueGone{tags: byCh[pid]}})
	}
	ctx.Exit()
}
