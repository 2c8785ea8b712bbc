package node

import (
	"strings"

	"warren/engine/beam"
)

// What the teaching views ask of one process after an event: cheap reads
// of the state the markers watch (credit, a reader's socket, the message
// store's GC and current file, the queues' lives) and the counts the
// narration speaks. Models nothing of its own: the credit is credit_flow's
// (rabbit_common), the rest rabbit_msg_store's and rabbit_amqqueue_sup's.

// creditFlowOf is the credit state of process pid, or nil when it is not
// a reader, a channel, a queue or a message store.
func (c *Cluster) creditFlowOf(pid beam.PID) *creditFlow {
	p := c.RT.Process(pid)
	if p == nil {
		return nil
	}
	return creditFlowIn(p)
}

// creditFlowIn is the credit state of process p, or nil when it is not a
// reader, a channel, a queue or a message store.
func creditFlowIn(p *beam.Process) *creditFlow {
	switch h := p.Handler.(type) {
	case *reader:
		return &h.credit
	case *channel:
		return &h.credit
	case *queue:
		return &h.credit
	case *msgStoreProc:
		return &h.credit
	}
	return nil
}

// CreditOf appends to buf the credit process pid (a reader, a channel, a
// queue or a message store) holds toward each of its peers.
func (c *Cluster) CreditOf(pid beam.PID, buf []CreditLink) []CreditLink {
	buf = buf[:0]
	cf := c.creditFlowOf(pid)
	if cf == nil {
		return buf
	}
	for _, peer := range cf.toPeer {
		buf = append(buf, CreditLink{From: pid, To: peer.pid, Credit: peer.n, Initial: cf.spec.Initial})
	}
	return buf
}

// CreditShort reports whether process pid has used up its credit (at or
// below zero) toward any peer: whether CreditOf would list a link with
// Credit <= 0, without listing them.
func (c *Cluster) CreditShort(pid beam.PID) bool { return c.creditFlowOf(pid).short() }

// short reports whether any of cf's links is at or below zero (false for
// nil).
func (cf *creditFlow) short() bool {
	if cf == nil {
		return false
	}
	for i := range cf.toPeer {
		if cf.toPeer[i].n <= 0 {
			return true
		}
	}
	return false
}

// MarkState is what the timeline's markers read after each event of
// process p, in one call: whether p has used up its credit toward a peer
// (CreditShort) and which alarms are in force (AlarmBits). In the browser
// build a call costs more than these reads, and the markers make one
// after each of a recorded run's events.
func (c *Cluster) MarkState(p *beam.Process) (creditShort bool, alarms int) {
	if c.memAlarm {
		alarms |= 1
	}
	if c.diskAlarm {
		alarms |= 2
	}
	// creditFlowIn(p).short(), written out: in the browser build each
	// call costs more than the switch and the loop
	var cf *creditFlow
	switch h := p.Handler.(type) {
	case *reader:
		cf = &h.credit
	case *channel:
		cf = &h.credit
	case *queue:
		cf = &h.credit
	case *msgStoreProc:
		cf = &h.credit
	default:
		return false, alarms
	}
	for i := range cf.toPeer {
		if cf.toPeer[i].n <= 0 {
			return true, alarms
		}
	}
	return false, alarms
}

// AlarmBits says which resource alarms are in force: bit 0 memory, bit 1
// disk.
func (c *Cluster) AlarmBits() int {
	b := 0
	if c.memAlarm {
		b |= 1
	}
	if c.diskAlarm {
		b |= 2
	}
	return b
}

// GCState reads a msg_store_gc process: whether it has a job running and
// the job of its latest step ("combine 2 into 1", "compact 4"); ok is false
// for any other process.
func (c *Cluster) GCState(pid beam.PID) (running bool, job string, ok bool) {
	p := c.RT.Process(pid)
	if p == nil {
		return false, "", false
	}
	g, isGC := p.Handler.(*msgStoreGC)
	if !isGC {
		return false, "", false
	}
	if n := len(g.n.GCLog); n > 0 {
		job, _, _ = strings.Cut(g.n.GCLog[n-1], ":")
	}
	return g.running, job, true
}

// StoreFile reads a message store process: the number of the file it
// writes to now (0.rdq, 1.rdq, ...) and its name; ok is false for any
// other process.
func (c *Cluster) StoreFile(pid beam.PID) (file uint64, name string, ok bool) {
	p := c.RT.Process(pid)
	if p == nil {
		return 0, "", false
	}
	h, isStore := p.Handler.(*msgStoreProc)
	if !isStore {
		return 0, "", false
	}
	return h.st.CurrentFile(), p.Name, true
}

// QueueLife is what a queue's supervisor knows of it: the process that
// runs it now, how often it was restarted lately, and whether the
// supervisor gave up.
type QueueLife struct {
	PID      beam.PID
	Restarts int
	Dead     bool
}

// QueueLives lists every queue's life by name.
func (c *Cluster) QueueLives(into map[string]QueueLife) {
	clear(into)
	for name, rec := range c.queues {
		into[name] = QueueLife{PID: rec.PID, Restarts: len(rec.restarts), Dead: rec.dead}
	}
}

// QueueCounts reads a queue process: its name, ready and unacked
// messages; ok is false for any other process.
func (c *Cluster) QueueCounts(pid beam.PID) (name string, ready, unacked int, ok bool) {
	p := c.RT.Process(pid)
	if p == nil {
		return "", 0, 0, false
	}
	q, isQueue := p.Handler.(*queue)
	if !isQueue || q.rec == nil {
		return "", 0, 0, false
	}
	return q.rec.Name, q.ready.count, q.pending.len(), true
}

// ProcessKindOf is a process's kind ("reader", "channel", "queue", ...),
// or "" for none.
func (c *Cluster) ProcessKindOf(pid beam.PID) string {
	if p := c.RT.Process(pid); p != nil {
		return p.Kind
	}
	return ""
}
