package store

import (
	"fmt"
	"path"
	"sort"

	"warren/engine/store/format"
)

// Models rabbit_classic_queue_index_v2.

// v2Item is one write buffer or cache value: an entry, or an ack.
type v2Item struct {
	ack   bool
	entry format.IndexEntry
}

// flushKind says what a write buffer flush writes.
type flushKind uint8

const (
	flushFull    flushKind = iota // everything; the buffer becomes the cache
	flushUpdates                  // only the acks
)

// indexV2 is the v2 index of one queue: a write buffer of entries and acks,
// the cache the buffer becomes after a full flush, and the number of
// unacked entries of each segment file.
type indexV2 struct {
	d   *disk
	dir string
	n   uint64 // seq ids per segment

	buffer  map[uint64]v2Item
	updates int // acks in buffer
	cache   map[uint64]v2Item
	// segments counts the unacked entries of each segment file; a segment
	// counts 1 when its file is created with its first entry, and its .qi
	// (and .qs) are deleted when the count drops to 0.
	segments map[uint64]int
}

func newIndexV2(d *disk, dir string, n int) *indexV2 {
	return &indexV2{
		d: d, dir: dir, n: uint64(n),
		buffer:   map[uint64]v2Item{},
		cache:    map[uint64]v2Item{},
		segments: map[uint64]int{},
	}
}

func (x *indexV2) segFile(seg uint64) string {
	return path.Join(x.dir, segmentName(seg, format.ExtIndexV2))
}

func (x *indexV2) slotOffset(seq uint64) int64 {
	return format.HeaderSize + int64(seq%x.n)*format.EntrySize
}

// header returns the 64-byte header of segment seg with the given magic.
func segHeader(magic uint32, seg, n uint64) []byte {
	h := format.SegmentHeader{Magic: magic, Version: format.SegmentVersion, FirstSeq: seg * n, EndSeq: seg*n + n}
	return h.Encode()
}

// publish adds an entry to the write buffer, creating its segment file
// (header only) when the segment is new, then flushes if the buffer is
// full.
func (x *indexV2) publish(seq uint64, e format.IndexEntry) error {
	if it, ok := x.buffer[seq]; ok && !it.ack {
		return fmt.Errorf("%s: seq %d published twice", x.segFile(seq/x.n), seq)
	}
	x.buffer[seq] = v2Item{entry: e}
	seg := seq / x.n
	if count, ok := x.segments[seg]; ok {
		x.segments[seg] = count + 1
	} else if err := x.newSegment(seg); err != nil {
		return err
	}
	return x.maybeFlush()
}

// newSegment creates the segment file and writes its header at once.
func (x *indexV2) newSegment(seg uint64) error {
	f, _, err := x.d.openOrCreate(x.segFile(seg))
	if err != nil {
		return err
	}
	defer f.close()
	if _, err := f.writeAt(segHeader(format.MagicIndex, seg, x.n), 0); err != nil {
		return err
	}
	x.segments[seg] = 1
	return nil
}

// maybeFlush writes only the acks once half a segment of them is buffered,
// and everything once the buffer holds a segment's worth of items.
func (x *indexV2) maybeFlush() error {
	switch {
	case uint64(x.updates) >= x.n/2:
		return x.flush(flushUpdates)
	case uint64(len(x.buffer)) >= x.n:
		return x.flush(flushFull)
	}
	return nil
}

// flush writes the buffer: for each segment, one positional write per run
// of contiguous slots; an ack writes 32 zero bytes.
func (x *indexV2) flush(kind flushKind) error {
	writes := map[uint64][]uint64{}
	for seq, it := range x.buffer {
		if kind == flushUpdates && !it.ack {
			continue
		}
		writes[seq/x.n] = append(writes[seq/x.n], seq)
	}
	segs := make([]uint64, 0, len(writes))
	for s := range writes {
		segs = append(segs, s)
	}
	sort.Slice(segs, func(i, j int) bool { return segs[i] < segs[j] })
	for _, seg := range segs {
		seqs := writes[seg]
		sort.Slice(seqs, func(i, j int) bool { return seqs[i] < seqs[j] })
		if err := x.writeRuns(seg, seqs); err != nil {
			return err
		}
	}
	old := x.buffer
	if kind == flushFull {
		x.cache = old
		x.buffer = map[uint64]v2Item{}
	} else {
		cache := map[uint64]v2Item{}
		for seq, it := range x.cache {
			if !it.ack {
				cache[seq] = it
			}
		}
		x.buffer = map[uint64]v2Item{}
		for seq, it := range old {
			if it.ack {
				cache[seq] = it
			} else {
				x.buffer[seq] = it
			}
		}
		x.cache = cache
	}
	x.updates = 0
	return nil
}

// writeRuns writes the buffered items of sorted seqs of one segment.
func (x *indexV2) writeRuns(seg uint64, seqs []uint64) error {
	f, _, err := x.d.openOrCreate(x.segFile(seg))
	if err != nil {
		return err
	}
	defer f.close()
	var run []byte
	start := int64(-1)
	for i, seq := range seqs {
		it := x.buffer[seq]
		var slot [format.EntrySize]byte
		if !it.ack {
			slot = it.entry.Encode()
		}
		off := x.slotOffset(seq)
		if start >= 0 && off != start+int64(len(run)) {
			if _, err := f.writeAt(run, start); err != nil {
				return err
			}
			run, start = nil, -1
		}
		if start < 0 {
			start = off
		}
		run = append(run, slot[:]...)
		if i == len(seqs)-1 {
			if _, err := f.writeAt(run, start); err != nil {
				return err
			}
		}
	}
	return nil
}

// ack records acks. It returns the segments whose last unacked entry this
// was: their .qi files are deleted at once, and the caller deletes their .qs.
// An ack of an entry still in the buffer drops the pending write.
func (x *indexV2) ack(seqs []uint64) ([]uint64, error) {
	var deleted []uint64
	for _, seq := range seqs {
		seg := seq / x.n
		count, ok := x.segments[seg]
		if !ok {
			return deleted, fmt.Errorf("%s: ack of seq %d: the segment has no unacked entry", x.segFile(seg), seq)
		}
		if count == 1 {
			delete(x.segments, seg)
			deleted = append(deleted, seg)
		} else {
			x.segments[seg] = count - 1
		}
	}
	for _, seg := range deleted {
		if err := x.d.removeIfExists(x.segFile(seg)); err != nil {
			return deleted, err
		}
	}
	for _, seq := range seqs {
		it, ok := x.buffer[seq]
		switch {
		case ok && !it.ack:
			delete(x.buffer, seq)
		case ok:
			return deleted, fmt.Errorf("%s: seq %d acked twice", x.segFile(seq/x.n), seq)
		default:
			x.buffer[seq] = v2Item{ack: true}
			x.updates++
			delete(x.cache, seq)
		}
	}
	if len(deleted) > 0 {
		gone := map[uint64]bool{}
		for _, s := range deleted {
			gone[s] = true
		}
		x.updates = 0
		for seq, it := range x.buffer {
			if gone[seq/x.n] {
				delete(x.buffer, seq)
			} else if it.ack {
				x.updates++
			}
		}
	}
	return deleted, x.maybeFlush()
}

// read returns the entry of seq if it is present (not acked): from the
// buffer, the cache, else the segment file.
func (x *indexV2) read(seq uint64) (format.IndexEntry, bool, error) {
	for _, m := range []map[uint64]v2Item{x.buffer, x.cache} {
		if it, ok := m[seq]; ok {
			return it.entry, !it.ack, nil
		}
	}
	if _, ok := x.segments[seq/x.n]; !ok {
		return format.IndexEntry{}, false, nil
	}
	f, err := x.d.open(x.segFile(seq / x.n))
	if err != nil {
		return format.IndexEntry{}, false, err
	}
	defer f.close()
	var b [format.EntrySize]byte
	n, err := f.readAt(b[:], x.slotOffset(seq))
	if n < len(b) {
		return format.IndexEntry{}, false, nil
	}
	if err != nil {
		return format.IndexEntry{}, false, err
	}
	e, ok := parseSlot(b[:])
	return e, ok && e.Status == 1, nil
}

// terminate flushes everything and fsyncs every segment file, as the index
// does when the queue stops.
func (x *indexV2) terminate() error {
	if err := x.flush(flushFull); err != nil {
		return err
	}
	for _, seg := range sortedKeys(x.segments) {
		f, err := x.d.open(x.segFile(seg))
		if err != nil {
			return err
		}
		err = f.sync()
		f.close()
		if err != nil {
			return err
		}
	}
	return nil
}

// parseSlot decodes a 32-byte slot as parse_entries does; ok is false when
// the slot is malformed.
func parseSlot(b []byte) (format.IndexEntry, bool) {
	e := format.IndexEntry{Status: b[0], Flags: b[1]}
	if b[1]&^1 != 0 || b[2] != 0 {
		return e, false
	}
	loc, ok := parseLocation(b[3:20])
	e.Location = loc
	e.Size = be32(b[20:])
	e.Expiry = be64(b[24:])
	return e, ok
}

// parseLocation decodes the 17-byte location field.
func parseLocation(b []byte) (format.Location, bool) {
	loc := format.Location{Kind: format.LocationKind(b[0])}
	switch loc.Kind {
	case format.LocMemory:
		return loc, allZero(b[1:])
	case format.LocMsgStore:
		copy(loc.MsgID[:], b[1:17])
		return loc, true
	case format.LocQueueStore:
		loc.Offset = be64(b[1:])
		loc.Size = be32(b[9:])
		return loc, allZero(b[13:17])
	}
	return loc, false
}

func be32(b []byte) uint32 {
	return uint32(b[0])<<24 | uint32(b[1])<<16 | uint32(b[2])<<8 | uint32(b[3])
}

func be64(b []byte) uint64 { return uint64(be32(b))<<32 | uint64(be32(b[4:])) }

func allZero(b []byte) bool {
	for _, c := range b {
		if c != 0 {
			return false
		}
	}
	return true
}

// sortedKeys returns the keys of m in ascending order.
func sortedKeys[V any](m map[uint64]V) []uint64 {
	keys := make([]uint64, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Slice(keys, func(i, j int) bool { return keys[i] < keys[j] })
	return keys
}
