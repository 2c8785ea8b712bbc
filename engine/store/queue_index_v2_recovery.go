package store

import (
	"encoding/binary"
	"fmt"

	"warren/engine/store/format"
)

// Models the recovery half of rabbit_classic_queue_index_v2: recover/7,
// recover_segments/5, recover_segment/10 and queue_index_walker/1.

// DroppedCounts are the four counts the v2 index logs after an unclean
// shutdown ("dropped P1/P2/P3 persistent messages and T transient").
type DroppedCounts struct {
	PersistentPerVHost int // location 1 whose id the shared store lacks
	PersistentPerQueue int // location 2 whose .qs entry is missing or bad
	PersistentOther    int // location 0, or a malformed entry
	Transient          int // any transient entry
}

// RecoveredMsg is an unacked message found on disk by a queue recovery.
type RecoveredMsg struct {
	Seq        uint64
	ID         format.MsgID // zero for a v2 .qs entry (the id is in the term)
	Placement  Placement
	Location   format.Location // v2 only
	Persistent bool
	Size       uint32 // body size
	Expiry     uint64
	// Term is the embedded message of a v1 record; nil otherwise.
	Term []byte
}

// containsFunc says whether the shared persistent store holds an id.
type containsFunc func(format.MsgID) bool

// recoverDirty scans every .qi file as recover_segments does after an
// unclean shutdown: files with a bad header go with their .qs; entries
// that cannot be recovered are marked acked on disk with a single 0 byte at
// their status offset; segments left without entries are deleted.
func (x *indexV2) recoverDirty(qs *storeV2, contains containsFunc) ([]RecoveredMsg, DroppedCounts, error) {
	var out []RecoveredMsg
	var dropped DroppedCounts
	segs, err := x.d.segmentFiles(x.dir, format.ExtIndexV2)
	if err != nil {
		return nil, dropped, err
	}
	for _, seg := range segs {
		name := x.segFile(seg)
		data, _, err := x.d.readFile(name)
		if err != nil {
			return nil, dropped, err
		}
		if !validHeader(data, format.MagicIndex) {
			if err := x.d.remove(name); err != nil {
				return nil, dropped, err
			}
			if err := qs.deleteSegments([]uint64{seg}); err != nil {
				return nil, dropped, err
			}
			continue
		}
		kept, acks := x.recoverSegment(seg, data[format.HeaderSize:], qs, contains, &dropped)
		if len(kept) == 0 {
			if err := x.d.remove(name); err != nil {
				return nil, dropped, err
			}
			if err := qs.deleteSegments([]uint64{seg}); err != nil {
				return nil, dropped, err
			}
			continue
		}
		if err := x.markAcked(name, acks); err != nil {
			return nil, dropped, err
		}
		x.segments[seg] = len(kept)
		out = append(out, kept...)
	}
	return out, dropped, nil
}

// recoverSegment checks the slots of one segment; it returns the entries
// kept and the status offsets to zero, newest first.
func (x *indexV2) recoverSegment(seg uint64, body []byte, qs *storeV2, contains containsFunc, dropped *DroppedCounts) ([]RecoveredMsg, []int64) {
	var kept []RecoveredMsg
	var acks []int64
	for i := uint64(0); i < x.n && len(body) >= format.EntrySize; i++ {
		slot := body[:format.EntrySize]
		body = body[format.EntrySize:]
		if slot[0] == 0 {
			continue
		}
		seq := seg*x.n + i
		off := format.HeaderSize + int64(i)*format.EntrySize
		if slot[0] == 1 && slot[1]&1 == 0 {
			dropped.Transient++
			acks = append([]int64{off}, acks...)
			continue
		}
		e, ok := parseSlot(slot)
		if !ok || e.Status != 1 {
			dropped.PersistentOther++
			acks = append([]int64{off}, acks...)
			continue
		}
		m := RecoveredMsg{Seq: seq, Location: e.Location, Persistent: true, Size: e.Size, Expiry: e.Expiry}
		switch e.Location.Kind {
		case format.LocMsgStore:
			if contains == nil || !contains(e.Location.MsgID) {
				dropped.PersistentPerVHost++
				acks = append([]int64{off}, acks...)
				continue
			}
			m.ID, m.Placement = e.Location.MsgID, InSharedStore
		case format.LocQueueStore:
			if _, err := qs.readEntry(seq, e.Location); err != nil {
				dropped.PersistentPerQueue++
				acks = append([]int64{off}, acks...)
				continue
			}
			m.Placement = InQueueStore
		default:
			dropped.PersistentOther++
			acks = append([]int64{off}, acks...)
			continue
		}
		kept = append(kept, m)
	}
	return kept, acks
}

// markAcked writes a single 0 byte at each status offset.
func (x *indexV2) markAcked(name string, offsets []int64) error {
	if len(offsets) == 0 {
		return nil
	}
	f, err := x.d.open(name)
	if err != nil {
		return err
	}
	defer f.close()
	for _, off := range offsets {
		if _, err := f.writeAt([]byte{0}, off); err != nil {
			return err
		}
	}
	return nil
}

// recoverClean takes the segment counts from the recovery terms and reads
// the present entries without checking them.
func (x *indexV2) recoverClean(counts map[uint64]int) ([]RecoveredMsg, error) {
	for seg, c := range counts {
		x.segments[seg] = c
	}
	var out []RecoveredMsg
	for _, seg := range sortedKeys(x.segments) {
		name := x.segFile(seg)
		data, ok, err := x.d.readFile(name)
		if err != nil {
			return nil, err
		}
		if !ok || !validHeader(data, format.MagicIndex) {
			continue
		}
		body := data[format.HeaderSize:]
		for i := uint64(0); i < x.n && len(body) >= format.EntrySize; i++ {
			e, ok := parseSlot(body[:format.EntrySize])
			body = body[format.EntrySize:]
			if !ok || e.Status != 1 {
				continue
			}
			m := RecoveredMsg{Seq: seg*x.n + i, Location: e.Location, Persistent: e.Persistent(), Size: e.Size, Expiry: e.Expiry}
			switch e.Location.Kind {
			case format.LocMsgStore:
				m.ID, m.Placement = e.Location.MsgID, InSharedStore
			case format.LocQueueStore:
				m.Placement = InQueueStore
			}
			out = append(out, m)
		}
	}
	return out, nil
}

// validHeader checks the magic and version of a .qi or .qs header.
func validHeader(data []byte, magic uint32) bool {
	return len(data) >= format.HeaderSize && binary.BigEndian.Uint32(data) == magic && data[4] == format.SegmentVersion
}

// walkV2 adds to counts one reference for every unacked persistent entry
// with location 1 in the .qi files of dir, as queue_index_walker does.
func walkV2(d *disk, dir string, counts map[format.MsgID]int) error {
	segs, err := d.segmentFiles(dir, format.ExtIndexV2)
	if err != nil {
		return err
	}
	for _, seg := range segs {
		data, _, err := d.readFile(dir + "/" + segmentName(seg, format.ExtIndexV2))
		if err != nil {
			return fmt.Errorf("walking %s: %w", dir, err)
		}
		if !validHeader(data, format.MagicIndex) {
			continue
		}
		n := binary.BigEndian.Uint64(data[13:]) - binary.BigEndian.Uint64(data[5:])
		body := data[format.HeaderSize:]
		for i := uint64(0); i < n && len(body) >= format.EntrySize; i++ {
			s := body[:format.EntrySize]
			body = body[format.EntrySize:]
			if s[0] == 1 && s[1]&1 == 1 && s[3] == 1 {
				var id format.MsgID
				copy(id[:], s[4:20])
				counts[id]++
			}
		}
	}
	return nil
}
