package node

// Models rabbit_queue_consumers: consumers in priority order, round-robin
// within a priority, a per-channel record of unacked ack tags and unsent
// deliveries, consumers blocked by their channel (200 unsent deliveries, or
// its global prefetch) or by their own prefetch credit.

import (
	"warren/engine/amqp"
	"warren/engine/sim"
)

// unsentMessageLimit is UNSENT_MESSAGE_LIMIT.
const unsentMessageLimit = 200

type consumer struct {
	tag         string
	ch          *chRecord
	ackRequired bool
	prefetch    int // 0 = no per-consumer limit
	outstanding int // deliveries awaiting ack
	priority    int64
	exclusive   bool
	args        amqp.Table
	order       int // registration order
}

type ackRec struct {
	tag  uint64
	ctag string // "" for basic.get
}

// chRecord is what the queue knows about one channel (#cr).
type chRecord struct {
	pid       sim.PID
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
