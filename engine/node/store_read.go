package node

// Reading a message back: a queue that delivers a message it no longer
// holds in memory reads it from disk, as rabbit_variable_queue's
// read_msg does in 3.10, one message at a time. A body in a shared store
// is read with rabbit_msg_store:read, the queue's own read of the .rdq
// file through a file_handle_cache handle with a 1 MiB read buffer; the
// store's cache of its current file serves a message still there without
// touching the file. Models rabbit_msg_store's client_read.

import (
	"strconv"
)

// StoreRead is one read of a shared store's file by a queue.
type StoreRead struct {
	Queue string
	Path  string // the file, relative to the vhost's directory
	Off   int64  // where the entry starts
	Size  int64  // the entry's bytes on disk
}

// String prints the read as show reads does:
// `read msg_store_transient/0.rdq 5189@0 queue=work`.
func (r StoreRead) String() string {
	return "read " + r.Path + " " + strconv.FormatInt(r.Size, 10) + "@" + strconv.FormatInt(r.Off, 10) + " queue=" + r.Queue
}

// maxReads is how many reads the node keeps for show reads.
const maxReads = 16

// readBack reads e's body back from the shared store that holds it, when
// the queue paged it out: the read the delivery of a paged message makes.
// A body in the store's cache, or in the queue's own files, is not logged;
// a read that fails (the GC holds the file) leaves the message as it is.
func (q *queue) readBack(e *entry) {
	d := q.disk
	if d == nil || !e.paged || !e.stored {
		return
	}
	lvl := q.ready.levelOf(e.msg)
	if lvl < 0 || lvl >= len(d.levels) {
		return
	}
	files := d.levels[lvl]
	p, off, size, cached, ok := files.SharedEntry(e.dseq)
	if !ok || cached {
		return
	}
	if _, _, err := files.Read(e.dseq); err != nil {
		return
	}
	n := q.n
	n.Reads = append(n.Reads, StoreRead{Queue: q.rec.Name, Path: relPath(p), Off: off, Size: size})
	if len(n.Reads) > maxReads {
		n.Reads = n.Reads[len(n.Reads)-maxReads:]
	}
}

// ReadLines prints the latest reads of the shared stores' files, oldest
// first: what show reads prints.
func (n *Node) ReadLines() []string {
	out := make([]string, len(n.Reads))
	for i, r := range n.Reads {
		out[i] = r.String()
	}
	return out
}
