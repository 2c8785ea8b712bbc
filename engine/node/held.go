package node

// held is what a node's live queues hold, kept up to date where messages
// enter a queue, are paged out, delivered, acked or leave it, so that the
// node's memory and the cluster's depth are read at once, whatever the
// number of queues (rabbit_memory_monitor asks each queue instead).
type held struct {
	ready, paged           int64 // messages ready, and of them paged out
	readyBytes, pagedBytes int64
	unacked, unackedBytes  int64 // delivered, awaiting ack
}

// attach makes a new queue's messages count in its node's totals.
func (q *queue) attach() {
	if q.n.held == nil {
		q.n.held = &held{}
	}
	q.ready.tot, q.pending.tot = q.n.held, q.n.held
}

// detach takes a queue that is gone (deleted, crashed, its node stopped)
// out of its node's totals; what it still holds no longer counts.
func (q *queue) detach() {
	t := q.ready.tot
	if t == nil {
		return
	}
	t.ready -= int64(q.ready.count)
	t.readyBytes -= q.ready.bytes
	t.paged -= int64(q.ready.paged)
	t.pagedBytes -= q.ready.pagedBytes
	q.pending.each(func(e *entry) {
		t.unacked--
		t.unackedBytes -= int64(len(e.msg.Body))
	})
	q.ready.tot, q.pending.tot = nil, nil
}

// weighMailbox is the simulated memory of a message waiting in a
// mailbox: a publish holds its body on the heap.
func weighMailbox(payload any) int64 {
	switch v := payload.(type) {
	case *Message:
		return mailboxMessageBytes + int64(len(v.Body))
	case *BasicPublish:
		return mailboxMessageBytes + int64(len(v.Body))
	}
	return mailboxMessageBytes
}
