package node

// Models the in-memory part of rabbit_variable_queue and, for queues with
// x-max-priority, rabbit_priority_queue: one backing queue per priority
// level, fetched from the highest non-empty level. Requeued messages go back
// to their original position, ordered by seq id.

// entry is one message held by a queue, ready or pending ack.
type entry struct {
	seq       uint64
	msg       *Message
	delivered bool   // fetched before: the next delivery is redelivered
	expiry    int64  // virtual µs; 0 = never
	paged     bool   // the body is on disk, only its index entry in memory
	stored    bool   // written to the queue's files (durable or lazy queue)
	dseq      uint64 // its seq id in its level's files
}

// level is one backing queue: entries in ascending seq order.
type level struct{ fifo[entry] }

func (l *level) front() *entry { return l.at(0) }

func (l *level) pushBack(e entry) { l.push(e) }

// insert puts a requeued entry back at its seq position.
func (l *level) insert(e entry) {
	live := l.buf[l.head:]
	lo, hi := 0, len(live)
	for lo < hi {
		mid := (lo + hi) / 2
		if live[mid].seq < e.seq {
			lo = mid + 1
		} else {
			hi = mid
		}
	}
	pos := l.head + lo
	if pos == len(l.buf) {
		l.buf = append(l.buf, e)
		return
	}
	if l.head > 0 && lo == 0 {
		l.head--
		l.buf[l.head] = e
		return
	}
	l.buf = append(l.buf, entry{})
	copy(l.buf[pos+1:], l.buf[pos:])
	l.buf[pos] = e
}

func (l *level) each(f func(e *entry)) {
	for i := l.head; i < len(l.buf); i++ {
		f(&l.buf[i])
	}
}

func (l *level) popFront() entry {
	e := *l.at(0)
	l.removeAt(0)
	return e
}

// messages is a queue's ready messages over its priority levels.
type messages struct {
	levels     []level // index = priority level
	count      int
	bytes      int64
	paged      int // of count, paged out to disk
	pagedBytes int64
	max        int // highest level; 0 for a plain queue
	// tiers makes the two levels a quorum queue's (4.0, rabbit_fifo_q):
	// priority above 4 is high; dequeues take high, high, then the older
	// of the two heads.
	tiers bool
	turn  int
	tot   *held // the node's totals, while the queue is live
}

// quorumHighAbove is the priority above which a quorum queue message is high.
const quorumHighAbove = 4

func newTiers() messages {
	ms := newMessages(1)
	ms.tiers = true
	return ms
}

func (ms *messages) account(e *entry, sign int) {
	ms.count += sign
	ms.bytes += int64(sign) * int64(len(e.msg.Body))
	if e.paged {
		ms.paged += sign
		ms.pagedBytes += int64(sign) * int64(len(e.msg.Body))
	}
	if t := ms.tot; t != nil {
		t.ready += int64(sign)
		t.readyBytes += int64(sign) * int64(len(e.msg.Body))
		if e.paged {
			t.paged += int64(sign)
			t.pagedBytes += int64(sign) * int64(len(e.msg.Body))
		}
	}
}

func newMessages(maxPriority int) messages {
	return messages{levels: make([]level, maxPriority+1), max: maxPriority}
}

func (ms *messages) levelOf(m *Message) int {
	p := int(m.Props.Priority)
	if ms.tiers {
		if p > quorumHighAbove {
			return 1
		}
		return 0
	}
	if p > ms.max {
		return ms.max
	}
	return p
}

func (ms *messages) push(e entry) {
	ms.levels[ms.levelOf(e.msg)].pushBack(e)
	ms.account(&e, 1)
}

func (ms *messages) requeue(e entry) {
	ms.levels[ms.levelOf(e.msg)].insert(e)
	ms.account(&e, 1)
}

// pageOut marks up to n in-memory messages, newest first, as paged out; it
// returns how many it paged.
func (ms *messages) pageOut(n int, each func(lvl int, e *entry)) int {
	done := 0
	for i := range ms.levels {
		l := &ms.levels[i]
		for j := len(l.buf) - 1; j >= l.head && done < n; j-- {
			if e := &l.buf[j]; !e.paged {
				e.paged = true
				ms.paged++
				ms.pagedBytes += int64(len(e.msg.Body))
				if t := ms.tot; t != nil {
					t.paged++
					t.pagedBytes += int64(len(e.msg.Body))
				}
				done++
				each(i, e)
			}
		}
	}
	return done
}

// head returns the level holding the next message to fetch, or -1.
func (ms *messages) head() int {
	for i := len(ms.levels) - 1; i >= 0; i-- {
		if ms.levels[i].len() > 0 {
			return i
		}
	}
	return -1
}

func (ms *messages) popLevel(i int) entry {
	e := ms.levels[i].popFront()
	ms.account(&e, -1)
	return e
}

// pop fetches the next message: strict priority, FIFO within a level.
func (ms *messages) pop() (entry, bool) {
	i := ms.head()
	if i < 0 {
		return entry{}, false
	}
	if ms.tiers {
		i = ms.tierTurn()
	}
	return ms.popLevel(i), true
}

// tierTurn is rabbit_fifo_q's weighted dequeue: a counter cycles 0, 1, 2;
// on 0 and 1 the high tier goes first if it has anything; on 2, when both
// have messages, the older head goes.
func (ms *messages) tierTurn() int {
	hi, lo := &ms.levels[1], &ms.levels[0]
	turn := ms.turn
	ms.turn = (ms.turn + 1) % 3
	switch {
	case hi.len() == 0:
		return 0
	case lo.len() == 0:
		return 1
	case turn < 2:
		return 1
	case lo.front().seq < hi.front().seq:
		return 0
	}
	return 1
}

// purge removes every ready message and returns how many there were.
func (ms *messages) purge() int {
	n := ms.count
	if t := ms.tot; t != nil {
		t.ready -= int64(ms.count)
		t.readyBytes -= ms.bytes
		t.paged -= int64(ms.paged)
		t.pagedBytes -= ms.pagedBytes
	}
	for i := range ms.levels {
		ms.levels[i] = level{}
	}
	ms.count, ms.bytes, ms.paged, ms.pagedBytes = 0, 0, 0, 0
	return n
}
