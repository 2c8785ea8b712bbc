package node

// The synchronous calls a channel makes to a queue process
// (rabbit_amqqueue_process:handle_call).

import (
	"warren/engine/amqp"
	"warren/engine/beam"
)

func (q *queue) call(ctx *beam.Ctx, m beam.Msg) {
	reply := func(r any) { ctx.Reply(m, beam.Msg{Kind: kReply, P: r}) }
	switch r := m.P.(type) {
	case *callStat:
		q.ensureExpiryTimer(ctx)
		reply(&statReply{messages: q.ready.count, consumers: q.cons.count})
	case *callPurge:
		for i := range q.ready.levels {
			q.ready.levels[i].each(func(e *entry) { q.gone(e) })
		}
		n := q.ready.purge()
		reply(PurgeOk{Messages: n})
	case *callDelete:
		if r.ifEmpty && q.ready.count > 0 {
			reply(amqp.Errorf(amqp.PreconditionFailed, rs(q.rec.Name)+" not empty"))
			return
		}
		if r.ifUnused && q.cons.count > 0 {
			reply(amqp.Errorf(amqp.PreconditionFailed, rs(q.rec.Name)+" in use"))
			return
		}
		reply(DeleteOk{Messages: q.ready.count})
		q.delete(ctx)
	case *callGet:
		// fetch takes the head as it is, expired or not, and looks for
		// expired messages after it
		q.ensureExpiryTimer(ctx)
		e, ok := q.ready.pop()
		if !ok {
			reply(&getReply{})
			return
		}
		ctx.Charge(q.n.Config.Costs.QueueDeliver)
		q.readBack(&e)
		q.n.cluster.Stats.Delivered++
		g := &getReply{msg: e.msg, ackTag: e.seq, redelivered: e.delivered}
		if r.noAck {
			q.gone(&e)
		} else {
			e.delivered = true
			q.pending.add(e)
			cr := q.ensureChRecord(m.From, nil)
			cr.acktags.push(ackRec{tag: e.seq})
		}
		q.dropExpired(ctx)
		g.remaining = q.ready.count
		reply(g)
	case *callConsume:
		q.consume(ctx, m, r)
	case *callCancel:
		q.cancel(ctx, m.From, r.tag)
		reply(nil)
		if q.shouldAutoDelete() {
			q.delete(ctx)
		}
	}
}

func (q *queue) consume(ctx *beam.Ctx, m beam.Msg, r *callConsume) {
	reply := func(v any) {
		switch {
		case !r.nowait:
			ctx.Reply(m, beam.Msg{Kind: kReply, P: v})
		case v != nil:
			// a consumer registered again after a crash, refused: the
			// channel cancels it
			ctx.Send(r.channel, beam.Msg{Kind: kQueueGone, P: &queueGone{tags: []string{r.tag}}})
		}
	}
	exclusiveHeld := false
	for _, c := range q.allConsumers() {
		if c.exclusive {
			exclusiveHeld = true
		}
	}
	if exclusiveHeld || (r.exclusive && (q.cons.count > 0 || q.sac)) {
		reply(amqp.Errorf(amqp.AccessRefused, rs(q.rec.Name)+" in exclusive use"))
		return
	}
	cr := q.ensureChRecord(r.channel, r.limiter)
	cr.consumers++
	c := &consumer{tag: r.tag, ch: cr, ackRequired: !r.noAck, args: r.args, exclusive: r.exclusive}
	if !r.noAck {
		c.prefetch = r.prefetch
	}
	// A tag freed by basic.cancel may be used again while the old
	// consumer's deliveries are unacked: rabbit_limiter keys credit by
	// tag, so their acks give credit to the new consumer.
	for _, a := range cr.acktags.items() {
		if a.ctag == r.tag {
			c.inherited++
			c.earlier = append(c.earlier, a.tag)
		}
	}
	if v, ok := r.args.Get("x-priority"); ok && v.Kind.IsInt() {
		c.priority = v.Int
	}
	q.hasHadCon = true
	q.cons.add(c)
	q.use.set(true, ctx.Now)
	if q.sac && q.holder == nil {
		q.holder = c
	}
	if q.expiryTimer != 0 {
		ctx.CancelTimer(q.expiryTimer)
		q.expiryTimer = 0
		q.expiryGen++
	}
	reply(nil)
	q.run(ctx)
}

// cancel removes one consumer. Its unacked messages stay with the channel.
// NB: RabbitMQ 3.10 does not run the message queue here, so a single
// active consumer that takes over gets nothing until the next publish, ack
// or channel change.
func (q *queue) cancel(ctx *beam.Ctx, ch beam.PID, tag string) {
	cr := q.chRecord(ch)
	if cr == nil {
		return
	}
	var victim *consumer
	for _, c := range q.allConsumers() {
		if c.ch == cr && c.tag == tag {
			victim = c
		}
	}
	if victim == nil {
		return
	}
	q.cons.removeActive(victim)
	cr.blocked = removeConsumer(cr.blocked, victim)
	cr.consumers--
	q.cons.count--
	if q.holder == victim {
		q.holder = q.nextHolder()
	}
	q.ensureExpiryTimer(ctx)
}
