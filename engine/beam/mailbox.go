package beam

import (
	"math/bits"
	"sync"
	"unsafe"
)

// PID names a process. PIDs are never reused within a runtime.
type PID int32

// None is the zero PID: no process.
const None PID = 0

// Msg is one message in a mailbox. Kind is private to the receiver's
// protocol; N and P carry a small integer and a pointer payload so that the
// hot path allocates nothing for the envelope.
type Msg struct {
	Kind uint16
	From PID
	Ref  uint32 // non-zero on replies to a call (see Ctx.Await)
	// w is the message's weight while it waits in a mailbox (see
	// SetWeigher), kept so that the Weigher is asked once; wideWeight: it
	// does not fit, ask again. It fills what would be padding.
	w  uint32
	N  int64
	P  any
	At int64 // virtual µs at which the message arrived
}

// mailbox is a FIFO ring of messages; its size is a power of two so that
// positions wrap with a mask.
type mailbox struct {
	buf        []Msg
	head, size int
}

func (m *mailbox) len() int { return m.size }

func (m *mailbox) push(msg *Msg) {
	if m.size == len(m.buf) {
		m.grow()
	}
	m.buf[(m.head+m.size)&(len(m.buf)-1)] = *msg
	m.size++
}

func (m *mailbox) grow() {
	n := len(m.buf) * 2
	if n == 0 {
		n = 8
	}
	m.resize(n)
}

// resize moves the messages to a ring of n, n at least size.
func (m *mailbox) resize(n int) {
	nb := getRing(n)
	k := copy(nb[:m.size], m.buf[m.head:])
	copy(nb[k:m.size], m.buf)
	if len(m.buf) >= poolFrom {
		clear(m.buf)
		putRing(m.buf)
	}
	m.buf, m.head = nb, 0
}

// Rings of poolFrom messages and more are recycled through rings: a burst
// of thousands of frames grows the reader's socket ring to thousands of
// messages, and it empties (and is dropped, see pop) at the end of every
// command. A recycled ring holds only zero messages. The pool is no part
// of any simulation's state: a ring's contents are all the state it has.
const poolFrom = 64

// rings holds free rings by size, rings[i] those of 1<<i messages.
var rings [32]sync.Pool

// kept holds one free ring of each size, as long as those it holds take
// at most keptSlots messages in all. Unlike the pool, which a garbage
// collection empties, it keeps them: else every command's burst, after a
// collection, allocates its rings anew (a megabyte and a half for
// 10,000 frames), which brings the next collection sooner. Rings it has
// no room for go to the pool.
var kept struct {
	sync.Mutex
	by    [32][]Msg
	slots int
}

// keptSlots bounds kept: 4 MB of rings.
const keptSlots = 4 << 20 / int(unsafe.Sizeof(Msg{}))

func getRing(n int) []Msg {
	if n >= poolFrom {
		i := bits.TrailingZeros64(uint64(n))
		kept.Lock()
		r := kept.by[i]
		if r != nil {
			kept.by[i] = nil
			kept.slots -= len(r)
		}
		kept.Unlock()
		if r != nil {
			return r
		}
		if r, ok := rings[i].Get().(*[]Msg); ok {
			return *r
		}
	}
	return make([]Msg, n)
}

func putRing(buf []Msg) {
	i := bits.TrailingZeros64(uint64(len(buf)))
	kept.Lock()
	keep := kept.by[i] == nil && kept.slots+len(buf) <= keptSlots
	if keep {
		kept.by[i] = buf
		kept.slots += len(buf)
	}
	kept.Unlock()
	if !keep {
		rings[i].Put(&buf)
	}
}

func (m *mailbox) peek(i int) *Msg { return &m.buf[(m.head+i)&(len(m.buf)-1)] }

func (m *mailbox) pop() Msg {
	var msg Msg
	m.popTo(&msg)
	return msg
}

// popTo moves the oldest message to *dst (one copy, where pop's result
// would be copied again).
func (m *mailbox) popTo(dst *Msg) {
	h := m.head
	*dst = m.buf[h]
	m.buf[h] = Msg{}
	m.head = (h + 1) & (len(m.buf) - 1)
	m.size--
	if n := len(m.buf); n > keepRing && m.size < n/3 {
		m.shrink()
	}
}

// shrink drops the ring of an empty mailbox: a burst is over, and it holds
// no more than a small ring (a checkpoint copies the whole ring); pop left
// every message of it zero. A draining mailbox's ring halves once it is
// less than a third full (half of it is then two thirds full, so that
// neither a push nor a pop resizes it again soon), down to a ring twice
// the size of keepRing: a checkpoint taken while a burst drains copies
// at most three times what it holds, not the burst's whole ring.
func (m *mailbox) shrink() {
	switch {
	case m.size == 0:
		putRing(m.buf)
		m.buf, m.head = nil, 0
	case len(m.buf) > 2*keepRing:
		m.resize(len(m.buf) / 2)
	}
}

// keepRing is the largest ring an empty mailbox keeps.
const keepRing = 512

// removeAt takes out the i-th message (selective receive).
func (m *mailbox) removeAt(i int) Msg {
	if i == 0 {
		return m.pop()
	}
	msg := *m.peek(i)
	for j := i; j < m.size-1; j++ {
		*m.peek(j) = *m.peek(j + 1)
	}
	*m.peek(m.size - 1) = Msg{}
	m.size--
	return msg
}

// each calls f for every queued message, oldest first.
func (m *mailbox) each(f func(*Msg)) {
	for i := 0; i < m.size; i++ {
		f(m.peek(i))
	}
}
