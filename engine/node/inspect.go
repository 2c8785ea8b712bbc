package node

import (
	"fmt"
	"sort"

	"warren/engine/sim"
	"warren/engine/trace"
)

// CreditLinks lists the credit every process holds toward its peers.
func (n *Node) CreditLinks() []CreditLink {
	var out []CreditLink
	for _, r := range n.readers() {
		out = append(out, r.credit.links(r.proc.PID)...)
	}
	for _, p := range n.RT.Processes() {
		switch h := p.Handler.(type) {
		case *channel:
			if !h.closed {
				out = append(out, h.credit.links(h.pid)...)
			}
		case *queue:
			if !h.deleted {
				out = append(out, h.credit.links(h.pid)...)
			}
		}
	}
	return out
}

// ConsumerLines describes every queue's consumers.
func (n *Node) ConsumerLines() []string {
	var out []string
	for _, q := range n.QueueDetails(0) {
		for _, c := range q.Consumers {
			out = append(out, fmt.Sprintf("consumer %s queue=%s %s priority=%d prefetch=%d unacked=%d state=%s",
				c.Tag, q.Name, c.Channel, c.Priority, c.Prefetch, c.Unacked, c.State))
		}
	}
	return out
}

// ConsumerInfo is one consumer as inspection shows it.
type ConsumerInfo struct {
	Tag      string `json:"tag"`
	Channel  string `json:"channel"`
	Priority int64  `json:"priority"`
	Prefetch int    `json:"prefetch"`
	Unacked  int    `json:"unacked"`
	State    string `json:"state"` // active, blocked, waiting (single active consumer)
	NoAck    bool   `json:"noAck"`
}

// QueueDetail is a queue with its levels, head and consumers.
type QueueDetail struct {
	QueueInfo
	PID       sim.PID
	Levels    []int
	Heads     []string
	Consumers []ConsumerInfo
}

// QueueDetails inspects every queue, sorted by name; heads lists up to
// n bodies from the head.
func (n *Node) QueueDetails(heads int) []QueueDetail {
	infos := n.ListQueues()
	out := make([]QueueDetail, 0, len(infos))
	for _, info := range infos {
		rec := n.queues[info.Name]
		q := rec.proc
		d := QueueDetail{QueueInfo: info, PID: rec.PID}
		if q == nil {
			// its node is down: the record is all there is to show
			out = append(out, d)
			continue
		}
		for i := range q.ready.levels {
			d.Levels = append(d.Levels, q.ready.levels[i].len())
		}
		for i := len(q.ready.levels) - 1; i >= 0 && len(d.Heads) < heads; i-- {
			q.ready.levels[i].each(func(e *entry) {
				if len(d.Heads) < heads {
					d.Heads = append(d.Heads, trace.FormatBody(e.msg.Body))
				}
			})
		}
		cons := q.allConsumers()
		sort.SliceStable(cons, func(i, j int) bool { return cons[i].order < cons[j].order })
		for _, c := range cons {
			state := "active"
			if q.isConsumerBlocked(c) {
				state = "blocked"
			}
			if q.sac && q.holder != c {
				state = "waiting"
			}
			d.Consumers = append(d.Consumers, ConsumerInfo{Tag: c.tag, Channel: n.RT.Process(c.ch.pid).Name, Priority: c.priority,
				Prefetch: c.prefetch, Unacked: c.outstanding, State: state, NoAck: !c.ackRequired})
		}
		out = append(out, d)
	}
	return out
}
