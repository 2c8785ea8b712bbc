package node

// fifo is a slice used as a queue: items leave mostly from the head, so the
// head moves forward and the live part is copied down only when the
// backing array is full, instead of reallocating on every append after a
// removal at the front. It is the one queue of the node's processes: a
// channel's unacked deliveries, a queue's ack tags per channel, and each
// priority level of a queue's ready messages.
type fifo[T any] struct {
	buf  []T
	head int
}

func (f *fifo[T]) len() int { return len(f.buf) - f.head }

// at returns the i-th live item.
func (f *fifo[T]) at(i int) *T { return &f.buf[f.head+i] }

func (f *fifo[T]) push(v T) {
	// NB: only once the dead head is half the buffer: compacting for a
	// few dead items would copy the whole buffer at every push of a
	// queue that stays near its capacity.
	if len(f.buf) == cap(f.buf) && f.head > 0 && f.head >= len(f.buf)/2 {
		n := copy(f.buf, f.buf[f.head:])
		clear(f.buf[n:])
		f.buf = f.buf[:n]
		f.head = 0
	}
	f.buf = append(f.buf, v)
}

// removeAt drops the i-th live item.
func (f *fifo[T]) removeAt(i int) {
	var zero T
	if i == 0 {
		f.buf[f.head] = zero
		f.head++
		if f.head == len(f.buf) {
			f.buf, f.head = f.buf[:0], 0
		}
		return
	}
	j := f.head + i
	copy(f.buf[j:], f.buf[j+1:])
	f.buf[len(f.buf)-1] = zero
	f.buf = f.buf[:len(f.buf)-1]
}

// dropFront removes the first n live items.
func (f *fifo[T]) dropFront(n int) {
	clear(f.buf[f.head : f.head+n])
	f.head += n
	if f.head == len(f.buf) {
		f.buf, f.head = f.buf[:0], 0
	}
}

// items returns the live items (valid until the next change).
func (f *fifo[T]) items() []T { return f.buf[f.head:] }
