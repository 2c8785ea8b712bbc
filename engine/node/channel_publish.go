package node

// Publishing and publisher confirms in rabbit_channel: a basic.publish is
// routed through the exchange (the decision cached until the topology
// changes) and sent to each queue under credit flow; the queues' confirms
// are collected per sequence number (rabbit_confirms) and sent to the
// client coalesced.

import (
	"fmt"
	"sort"
	"strconv"

	"warren/engine/amqp"
	"warren/engine/beam"
)

// routeCache keeps the last routing decision until the topology changes.
type routeCache struct {
	gen   uint64
	x     *Exchange
	key   string
	dests []*QueueRecord
}

type confirmRec struct {
	seq     uint64
	waiting []beam.PID // queues that have not confirmed yet
	nack    bool
}

func (ch *channel) publish(ctx *beam.Ctx, m *BasicPublish) *amqp.Error {
	n := ch.n
	c := &n.Config.Costs
	ctx.Charge(c.ChannelPublish + int64(len(m.Body)>>10)*c.PerKB)
	if m.Immediate {
		return amqp.Errorf(amqp.NotImplemented, "immediate=true")
	}
	rc := &ch.routes
	if rc.gen != n.cluster.gen || rc.x == nil || rc.x.Name != m.Exchange || rc.key != m.Key || rc.x.Type == "headers" {
		x, ok := n.cluster.exchanges[m.Exchange]
		if !ok {
			return notFoundExchange(m.Exchange)
		}
		rc.gen, rc.x, rc.key = n.cluster.gen, x, m.Key
		rc.dests = rc.dests[:0]
		for _, name := range n.cluster.route(x, m.Key, m.Props.Headers, ch.routeBuf[:0]) {
			// a queue whose node is stopped takes nothing (stop_app and
			// start_app change the topology, so the cache follows)
			if q := n.cluster.queues[name]; !q.down {
				rc.dests = append(rc.dests, q)
			}
		}
	}
	if rc.x.Internal {
		return amqp.Errorf(amqp.AccessRefused, "cannot publish to internal "+xrs(rc.x.Name))
	}
	m, err := ch.setReplyTo(m)
	if err != nil {
		return err
	}
	if u := m.Props.UserID; u != "" && u != User {
		return amqp.Errorf(amqp.PreconditionFailed, "user_id property set to '"+u+"' but authenticated user was '"+User+"'")
	}
	if m.Props.HasExpiration {
		if e := checkExpiration(m.Props.Expiration); e != nil {
			return e
		}
	}
	if e := checkHeaderRoutes(m.Props.Headers); e != nil {
		return e
	}
	if isReplyName(m.Exchange, m.Key) {
		// routed to no queue: a reply goes when it is routed, in a
		// transaction too
		ch.deliverReply(ctx, m)
	}
	if ch.tx != nil {
		// routed now, delivered at tx.commit
		ch.tx.publishes = append(ch.tx.publishes, txPublish{m: m, dests: append([]*QueueRecord(nil), rc.dests...)})
		return nil
	}
	ch.deliverPublish(ctx, m, rc.dests)
	return nil
}

// deliverPublish sends a routed publish to its queues (deliver_to_queues):
// a mandatory one that reaches none comes back, and in confirm mode its
// sequence number is confirmed once every queue has it.
func (ch *channel) deliverPublish(ctx *beam.Ctx, m *BasicPublish, dests []*QueueRecord) {
	n := ch.n
	c := &n.Config.Costs
	n.cluster.Stats.Published++
	msg := n.cluster.newMessage()
	msg.Exchange, msg.Key, msg.Props, msg.Body = m.Exchange, m.Key, &m.Props, m.Body
	// in a transaction the queues confirm too: tx.commit-ok waits for
	// them (DoConfirm = Tx =/= none orelse ConfirmEnabled)
	track := ch.confirm || ch.tx != nil
	var seq uint64
	if track {
		ch.pubSeq++
		seq = ch.pubSeq
	}
	if len(dests) == 0 {
		if m.Mandatory {
			ch.send(ctx, Return{Code: amqp.NoRoute, Text: "NO_ROUTE", Msg: msg})
		}
		if track {
			ch.confirmOut = append(ch.confirmOut, Confirm{Seq: seq})
		}
		return
	}
	var rec *confirmRec
	if track {
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
		if ch.credit.send(q.PID, ctx.Now) {
			ch.n.cluster.creditTold(ch.pid, q.PID, true)
		}
	}
	if lost && rec != nil {
		ch.unconfirmed = ch.unconfirmed[:len(ch.unconfirmed)-1]
		ch.confirmOut = append(ch.confirmOut, Confirm{Seq: seq, Nack: true})
	}
	return
}

// User is the user every client connection authenticates as (RabbitMQ's
// default user, which is not an impersonator).
const User = "guest"

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
func (ch *channel) confirmed(seq uint64, q beam.PID, nack bool) {
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

// flushConfirms sends the publisher confirms settled so far
// (send_confirms_and_nacks).
func (ch *channel) flushConfirms(ctx *beam.Ctx) {
	if ch.tx != nil {
		ch.settleTx(ctx)
		return
	}
	for _, c := range ch.confirmOut {
		ch.n.cluster.Stats.Confirmed++
		ch.send(ctx, c)
	}
	ch.confirmOut = ch.confirmOut[:0]
}

func removePID(list []beam.PID, p beam.PID) []beam.PID {
	for i, e := range list {
		if e == p {
			return append(list[:i], list[i+1:]...)
		}
	}
	return list
}

// queueDown forgets a queue that is gone: its pending confirms count as
// confirmed, its credit is forgotten.
func (ch *channel) queueDown(ctx *beam.Ctx, q beam.PID) {
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

// checkHeaderRoutes refuses a message whose CC or BCC header is not an
// array, as rabbit_basic:header_routes/1 does when the channel makes the
// message (make_message): CC is looked at first, then BCC, and the error
// names the first that is wrong and its type.
func checkHeaderRoutes(headers amqp.Table) *amqp.Error {
	for _, key := range [...]string{"CC", "BCC"} {
		if v, ok := headers.Get(key); ok && v.Kind != amqp.Array {
			return amqp.Errorf(amqp.PreconditionFailed, "invalid message: {unacceptable_type_in_header,\""+key+"\","+v.Kind.String()+"}")
		}
	}
	return nil
}
