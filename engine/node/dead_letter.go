package node

// Models rabbit_dead_letter: a dead-lettered message is republished through
// the queue's dead-letter exchange with a new id, its expiration removed and
// its x-death history updated, and dropped where it would cycle without a
// reject in the loop.

import (
	"warren/engine/amqp"
	"warren/engine/beam"
)

// deadLetter republishes msgs through the queue's DLX, if it has one that
// exists; otherwise they are dropped.
func (q *queue) deadLetter(ctx *beam.Ctx, msgs []*Message, reason string) {
	if q.dlx == nil || len(msgs) == 0 {
		return
	}
	x, ok := q.n.cluster.exchanges[*q.dlx]
	if !ok {
		return
	}
	for _, m := range msgs {
		dl := q.n.deadLetterMessage(m, reason, x.Name, q.dlxKey, q.rec.Name)
		dests := q.n.cluster.route(x, dl.Key, dl.Props.Headers, nil)
		for _, name := range dests {
			if reason != "rejected" && isCycle(name, dl.Props.Headers) {
				continue
			}
			if rec, ok := q.n.cluster.queues[name]; ok {
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
	return &Message{ID: n.cluster.newMsgID(), Exchange: dlx, Key: key, Props: &props, Body: m.Body}
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
	for _, v := range groupDeaths(xd.Arr) {
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

// groupDeaths is group_by_queue_and_reason, which update_x_death_header
// applies to an x-death array of two entries or more before it puts the
// new entry first: it keeps the first entry of each queue and reason
// (given a count of how many there were, if it has none) and, as it
// folds them onto the front of a list, reverses their order. So the
// older entries change places at each dead-lettering: rejected, then
// expired, then maxlen reads [maxlen, rejected, expired].
func groupDeaths(arr []amqp.Value) []amqp.Value {
	if len(arr) < 2 {
		return arr
	}
	type key struct {
		qk, rk amqp.Kind
		q, r   string
	}
	keyOf := func(v amqp.Value) key {
		q, _ := v.Tab.Get("queue")
		r, _ := v.Tab.Get("reason")
		return key{q.Kind, r.Kind, q.String(), r.String()}
	}
	out := make([]amqp.Value, 0, len(arr))
	seen := map[key]bool{}
	for _, v := range arr {
		if v.Kind != amqp.Table_ {
			// not an entry RabbitMQ writes; kept where the fold puts it
			out = append(out, v)
			continue
		}
		k := keyOf(v)
		if seen[k] {
			continue
		}
		seen[k] = true
		first, n := v, 0
		for _, w := range arr {
			if w.Kind == amqp.Table_ && keyOf(w) == k {
				if n == 0 {
					first = w
				}
				n++
			}
		}
		if _, ok := first.Tab.Get("count"); !ok {
			first = amqp.TableValue(append(amqp.Table{{Key: "count", Val: amqp.LongValue(int64(n))}}, first.Tab...))
		}
		out = append(out, first)
	}
	for i, j := 0, len(out)-1; i < j; i, j = i+1, j-1 {
		out[i], out[j] = out[j], out[i]
	}
	return out
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
