package node

// Models rabbit_dead_letter: a dead-lettered message is republished through
// the queue's dead-letter exchange with a new id, its expiration removed and
// its x-death history updated, and dropped where it would cycle without a
// reject in the loop.

import (
	"warren/engine/amqp"
	"warren/engine/sim"
)

// deadLetter republishes msgs through the queue's DLX, if it has one that
// exists; otherwise they are dropped.
func (q *queue) deadLetter(ctx *sim.Ctx, msgs []*Message, reason string) {
	if q.dlx == nil || len(msgs) == 0 {
		return
	}
	x, ok := q.n.exchanges[*q.dlx]
	if !ok {
		return
	}
	for _, m := range msgs {
		dl := q.n.deadLetterMessage(m, reason, x.Name, q.dlxKey, q.rec.Name)
		dests := q.n.route(x, dl.Key, dl.Props.Headers, nil)
		for _, name := range dests {
			if reason != "rejected" && isCycle(name, dl.Props.Headers) {
				continue
			}
			if rec, ok := q.n.queues[name]; ok {
				ctx.Charge(q.n.Config.Costs.ChannelPerDest)
				ctx.Send(rec.PID, deliverMsg(dl, 0, false))
			}
		}
	}
}

// deadLetterMessage is rabbit_dead_letter:make_msg.
func (n *Node) deadLetterMessage(m *Message, reason, dlx string, dlxKey *string, queue string) *Message {
	headers := m.Props.Headers
	key := m.Key
	if dlxKey != nil {
		key = *dlxKey
		headers = headers.Without("CC")
	}
	rks := []amqp.Value{amqp.StrValue(m.Key)}
	if cc, ok := m.Props.Headers.Get("CC"); ok && cc.Kind == amqp.Array {
		for _, v := range cc.Arr {
			rks = append(rks, v)
		}
	}
	info := amqp.Table{
		{Key: "reason", Val: amqp.StrValue(reason)},
		{Key: "queue", Val: amqp.StrValue(queue)},
		{Key: "time", Val: amqp.Value{Kind: amqp.Timestamp}},
		{Key: "exchange", Val: amqp.StrValue(m.Exchange)},
		{Key: "routing-keys", Val: amqp.ArrayValue(rks...)},
	}
	if m.Props.HasExpiration {
		info = append(info, amqp.Field{Key: "original-expiration", Val: amqp.StrValue(m.Props.Expiration)})
	}
	headers = updateXDeath(headers, info, queue, reason, m.Exchange)
	props := *m.Props
	props.Headers = headers
	props.Expiration, props.HasExpiration = "", false
	return &Message{ID: n.newMsgID(), Exchange: dlx, Key: key, Props: &props, Body: m.Body}
}

func updateXDeath(headers amqp.Table, info amqp.Table, queue, reason, exchange string) amqp.Table {
	xd, ok := headers.Get("x-death")
	if !ok || xd.Kind != amqp.Array {
		if !ok {
			headers = headers.With("x-first-death-reason", amqp.StrValue(reason))
			headers = headers.With("x-first-death-queue", amqp.StrValue(queue))
			headers = headers.With("x-first-death-exchange", amqp.StrValue(exchange))
		}
		entry := append(amqp.Table{{Key: "count", Val: amqp.LongValue(1)}}, info...)
		// prepend_table_header puts the new header first
		return append(amqp.Table{{Key: "x-death", Val: amqp.ArrayValue(amqp.TableValue(entry))}}, headers.Without("x-death")...)
	}
	var match *amqp.Table
	var others []amqp.Value
	for _, v := range xd.Arr {
		if v.Kind == amqp.Table_ && match == nil && deathIs(v.Tab, queue, reason) {
			t := v.Tab
			match = &t
			continue
		}
		others = append(others, v)
	}
	var updated amqp.Table
	if match == nil {
		updated = append(amqp.Table{{Key: "count", Val: amqp.LongValue(1)}}, info...)
	} else {
		cnt, _ := match.Get("count")
		updated = match.With("count", amqp.LongValue(cnt.Int+1))
	}
	arr := append([]amqp.Value{amqp.TableValue(updated.Sorted())}, others...)
	return headers.With("x-death", amqp.ArrayValue(arr...))
}

func deathIs(t amqp.Table, queue, reason string) bool {
	q, _ := t.Get("queue")
	r, _ := t.Get("reason")
	return q.Kind == amqp.LongStr && q.Str == queue && r.Kind == amqp.LongStr && r.Str == reason
}

// isCycle reports whether dead-lettering to queue would loop with no
// reject in the loop (rabbit_dead_letter:is_cycle).
func isCycle(queue string, headers amqp.Table) bool {
	xd, ok := headers.Get("x-death")
	if !ok || xd.Kind != amqp.Array {
		return false
	}
	for i, v := range xd.Arr {
		if v.Kind != amqp.Table_ {
			continue
		}
		if qv, _ := v.Tab.Get("queue"); qv.Kind == amqp.LongStr && qv.Str == queue {
			for _, d := range xd.Arr[:i+1] {
				if d.Kind != amqp.Table_ {
					return false
				}
				if r, _ := d.Tab.Get("reason"); r.Kind == amqp.LongStr && r.Str == "rejected" {
					return false
				}
			}
			return true
		}
	}
	return false
}
