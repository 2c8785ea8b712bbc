package node

// pendingAcks holds a queue's delivered-but-unacked messages (the
// ram_pending_ack of rabbit_variable_queue) in ascending seq order. Acks
// mostly settle the oldest, so removal is cheap at the head.
type pendingAcks struct {
	buf   []entry // ascending seq; removed entries have msg == nil
	head  int
	count int
	bytes int64 // their bodies' sizes (unacked_bytes)
	tot   *held // the node's totals, while the queue is live
}

func (p *pendingAcks) len() int { return p.count }

func (p *pendingAcks) search(seq uint64) int {
	if p.head < len(p.buf) && p.buf[p.head].seq >= seq {
		return p.head // the oldest, as most acks are
	}
	lo, hi := p.head, len(p.buf)
	for lo < hi {
		mid := (lo + hi) / 2
		if p.buf[mid].seq < seq {
			lo = mid + 1
		} else {
			hi = mid
		}
	}
	return lo
}

// add records a delivered message.
func (p *pendingAcks) add(e entry) {
	p.count++
	p.bytes += int64(len(e.msg.Body))
	if t := p.tot; t != nil {
		t.unacked++
		t.unackedBytes += int64(len(e.msg.Body))
	}
	if n := len(p.buf); n == p.head || p.buf[n-1].seq < e.seq {
		if p.head > 0 && p.head >= len(p.buf)/2 && len(p.buf) == cap(p.buf) {
			k := copy(p.buf, p.buf[p.head:])
			clear(p.buf[k:])
			p.buf = p.buf[:k]
			p.head = 0
		}
		p.buf = append(p.buf, e)
		return
	}
	i := p.search(e.seq)
	p.buf = append(p.buf, entry{})
	copy(p.buf[i+1:], p.buf[i:])
	p.buf[i] = e
}

// take removes and returns the message with this ack tag.
func (p *pendingAcks) take(seq uint64) (entry, bool) {
	i := p.search(seq)
	if i == len(p.buf) || p.buf[i].seq != seq || p.buf[i].msg == nil {
		return entry{}, false
	}
	e := p.buf[i]
	p.buf[i] = entry{seq: seq}
	p.count--
	p.bytes -= int64(len(e.msg.Body))
	if t := p.tot; t != nil {
		t.unacked--
		t.unackedBytes -= int64(len(e.msg.Body))
	}
	for p.head < len(p.buf) && p.buf[p.head].msg == nil {
		p.buf[p.head] = entry{}
		p.head++
	}
	if p.head == len(p.buf) {
		p.buf = p.buf[:0]
		p.head = 0
	}
	return e, true
}

// each calls f for every pending message, in seq order.
func (p *pendingAcks) each(f func(e *entry)) {
	for i := p.head; i < len(p.buf); i++ {
		if p.buf[i].msg != nil {
			f(&p.buf[i])
		}
	}
}
