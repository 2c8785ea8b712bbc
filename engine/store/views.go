package store

import (
	"path"

	"warren/engine/store/format"
)

// CurrentFile is the number of the file the store writes to now: N of
// N.rdq (rabbit_msg_store's current_file).
func (s *MsgStore) CurrentFile() uint64 { return s.current }

// QueueStoreLive lists the .qs offsets, in segment seg of the queue whose
// directory is named dir, of the messages the queue has not acked: what
// its index points at, written to the .qi yet or not.
func (v *VHost) QueueStoreLive(dir string, seg uint64) map[uint64]bool {
	out := map[uint64]bool{}
	for _, q := range v.queues {
		if path.Base(q.dir) != dir || q.x2 == nil {
			continue
		}
		for seq, m := range q.live {
			if m.place == InQueueStore && m.loc.Kind == format.LocQueueStore && seq/q.x2.n == seg {
				out[m.loc.Offset] = true
			}
		}
	}
	return out
}

// AckedUnwritten lists, for the queue whose directory is dir and a v2
// index segment seg, the slots of that segment's .qi that the queue has
// acked but not yet written: its file still reads them as present until
// the index flushes its buffered acks (when half a segment of them wait,
// or when the queue goes idle). Nil for a v1 queue or none.
func (v *VHost) AckedUnwritten(dir string, seg uint64) map[int]bool {
	var out map[int]bool
	for _, q := range v.queues {
		if path.Base(q.dir) != dir || q.x2 == nil {
			continue
		}
		for seq, it := range q.x2.buffer {
			if it.ack && seq/q.x2.n == seg {
				if out == nil {
					out = map[int]bool{}
				}
				out[int(seq%q.x2.n)] = true
			}
		}
	}
	return out
}

// FileSizeLimit is the size at which the store rolls to a new file
// (msg_store_file_size_limit).
func (s *MsgStore) FileSizeLimit() int64 { return s.p.FileSizeLimit }

// CompactsInPlace says whether the store compacts each file in place
// (3.13) rather than merging neighbours (3.10).
func (s *MsgStore) CompactsInPlace() bool { return s.p.inPlaceCompaction() }
