package node

// Models vm_memory_monitor and rabbit_alarm: the node's memory is checked
// every second against the high watermark; above it, a memory alarm tells
// every reader to block publishers (connection.blocked), and below it the
// alarm clears.

import (
	"warren/engine/beam"
	"warren/engine/internal/order"
)

// MemoryCheckInterval is DEFAULT_MEMORY_CHECK_INTERVAL, in µs.
const MemoryCheckInterval = 1_000_000

// mailboxMessageBytes is the simulated memory of one message waiting in a
// mailbox, beyond its body.
const mailboxMessageBytes = 96

// SetAlarm raises or clears a resource alarm ("memory" or "disk") and tells
// every open connection.
func (c *Cluster) SetAlarm(resource string, on bool) {
	switch resource {
	case "memory":
		if c.memAlarm == on {
			return
		}
		c.memAlarm = on
		c.alarmTold(resource, on)
	case "disk":
		if c.diskAlarm == on {
			return
		}
		c.diskAlarm = on
		c.alarmTold(resource, on)
	}
	v := int64(0)
	if on {
		v = 1
	}
	for _, r := range c.readers() {
		c.RT.Send(r.proc.PID, beam.Msg{Kind: kAlarm, N: v, P: resource})
	}
}

// Alarms lists the resources in alarm.
func (c *Cluster) Alarms() []string {
	var out []string
	if c.memAlarm {
		out = append(out, "memory")
	}
	if c.diskAlarm {
		out = append(out, "disk")
	}
	return out
}

// OwnAlarms lists the alarms this node raised itself. In a cluster an
// alarm blocks publishers on every node (Alarms lists it on each), but it
// is one node's resource that ran out, and rabbitmqctl cluster_status
// names that node.
func (n *Node) OwnAlarms() []string {
	var out []string
	// a node's own memory over its watermark, or an alarm set on it by hand
	if n.cluster.memAlarm && (n.overWatermark || !n.cluster.anyOverWatermark()) {
		out = append(out, "memory")
	}
	if n.cluster.diskAlarm {
		out = append(out, "disk")
	}
	return out
}

// anyOverWatermark says whether some node of the cluster was over its
// watermark at its last memory check.
func (c *Cluster) anyOverWatermark() bool {
	for _, m := range c.members {
		if m.overWatermark {
			return true
		}
	}
	return false
}

func (n *Node) connNumbers() []int {
	out := make([]int, 0, len(n.conns))
	for c := range n.conns {
		out = append(out, c)
	}
	order.Ints(out)
	return out
}

// Memory is the node's simulated memory use in bytes: a base, every queued
// message (ready or unacked) with its body, and every message waiting in a
// mailbox or socket buffer. It reads totals kept as messages come and go,
// so its cost does not grow with the queues or the processes.
func (n *Node) Memory() int64 {
	total := n.Config.BaseMemory + n.cluster.RT.MailboxBytes(n.group)
	if t := n.held; t != nil {
		per := n.Config.MemoryPerMessage
		total += (t.ready-t.paged)*per + (t.readyBytes - t.pagedBytes) + t.paged*n.Config.PagedMessageMemory
		total += t.unacked*per + t.unackedBytes
	}
	return total
}

// CountMemory is Memory found the long way, by visiting every queue and
// process: the reference Memory's totals are tested against.
func (n *Node) CountMemory() int64 {
	total := n.Config.BaseMemory
	per := n.Config.MemoryPerMessage
	for _, rec := range n.cluster.queues {
		q := rec.proc
		if q == nil || rec.home != n {
			continue
		}
		inMem := int64(q.ready.count - q.ready.paged)
		total += inMem*per + (q.ready.bytes - q.ready.pagedBytes) + int64(q.ready.paged)*n.Config.PagedMessageMemory
		q.pending.each(func(e *entry) { total += per + int64(len(e.msg.Body)) })
	}
	for _, p := range n.cluster.RT.Processes() {
		if p.State() == beam.Exited || p.Group != n.group {
			continue
		}
		// a publish waiting in a mailbox holds its body on the heap
		p.Mailbox(func(m *beam.Msg) {
			total += mailboxMessageBytes
			switch v := m.P.(type) {
			case *Message:
				total += int64(len(v.Body))
			case *BasicPublish:
				total += int64(len(v.Body))
			}
		})
	}
	return total
}

type memoryMonitor struct{ n *Node }

// StartMemoryMonitor starts the process that checks memory against the
// watermark every second.
func (n *Node) StartMemoryMonitor() {
	p := n.spawn("vm_memory_monitor", "monitor", &memoryMonitor{n: n})
	n.cluster.RT.Send(p.PID, beam.Msg{Kind: kMemoryCheck})
}

func (m *memoryMonitor) Handle(ctx *beam.Ctx, msg beam.Msg) {
	ctx.Charge(m.n.Config.Costs.Timer)
	if w := m.n.Config.Watermark; w > 0 {
		used := m.n.Memory()
		// an alarm on any node blocks publishers on every node
		m.n.overWatermark = used > w
		if over := m.n.cluster.anyOverWatermark(); over != m.n.cluster.memAlarm {
			m.n.cluster.SetAlarm("memory", over)
		}
		// rabbit_memory_monitor (3.10): above the paging threshold every
		// queue of the node is told to page messages out
		paging := float64(used) > float64(w)*m.n.Config.PagingRatio
		if paging && !m.n.paging {
			for _, name := range m.n.cluster.QueueNames() {
				if rec := m.n.cluster.queues[name]; rec.home == m.n && rec.proc != nil {
					ctx.Send(rec.PID, beam.Msg{Kind: kPageOut})
				}
			}
		}
		m.n.paging = paging
	}
	ctx.SendAfter(ctx.Self, MemoryCheckInterval, beam.Msg{Kind: kMemoryCheck})
}

// HeldBytes is what the node's messages and files take in the computer's
// memory, about: the bodies of its queued messages that are not paged
// out, the messages waiting in its mailboxes, and every file of its disk
// (a paged-out body is in a file). The simulation's memory budget is
// measured with it; it visits every file.
func (n *Node) HeldBytes() int64 {
	total := n.cluster.RT.MailboxBytes(n.group)
	if t := n.held; t != nil {
		total += t.readyBytes - t.pagedBytes + t.unackedBytes
	}
	if n.Disk != nil {
		total += n.Disk.Bytes()
	}
	return total
}
