package node

import (
	"fmt"
	"sort"
)

// CreditLinks lists the credit every process holds toward its peers.
func (n *Node) CreditLinks() []CreditLink {
	var out []CreditLink
	for _, c := range n.connNumbers() {
		r := n.conns[c]
		if r.closed {
			continue
		}
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
	for _, name := range n.QueueNames() {
		q := n.queues[name].proc
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
			ch := n.RT.Process(c.ch.pid)
			out = append(out, fmt.Sprintf("consumer %s queue=%s %s priority=%d prefetch=%d unacked=%d state=%s",
				c.tag, name, ch.Name, c.priority, c.prefetch, c.outstanding, state))
		}
	}
	return out
}
