package node

import "warren/engine/beam"

// Notices: the node tells the moments a learner should notice as they
// happen, each a small typed Notice in an outbox that the engine empties
// after every event and every command (TakeNotices): credit running out
// and granted back (credit_flow), a reader that stops and starts reading
// its socket (rabbit_reader), an alarm set and cleared (rabbit_alarm), the
// message store moving to a new file and its GC jobs starting and ending
// (rabbit_msg_store, rabbit_msg_store_gc), a queue crashing, restarted,
// given up on, started or gone (rabbit_amqqueue_sup), a channel handling a
// confirm. Nothing reads the node's state to find them. The outbox is part
// of the state: a copy of the state copies it, and the engine empties it
// before a copy is taken.

// NoticeKind is what a Notice tells.
type NoticeKind uint8

const (
	// CreditOut: process PID used up its credit toward Peer.
	CreditOut NoticeKind = iota + 1
	// CreditBack: Peer granted PID credit again, above zero.
	CreditBack
	// ReaderBlocked: reader PID stopped reading its socket.
	ReaderBlocked
	// ReaderUnblocked: reader PID reads its socket again.
	ReaderUnblocked
	// AlarmSet: the resource alarm Word ("memory" or "disk") is set.
	AlarmSet
	// AlarmCleared: the resource alarm Word is cleared.
	AlarmCleared
	// FileRolled: message store PID writes to file To, From being full.
	FileRolled
	// GCStarted: msg_store_gc PID started job Word ("delete 0").
	GCStarted
	// GCEnded: msg_store_gc PID finished job Word.
	GCEnded
	// QueueStarted: a process runs queue Word (declared, restarted by its
	// supervisor or recovered).
	QueueStarted
	// QueueCrashed: queue Word's process crashed.
	QueueCrashed
	// QueueGaveUp: queue Word crashed too often; its supervisor gave up.
	QueueGaveUp
	// QueueGone: queue Word's record is gone (deleted, or its node
	// stopped or restarted).
	QueueGone
	// Confirmed: channel PID handled a confirm from a queue.
	Confirmed
)

// Notice is one moment the node tells.
type Notice struct {
	Kind NoticeKind
	// PID is the process it happened to: the sender of a credit notice,
	// the reader, the message store, its GC process, the channel.
	PID beam.PID
	// Peer is the receiver of a credit notice.
	Peer beam.PID
	// Credit is what PID may still send to Peer when the notice is taken
	// (when the event that told it ended), Initial the credit it starts
	// from, Place the link's place among PID's links (credit_flow's
	// order).
	Credit, Initial, Place int
	// From and To are the files of a FileRolled (N of N.rdq).
	From, To uint64
	// Word is the alarm's resource, the GC job or the queue's name.
	Word string
	// Was and Now are a queue's life before and after.
	Was, Now QueueLife
}

// QueueLife is what a queue's supervisor knows of it: whether its record
// exists, the process that runs it, how often it was restarted lately,
// and whether the supervisor gave up.
type QueueLife struct {
	Exists   bool
	PID      beam.PID
	Restarts int
	Dead     bool
}

// outbox holds the notices told since the engine last took them; off,
// it keeps none (a run whose timeline is not recorded has no markers).
type outbox struct {
	list []Notice
	off  bool
}

// tell appends a notice to the outbox. It is not inlined: it is called at
// a dozen places.
//
//go:noinline
func (c *Cluster) tell(n Notice) {
	if !c.notices.off {
		c.notices.list = append(c.notices.list, n)
	}
}

// KeepNotices says whether the outbox keeps the notices told (it does
// from New).
func (c *Cluster) KeepNotices(keep bool) { c.notices.off = !keep }

// TakeNotices appends to buf the notices told since the last call, in the
// order told, and empties the outbox. A credit notice is completed with
// the link's credit as it is now; one whose link is gone is dropped.
func (c *Cluster) TakeNotices(buf []Notice) []Notice {
	for _, n := range c.notices.list {
		if n.Kind == CreditOut || n.Kind == CreditBack {
			cf := c.creditFlowOf(n.PID)
			if cf == nil {
				continue
			}
			i := find(cf.toPeer, n.Peer)
			if i < 0 {
				continue
			}
			n.Credit, n.Initial, n.Place = cf.toPeer[i].n, cf.spec.Initial, i
		}
		buf = append(buf, n)
	}
	c.notices.list = c.notices.list[:0]
	return buf
}

// creditTold tells that process pid's credit toward peer ran out (out) or
// came back.
func (c *Cluster) creditTold(pid, peer beam.PID, out bool) {
	k := CreditBack
	if out {
		k = CreditOut
	}
	c.tell(Notice{Kind: k, PID: pid, Peer: peer})
}

// alarmTold tells that the alarm of resource went on or off.
func (c *Cluster) alarmTold(resource string, on bool) {
	k := AlarmCleared
	if on {
		k = AlarmSet
	}
	c.tell(Notice{Kind: k, Word: resource})
}

// lifeOf is queue name's life as it is now.
func (c *Cluster) lifeOf(name string) QueueLife {
	rec, ok := c.queues[name]
	if !ok {
		return QueueLife{}
	}
	return QueueLife{Exists: true, PID: rec.PID, Restarts: len(rec.restarts), Dead: rec.dead}
}

// lifeTold tells what changed queue name's life, was being its life
// before the change; it tells nothing when nothing changed.
func (c *Cluster) lifeTold(name string, was QueueLife) {
	now := c.lifeOf(name)
	if now == was {
		return
	}
	k := QueueStarted
	switch {
	case !now.Exists:
		k = QueueGone
	case now.Dead && !was.Dead:
		k = QueueGaveUp
	case now.Restarts > was.Restarts || now.PID == beam.None:
		k = QueueCrashed
	}
	c.tell(Notice{Kind: k, Word: name, Was: was, Now: now})
}
