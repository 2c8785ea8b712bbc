package node

// Models rabbit_queue_consumers: consumers in priority order, round-robin
// within a priority, a per-channel record of unacked ack tags and unsent
// deliveries, consumers blocked by their channel (200 unsent deliveries, or
// its global prefetch) or by their own prefetch credit.

import (
	"warren/engine/amqp"
	"warren/engine/beam"
)

// unsentMessageLimit is UNSENT_MESSAGE_LIMIT.
const unsentMessageLimit = 200

type consumer struct {
	tag         string
	ch          *chRecord
	ackRequired bool
	prefetch    int // 0 = no per-consumer limit
	// outstanding is prefetch less rabbit_limiter's credit for the tag:
	// deliveries less acks of ack tags carrying the tag, which include
	// those of an earlier consumer that had the same tag on the channel.
	outstanding int
	inherited   int // ack tags carrying the tag when the consumer registered
	// earlier holds those inherited ack tags not settled yet: they carry
	// the tag but were delivered before the consumer registered.
	earlier   []uint64
	priority  int64
	exclusive bool
	args      amqp.Table
	order     int // registration order
}

type ackRec struct {
	tag  uint64
	ctag string // "" for basic.get
}

// unacked counts the consumer's own deliveries not yet settled. The ack
// tags carrying its tag number inherited+outstanding (the invariants check
// it); of those, earlier are the ones delivered before it registered.
func (c *consumer) unacked() int {
	return c.inherited + c.outstanding - len(c.earlier)
}

// chRecord is what the queue knows about one channel (#cr).
type chRecord struct {
	pid       beam.PID
	limiter   *Limiter
	acktags   fifo[ackRec]
	unsent    int
	consumers int
	blocked   []*consumer
	suspended bool // its global prefetch refused a delivery
}

func (c *chRecord) isBlocked() bool {
	return c.unsent >= unsentMessageLimit || c.suspended
}

// consumerSet holds the active consumers, highest priority first, in
// round-robin order within a priority.
type consumerSet struct {
	active []*consumer
	count  int // registered, active or blocked
	nextID int
}

func (s *consumerSet) add(c *consumer) {
	s.nextID++
	c.order = s.nextID
	s.insert(c)
	s.count++
}

// insert puts c at the tail of its priority group.
func (s *consumerSet) insert(c *consumer) {
	i := 0
	for i < len(s.active) && s.active[i].priority >= c.priority {
		i++
	}
	s.active = append(s.active, nil)
	copy(s.active[i+1:], s.active[i:])
	s.active[i] = c
}

func (s *consumerSet) removeActive(c *consumer) bool {
	for i, a := range s.active {
		if a == c {
			s.active = append(s.active[:i], s.active[i+1:]...)
			return true
		}
	}
	return false
}

// rotate moves the head consumer to the tail of its priority group.
func (s *consumerSet) rotate() {
	c := s.active[0]
	i := 1
	for i < len(s.active) && s.active[i].priority >= c.priority {
		i++
	}
	copy(s.active[0:i-1], s.active[1:i])
	s.active[i-1] = c
}

func removeConsumer(list []*consumer, c *consumer) []*consumer {
	for i, e := range list {
		if e == c {
			return append(list[:i], list[i+1:]...)
		}
	}
	return list
}

// pickConsumer finds the consumer that gets the next message, blocking
// those that cannot take one; nil if none can.
// When none can, the queue's consumer use turns inactive (deliver's
// undelivered cases).
func (q *queue) pickConsumer() *consumer {
	c := q.findConsumer()
	if c == nil {
		q.use.set(false, q.n.cluster.RT.Now())
	}
	return c
}

func (q *queue) findConsumer() *consumer {
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
	if len(keep) < len(cr.blocked) {
		q.use.set(true, q.n.cluster.RT.Now())
	}
	cr.blocked = keep
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

func (q *queue) chRecord(pid beam.PID) *chRecord {
	for _, c := range q.channels {
		if c.pid == pid {
			return c
		}
	}
	return nil
}

func (q *queue) ensureChRecord(pid beam.PID, lim *Limiter) *chRecord {
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
