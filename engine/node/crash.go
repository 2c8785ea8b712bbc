package node

// Models a classic queue process killed from outside (exit(QPid, kill)) and
// what happens next in RabbitMQ 3.10:
//
//   - Its supervisor, rabbit_amqqueue_sup (an intrinsic child, at most 5
//     restarts in 10 seconds), starts it again at once (rabbit_prequeue's
//     crash_restart). The new process recovers as after an unclean
//     shutdown: a durable queue reads its persistent messages back from its
//     index, every one marked redelivered; what was only in memory
//     (transient messages, the messages of a non-durable queue, unwritten
//     buffers) is gone. A message keeps its seq id, which is its ack tag.
//   - Each channel that knew the old process sees it go down with an
//     abnormal reason (rabbit_classic_queue:handle_event({down, ...})): the
//     publishes it had not confirmed are rejected (confirm-nack), and its
//     consumers consume again on the new process, without a consume-ok
//     (handle_consuming_queue_down_or_eol; x-cancel-on-ha-failover=true
//     cancels instead). Unacked deliveries stay with the channel; their
//     acks now go to the new process, where an old tag that equals a new
//     delivery's seq id acknowledges that delivery.
//   - On the sixth crash within 10 seconds the supervisor gives up. The
//     queue's record stays, its process does not: list_queues leaves it
//     out, publishes to it are lost (a confirming publisher gets a nack),
//     and a channel that needs it waits in rabbit_amqqueue:with/4 (2000
//     tries 30 ms apart) until the queue is deleted or the minute is up.

import (
	"slices"

	"warren/engine/amqp"
	"warren/engine/beam"
	"warren/engine/internal/order"
	"warren/engine/say"
)

const (
	// restartIntensity and restartPeriod are rabbit_amqqueue_sup's
	// {one_for_one, 5, 10}.
	restartIntensity = 5
	restartPeriod    = 10_000_000
	// queueRetryWait is how long rabbit_amqqueue:with/4 retries a queue
	// whose process is dead before it gives up.
	queueRetryWait = 2000 * 30_000
)

// queueDown tells a channel that a queue process died: cur is its
// restarted process, beam.None when its supervisor gave up.
type queueDown struct {
	name     string
	old, cur beam.PID
	// stopped: the queue's node stopped (exit reason shutdown, not a crash)
	stopped bool
}

// callFailed answers a call whose callee died before it replied.
type callFailed struct{}

// CheckCrash says whether a queue can be crashed, without touching it.
func (c *Cluster) CheckCrash(name string) error {
	rec, ok := c.queues[name]
	if !ok {
		return say.E("con.crashNoQueue", "crash", name)
	}
	if rec.Type == "quorum" {
		return say.E("con.crashQuorum", rs(name))
	}
	return nil
}

// CrashQueue kills a queue's process and lets its supervisor act.
func (c *Cluster) CrashQueue(name string) error {
	if err := c.CheckCrash(name); err != nil {
		return err
	}
	rec := c.queues[name]
	q := rec.proc
	if q == nil {
		return nil // the supervisor gave up already: nothing runs
	}
	now := c.RT.Now()
	old := q.pid
	c.RT.Kill(old)
	q.deleted = true
	// what the old process had of each message on disk: the new one reads
	// the files, and takes the message and its ack tag from here
	known := map[levelSeq]knownMsg{}
	if q.disk != nil {
		for _, g := range q.disk.unflushed {
			known[levelSeq{g.lvl, g.dseq}] = knownMsg{msg: g.msg}
		}
	}
	note := func(e *entry) {
		if e.stored {
			known[levelSeq{q.ready.levelOf(e.msg), e.dseq}] = knownMsg{msg: e.msg, seq: e.seq}
		}
	}
	q.pending.each(note)
	for lvl := range q.ready.levels {
		q.ready.levels[lvl].each(note)
	}
	home := q.n
	hadFiles := q.disk != nil
	if hadFiles {
		for _, f := range q.disk.levels {
			home.vhost.CrashQueue(f.Name())
		}
	}
	q.detach()
	was := c.lifeOf(rec.Name)
	rec.proc = nil
	recent := rec.restarts[:0]
	for _, t := range rec.restarts {
		if now-t < restartPeriod {
			recent = append(recent, t)
		}
	}
	rec.restarts = recent
	cur := beam.None
	if len(rec.restarts) >= restartIntensity {
		rec.dead = true
		c.lifeTold(rec.Name, was)
	} else {
		rec.restarts = append(rec.restarts, now)
		rec.PID = 0
		c.lifeTold(rec.Name, was)
		if hadFiles {
			home.recoverQueue(rec, nil, false, known, q.nextSeq)
		} else {
			home.startQueue(nil, rec)
		}
		cur = rec.PID
	}
	c.changed()
	c.queueWentDown(&queueDown{name: name, old: old, cur: cur})
	return nil
}

// queueWentDown tells the channels that knew a queue process that it is
// gone: a call waiting for it fails, and the channel hears of the exit.
func (c *Cluster) queueWentDown(d *queueDown) {
	c.eachChannel(func(ch *channel) {
		if ch.call != nil && ch.call.to == d.old {
			c.RT.Send(ch.pid, beam.Msg{Kind: kReply, Ref: ch.call.ref, P: &callFailed{}})
		}
		if slices.Contains(ch.touched, d.old) {
			c.RT.Send(ch.pid, beam.Msg{Kind: kQueueDown, P: d})
		}
	})
}

// eachChannel runs f on every open channel, in connection and channel order.
func (c *Cluster) eachChannel(f func(ch *channel)) {
	for _, r := range c.readers() {
		nums := make([]int, 0, len(r.chans))
		for num := range r.chans {
			nums = append(nums, num)
		}
		order.Ints(nums)
		for _, num := range nums {
			p := c.RT.Process(r.chans[num].pid)
			if p == nil || p.State() == beam.Exited {
				continue
			}
			if ch, ok := p.Handler.(*channel); ok && !ch.closed {
				f(ch)
			}
		}
	}
}

// deleteCrashed deletes a queue whose supervisor gave up
// (rabbit_classic_queue:delete_crashed): its record, bindings and files go;
// channels waiting for it stop waiting.
func (c *Cluster) deleteCrashed(rec *QueueRecord) {
	c.unbindQueue(rec.Name)
	was := c.lifeOf(rec.Name)
	delete(c.queues, rec.Name)
	c.lifeTold(rec.Name, was)
	c.changed()
	if home := rec.home; home != nil && home.vhost != nil {
		for _, name := range levelNames(rec) {
			_, err := home.vhost.EraseQueue(name, home.queueOptions(rec))
			home.storageFault(err)
		}
	}
	c.eachChannel(func(ch *channel) {
		if w := ch.waiting; w != nil && w.queue == rec.Name {
			c.RT.CancelTimer(w.timer)
			c.RT.Send(ch.pid, beam.Msg{Kind: kWaitDone, Ref: w.ref})
		}
	})
}

// queueTimeout is with/4's answer once its retries run out.
func queueTimeout(name string) *amqp.Error {
	return amqp.Errorf(amqp.NotFound, "failed to perform operation on "+rs(name)+" due to timeout")
}

// deadWait is a channel waiting in rabbit_amqqueue:with/4 for a queue
// whose process is dead.
type deadWait struct {
	queue string
	ref   uint32
	timer beam.TimerID
	until int64 // when the retries run out
	// client: a client's synchronous method waits for the outcome
	client bool
	then   func(ctx *beam.Ctx)
}

// waitForQueue makes the channel sleep until the queue's record goes or
// the retries run out, then runs then.
func (ch *channel) waitForQueue(ctx *beam.Ctx, name string, client bool, then func(ctx *beam.Ctx)) {
	ch.sleep(ctx, name, queueRetryWait, client, then)
}

// sleep makes the channel wait d µs (or until woken), then runs then;
// client says a client's synchronous method waits with it.
func (ch *channel) sleep(ctx *beam.Ctx, queue string, d int64, client bool, then func(ctx *beam.Ctx)) {
	ref, id := ctx.Sleep(d, beam.Msg{Kind: kWaitDone})
	ch.waiting = &deadWait{queue: queue, ref: ref, timer: id, until: ctx.End() + d, client: client, then: then}
	if client {
		ch.n.cluster.clientWaits++
	}
}

// committed answers a metadata change once its transaction has committed
// on the cluster's other nodes (at once on a single node).
func (ch *channel) committed(ctx *beam.Ctx, reply any) {
	d := ch.n.commitDelay()
	if d == 0 {
		ch.send(ctx, reply)
		return
	}
	ch.sleep(ctx, "", d, true, func(ctx *beam.Ctx) { ch.send(ctx, reply) })
}

// endWait runs what a channel waited for.
func (ch *channel) endWait(ctx *beam.Ctx, ref uint32) {
	w := ch.waiting
	if w == nil || ref != w.ref {
		return
	}
	ch.waiting = nil
	if w.client {
		ch.n.cluster.clientWaits--
	}
	w.then(ctx)
}

// ClientHeldUntil says until when a client's synchronous method is held
// by a channel waiting for a dead queue (the client blocks that long).
func (c *Cluster) ClientHeldUntil() (int64, bool) {
	if c.clientWaits == 0 {
		return 0, false
	}
	var until int64
	held := false
	c.eachChannel(func(ch *channel) {
		if w := ch.waiting; w != nil && w.client {
			until, held = max(until, w.until), true
		}
	})
	return until, held
}

// queueCrashed is the channel's side of a queue process's abnormal exit.
func (ch *channel) queueCrashed(ctx *beam.Ctx, d *queueDown) {
	if d.stopped {
		// a clean exit settles what it owed; consuming again fails at
		// once (the queue is gone or its node is down)
		ch.queueDown(ctx, d.old)
		ch.touched = removePID(ch.touched, d.old)
		for _, tag := range sortedKeys(ch.consumers) {
			if ch.consumers[tag].qpid == d.old {
				ch.dropConsumer(ctx, tag)
			}
		}
		return
	}
	released, _ := ch.credit.peerDown(d.old)
	ch.grant(ctx, released)
	// rejected: whatever the old process had not confirmed
	keep := ch.unconfirmed[:0]
	for _, r := range ch.unconfirmed {
		if slices.Contains(r.waiting, d.old) {
			ch.confirmOut = append(ch.confirmOut, Confirm{Seq: r.seq, Nack: true})
			continue
		}
		keep = append(keep, r)
	}
	ch.unconfirmed = keep
	ch.touched = removePID(ch.touched, d.old)
	if d.cur != beam.None {
		if ch.moved == nil {
			ch.moved = map[beam.PID]beam.PID{}
		}
		for k, v := range ch.moved {
			if v == d.old {
				ch.moved[k] = d.cur
			}
		}
		ch.moved[d.old] = d.cur
	}
	var tags []string
	for _, tag := range sortedKeys(ch.consumers) {
		if ch.consumers[tag].qpid == d.old {
			tags = append(tags, tag)
		}
	}
	if len(tags) == 0 {
		return
	}
	if d.cur == beam.None {
		// basic_consume waits in with/4; when it fails the consumer goes
		ch.waitForQueue(ctx, d.name, false, func(ctx *beam.Ctx) {
			if rec, ok := ch.n.cluster.queues[d.name]; ok && !rec.dead {
				ch.reconsume(ctx, rec.PID, tags)
				return
			}
			for _, tag := range tags {
				ch.dropConsumer(ctx, tag)
			}
		})
		return
	}
	ch.reconsume(ctx, d.cur, tags)
}

// reconsume registers consumers again on a queue's new process, nowait.
func (ch *channel) reconsume(ctx *beam.Ctx, q beam.PID, tags []string) {
	ch.touch(q)
	for _, tag := range tags {
		c := ch.consumers[tag]
		if v, ok := c.spec.args.Get("x-cancel-on-ha-failover"); ok && v.Kind == amqp.Bool && v.Int != 0 {
			ch.dropConsumer(ctx, tag)
			continue
		}
		c.qpid = q
		again := *c.spec
		again.nowait = true
		ctx.Send(q, beam.Msg{Kind: kCall, P: &again})
	}
}

// dropConsumer forgets a consumer and tells the client (cancel_consumer).
func (ch *channel) dropConsumer(ctx *beam.Ctx, tag string) {
	if _, ok := ch.consumers[tag]; ok {
		delete(ch.consumers, tag)
		ch.send(ctx, Cancel{Tag: tag})
	}
}

// queuePID is where acks for a queue process go: its restarted process
// once the channel has seen it go down.
func (ch *channel) queuePID(p beam.PID) beam.PID {
	if ch.moved != nil {
		if cur, ok := ch.moved[p]; ok {
			return cur
		}
	}
	return p
}
