package node

import (
	"warren/engine/beam"
	"warren/engine/say"
)

// What the narration reads of one process after an event: its credit
// toward a peer, its GC job, a queue's counts. Models nothing of its own:
// the credit is credit_flow's (rabbit_common), the rest rabbit_msg_store's
// and rabbit_amqqueue_process's. (The moments the markers show are told
// as notices: notice.go.)

// creditFlowOf is the credit state of process pid, or nil when it is not
// a reader, a channel, a queue or a message store.
func (c *Cluster) creditFlowOf(pid beam.PID) *creditFlow {
	p := c.RT.Process(pid)
	if p == nil {
		return nil
	}
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

// CreditToward is the credit process pid holds toward peer: the messages
// it may still send before credit_flow blocks it; ok is false when it
// holds none.
func (c *Cluster) CreditToward(pid, peer beam.PID) (credit int, ok bool) {
	cf := c.creditFlowOf(pid)
	if cf == nil {
		return 0, false
	}
	i := find(cf.toPeer, peer)
	if i < 0 {
		return 0, false
	}
	return cf.toPeer[i].n, true
}

// GCJob is the job of a msg_store_gc process's latest step ("combine 2
// into 1", "compact 4"), or "" for none or any other process.
func (c *Cluster) GCJob(pid beam.PID) string {
	p := c.RT.Process(pid)
	if p == nil {
		return ""
	}
	g, isGC := p.Handler.(*msgStoreGC)
	if !isGC {
		return ""
	}
	return g.n.lastGCJob()
}

// lastGCJob is the job of the GC log's latest line (its first argument,
// con.gc.job.*).
func (n *Node) lastGCJob() string {
	if k := len(n.GCSaid); k > 0 && len(n.GCSaid[k-1].Args) > 0 {
		if job, ok := n.GCSaid[k-1].Args[0].(say.Text); ok {
			return job.String()
		}
	}
	return ""
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
