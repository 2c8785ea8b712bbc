package store

import (
	"warren/engine/clone"
	"warren/engine/store/format"
)

// journalBuf holds the v1 journal's appends not yet written, as
// file_handle_cache's write buffer does: full chunks, which never change
// once made, then a tail the next records go to. A chunk is a
// clone.Shared, so a checkpoint's copy of a queue shares the buffer
// rather than copying it: a burst of publishes buffers megabytes of
// embedded bodies until the next sync.
type journalBuf struct {
	chunks []clone.Shared
	full   int // bytes in chunks
	tail   []byte
}

// journalChunk is the size of a journalBuf's chunks.
const journalChunk = 4096

func (b *journalBuf) len() int { return b.full + len(b.tail) }

// add appends the record r; on an error it appends nothing.
func (b *journalBuf) add(r format.JournalRecord) error {
	n := len(b.tail)
	tail, err := format.AppendJournalRecord(b.tail, r)
	if err != nil {
		b.tail = b.tail[:n]
		return err
	}
	b.tail = tail
	for len(b.tail) >= journalChunk {
		b.chunks = append(b.chunks, clone.Shared(b.tail[:journalChunk]))
		b.full += journalChunk
		b.tail = b.tail[:copy(b.tail, b.tail[journalChunk:])]
	}
	return nil
}

// appendTo appends what the buffer holds to dst.
func (b *journalBuf) appendTo(dst []byte) []byte {
	for _, c := range b.chunks {
		dst = append(dst, c...)
	}
	return append(dst, b.tail...)
}

// reset empties the buffer, keeping its tail's array (a copy of the
// buffer copies the chunks' array whole, so it is let go).
func (b *journalBuf) reset() {
	b.chunks, b.full, b.tail = nil, 0, b.tail[:0]
}
