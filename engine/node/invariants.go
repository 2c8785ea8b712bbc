//go:build invariants

package node

import "fmt"

// checkingInvariants says whether queues check their bookkeeping after
// every message: with -tags invariants, they do.
const checkingInvariants = true

// checkInvariants verifies a queue's bookkeeping after every message it
// handles. It is built only with -tags invariants (CI runs it).
func (q *queue) checkInvariants() {
	if q.deleted {
		return
	}
	fail := func(format string, args ...any) {
		panic(fmt.Sprintf("invariant broken in queue %s: %s", q.rec.Name, fmt.Sprintf(format, args...)))
	}
	count, bytes := 0, int64(0)
	for i := range q.ready.levels {
		var last uint64
		q.ready.levels[i].each(func(e *entry) {
			if e.seq <= last {
				fail("level %d out of seq order (%d after %d)", i, e.seq, last)
			}
			last = e.seq
			count++
			bytes += int64(len(e.msg.Body))
		})
	}
	if count != q.ready.count || bytes != q.ready.bytes {
		fail("ready count %d/%d bytes %d/%d", q.ready.count, count, q.ready.bytes, bytes)
	}
	pending := 0
	q.pending.each(func(*entry) { pending++ })
	if pending != q.pending.len() {
		fail("pending count %d, holds %d", q.pending.len(), pending)
	}
	acktags := 0
	perConsumer := map[*chRecord]map[string]int{}
	for _, cr := range q.channels {
		acktags += cr.acktags.len()
		perConsumer[cr] = map[string]int{}
		for _, a := range cr.acktags.items() {
			if a.ctag != "" {
				perConsumer[cr][a.ctag]++
			}
		}
	}
	if acktags != pending {
		fail("%d ack tags recorded by channels, %d messages pending", acktags, pending)
	}
	registered := 0
	for _, c := range q.allConsumers() {
		registered++
		// ack tags carrying the tag: those there when the consumer
		// registered, plus its deliveries, less the acks of either
		if got := perConsumer[c.ch][c.tag]; got != c.inherited+c.outstanding {
			fail("consumer %s has %d outstanding and inherited %d ack tags, channel records %d", c.tag, c.outstanding, c.inherited, got)
		}
	}
	if registered != q.cons.count {
		fail("%d consumers counted, %d found", q.cons.count, registered)
	}
	if !q.sac && len(q.cons.active) > 0 && q.ready.count > 0 {
		// rabbit_amqqueue_process:assert_invariant
		fail("%d ready messages while %d consumers are active", q.ready.count, len(q.cons.active))
	}
}
