package store

import "sync"

// scratch lends buffers for bytes that are written to a file at once and
// not kept (the file copies them): a journal's buffered appends, a
// segment's entries. Paging a backlog writes megabytes of them a second,
// which, allocated anew each time, bring the next collection sooner.
var scratch sync.Pool

// borrow is an empty buffer of at least n bytes' room.
func borrow(n int) *[]byte {
	if p, ok := scratch.Get().(*[]byte); ok && cap(*p) >= n {
		*p = (*p)[:0]
		return p
	}
	b := make([]byte, 0, n)
	return &b
}

// giveBack returns a buffer borrow lent, holding b (its bytes, grown or
// not), for another to use.
func giveBack(p *[]byte, b []byte) {
	*p = b[:0]
	scratch.Put(p)
}
