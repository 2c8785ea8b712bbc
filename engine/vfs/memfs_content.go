package vfs

import (
	"strings"

	"warren/engine/clone"
)

// chunkSize is the size of a file's full chunks. A write inside a chunk
// makes it anew, so it bounds what a small write in the middle of a
// file copies; a file of n bytes is n/chunkSize chunk headers to copy.
const chunkSize = 4096

// zeroChunk is a chunk of zeros, shared by every file grown with zeros.
var zeroChunk = clone.Shared(strings.Repeat("\x00", chunkSize))

// content is a file's bytes: full chunks of chunkSize bytes, which never
// change once made, then a tail of fewer than chunkSize bytes that
// appends go to. A chunk is a string (clone.Shared), so what copies a
// content (Sync into the durable content, a power loss back from it,
// clone.Copy for a checkpoint) copies the chunks' headers and shares
// their bytes: a change makes a new chunk, it never writes into one.
//
// NB: the chunks and the tail are each content's own arrays, never
// shared with another content: a write replaces chunks[i] and writes the
// tail in place.
type content struct {
	chunks []clone.Shared
	tail   []byte
}

func (c *content) size() int64 { return int64(len(c.chunks))*chunkSize + int64(len(c.tail)) }

// full is how many bytes the chunks hold.
func (c *content) full() int64 { return int64(len(c.chunks)) * chunkSize }

// copyOf makes c a copy of src, sharing its chunks' bytes; the first
// keep chunks of c are known to be src's already.
func (c *content) copyOf(src *content, keep int) {
	old := len(c.chunks)
	c.chunks = append(c.chunks[:keep], src.chunks[keep:]...)
	if n := len(c.chunks); old > n {
		clear(c.chunks[n:old]) // let dropped chunks go
	}
	c.tail = append(c.tail[:0], src.tail...)
}

// readAt copies the bytes from off into p, as many as there are.
func (c *content) readAt(p []byte, off int64) int {
	n := 0
	for n < len(p) && off < c.size() {
		var k int
		if off < c.full() {
			k = copy(p[n:], c.chunks[off/chunkSize][off%chunkSize:])
		} else {
			k = copy(p[n:], c.tail[off-c.full():])
		}
		n += k
		off += int64(k)
	}
	return n
}

// writeAt writes p at off, first growing the content with zeros to off
// if it is shorter.
func (c *content) writeAt(p []byte, off int64) {
	if size := c.size(); off > size {
		c.appendZeros(off - size)
	}
	// what falls inside the chunks replaces them one by one
	for len(p) > 0 && off < c.full() {
		i, at := off/chunkSize, int(off%chunkSize)
		k := min(len(p), chunkSize-at)
		old := c.chunks[i]
		var b strings.Builder
		b.Grow(chunkSize)
		b.WriteString(string(old[:at]))
		b.Write(p[:k])
		b.WriteString(string(old[at+k:]))
		c.chunks[i] = clone.Shared(b.String())
		p, off = p[k:], off+int64(k)
	}
	if len(p) == 0 {
		return
	}
	// then the tail, in place, and what goes past the end is appended
	at := int(off - c.full())
	k := copy(c.tail[at:], p)
	c.appendBytes(p[k:])
}

// appendBytes adds p at the end.
func (c *content) appendBytes(p []byte) {
	for len(p) > 0 {
		if len(c.tail) == 0 && len(p) >= chunkSize {
			c.chunks = append(c.chunks, clone.Shared(p[:chunkSize]))
			p = p[chunkSize:]
			continue
		}
		k := min(len(p), chunkSize-len(c.tail))
		c.tail = append(c.tail, p[:k]...)
		p = p[k:]
		c.freeze()
	}
}

// appendZeros adds n zero bytes at the end.
func (c *content) appendZeros(n int64) {
	for n > 0 {
		if len(c.tail) == 0 && n >= chunkSize {
			c.chunks = append(c.chunks, zeroChunk)
			n -= chunkSize
			continue
		}
		k := min(n, int64(chunkSize-len(c.tail)))
		c.tail = append(c.tail, zeroChunk[:k]...)
		n -= k
		c.freeze()
	}
}

// freeze makes a full tail a chunk.
func (c *content) freeze() {
	if len(c.tail) == chunkSize {
		c.chunks = append(c.chunks, clone.Shared(c.tail))
		c.tail = c.tail[:0]
	}
}

// truncate sets the size to n, growing with zeros.
func (c *content) truncate(n int64) {
	if size := c.size(); n >= size {
		c.appendZeros(n - size)
		return
	}
	if n >= c.full() {
		c.tail = c.tail[:n-c.full()]
		return
	}
	i := int(n / chunkSize)
	c.tail = append(c.tail[:0], c.chunks[i][:n%chunkSize]...)
	clear(c.chunks[i:])
	c.chunks = c.chunks[:i]
}

// reset empties the content.
func (c *content) reset() { *c = content{} }
