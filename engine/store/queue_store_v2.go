package store

import (
	"encoding/binary"
	"fmt"
	"path"

	"warren/engine/clone"
	"warren/engine/store/format"
)

// Models rabbit_classic_queue_store_v2 as 3.10.8 runs it: one write handle
// opened with {delayed_write, 512000, 10000}, and a read cache.

// storeV2 is the per-queue store of one v2 queue.
type storeV2 struct {
	d        *disk
	dir      string
	n        uint64 // seq ids per segment, as the index
	bufLimit int
	delay    int64
	cacheMax int
	checkCRC bool

	// The write handle: its segment (writing false when none is open), the
	// offset of the next entry, and the delayed_write buffer with the time
	// its oldest byte was buffered.
	writing  bool
	writeSeg uint64
	writeOff uint64
	buf      []byte
	bufSince int64
	now      int64

	cache     map[uint64]clone.Shared // seq -> stored message term, shared by a checkpoint's copy
	cacheSize int
}

func newStoreV2(d *disk, dir string, p Profile) *storeV2 {
	return &storeV2{
		d: d, dir: dir, n: uint64(p.V2SegmentEntryCount),
		bufLimit: p.QueueStoreBufferSize, delay: p.QueueStoreBufferDelay,
		cacheMax: p.QueueStoreCacheSize, checkCRC: p.CheckCRC,
		cache: map[uint64]clone.Shared{},
	}
}

func (s *storeV2) segFile(seg uint64) string {
	return path.Join(s.dir, segmentName(seg, format.ExtQueueStore))
}

// write appends term for seq to its segment's .qs, through the delayed
// write buffer, and returns where the index must point. The cache keeps
// term's memory, not a copy (see MsgStore.ClientWrite).
func (s *storeV2) write(seq uint64, term []byte) (format.Location, error) {
	seg := seq / s.n
	if !s.writing || s.writeSeg != seg {
		if err := s.openWrite(seg); err != nil {
			return format.Location{}, err
		}
	}
	off := s.writeOff
	s.bufferWrite(format.AppendQSEntry(nil, term, s.checkCRC))
	s.writeOff += uint64(format.QSEntryHeaderSize + len(term))
	if s.cacheSize+len(term) <= s.cacheMax {
		s.cache[seq] = clone.SharedOf(term)
		s.cacheSize += len(term)
	}
	if len(s.buf) >= s.bufLimit {
		if err := s.flushWrite(); err != nil {
			return format.Location{}, err
		}
	}
	return format.Location{Kind: format.LocQueueStore, Offset: off, Size: uint32(len(term))}, nil
}

// openWrite closes the current write handle (writing its buffer out) and
// opens seg's file in append mode, creating it empty when needed; the
// header of a new file goes into the buffer like any write.
func (s *storeV2) openWrite(seg uint64) error {
	if err := s.closeWrite(); err != nil {
		return err
	}
	f, _, err := s.d.openOrCreate(s.segFile(seg))
	if err != nil {
		return err
	}
	size, err := f.size()
	f.close()
	if err != nil {
		return err
	}
	s.writing, s.writeSeg, s.writeOff = true, seg, uint64(size)
	if size == 0 {
		s.bufferWrite(segHeader(format.MagicQueueStore, seg, s.n))
		s.writeOff = format.HeaderSize
	}
	return nil
}

func (s *storeV2) bufferWrite(b []byte) {
	if len(s.buf) == 0 {
		s.bufSince = s.now
	}
	s.buf = append(s.buf, b...)
}

// flushWrite hands the delayed write buffer to the OS in one write.
func (s *storeV2) flushWrite() error {
	if !s.writing || len(s.buf) == 0 {
		return nil
	}
	f, err := s.d.open(s.segFile(s.writeSeg))
	if err != nil {
		return err
	}
	defer f.close()
	if _, err := f.write(s.buf); err != nil {
		return err
	}
	s.buf = s.buf[:0]
	return nil
}

// closeWrite writes the buffer out and forgets the write handle.
func (s *storeV2) closeWrite() error {
	if err := s.flushWrite(); err != nil {
		return err
	}
	s.writing, s.buf = false, nil
	return nil
}

// tick advances the store's clock; the delayed write buffer goes out once
// its oldest byte is delay milliseconds old.
func (s *storeV2) tick(now int64) error {
	s.now = now
	if len(s.buf) > 0 && now >= s.bufSince+s.delay {
		return s.flushWrite()
	}
	return nil
}

// deadline returns when the buffer must be written if nothing else writes
// it first.
func (s *storeV2) deadline() (int64, bool) {
	if len(s.buf) == 0 {
		return 0, false
	}
	return s.bufSince + s.delay, true
}

// sync writes the buffer to the OS (no fsync): sync/1 before confirms.
func (s *storeV2) sync() error { return s.flushWrite() }

// terminate writes the buffer and fsyncs the file being written.
func (s *storeV2) terminate() error {
	if !s.writing {
		return nil
	}
	if err := s.flushWrite(); err != nil {
		return err
	}
	f, err := s.d.open(s.segFile(s.writeSeg))
	if err != nil {
		return err
	}
	err = f.sync()
	f.close()
	s.writing = false
	return err
}

// read returns the stored term of seq at loc, from the cache or the file,
// checking the entry's size and CRC.
func (s *storeV2) read(seq uint64, loc format.Location) ([]byte, error) {
	if t, ok := s.cache[seq]; ok {
		return []byte(t), nil
	}
	term, err := s.readEntry(seq, loc)
	if err != nil {
		return nil, err
	}
	return term, nil
}

// readEntry reads and checks the entry at loc, writing the delayed buffer
// first when it belongs to the same segment.
func (s *storeV2) readEntry(seq uint64, loc format.Location) ([]byte, error) {
	seg := seq / s.n
	name := s.segFile(seg)
	if s.writing && s.writeSeg == seg {
		if err := s.flushWrite(); err != nil {
			return nil, err
		}
	}
	f, err := s.d.open(name)
	if err != nil {
		return nil, err
	}
	defer f.close()
	var h [format.HeaderSize]byte
	if n, _ := f.readAt(h[:], 0); n < len(h) || binary.BigEndian.Uint32(h[:]) != format.MagicQueueStore || h[4] != format.SegmentVersion {
		return nil, fmt.Errorf("%s: offset 0: bad header", name)
	}
	size, err := f.size()
	if err != nil {
		return nil, err
	}
	if int64(loc.Offset)+format.QSEntryHeaderSize+int64(loc.Size) > size || loc.Offset < format.HeaderSize {
		return nil, fmt.Errorf("%s: offset %d: entry of seq %d (%d bytes) is not inside the file (%d bytes)", name, loc.Offset, seq, loc.Size, size)
	}
	buf := make([]byte, format.QSEntryHeaderSize+int(loc.Size))
	n, err := f.readAt(buf, int64(loc.Offset))
	if n < len(buf) {
		return nil, fmt.Errorf("%s: offset %d: entry of seq %d ends past the end of the file", name, loc.Offset, seq)
	}
	if err != nil {
		return nil, err
	}
	if binary.BigEndian.Uint32(buf) != loc.Size {
		return nil, fmt.Errorf("%s: offset %d: entry of seq %d has size %d, the index says %d", name, loc.Offset, seq, binary.BigEndian.Uint32(buf), loc.Size)
	}
	term := buf[format.QSEntryHeaderSize:]
	if buf[4]&1 == 1 && s.checkCRC && format.CRC16(term) != binary.BigEndian.Uint16(buf[5:]) {
		return nil, fmt.Errorf("%s: offset %d: CRC of seq %d does not match", name, loc.Offset, seq)
	}
	return term, nil
}

// remove forgets seq's cached term; the data stays in the file until the
// whole segment is deleted.
func (s *storeV2) remove(seq uint64) {
	if t, ok := s.cache[seq]; ok {
		delete(s.cache, seq)
		s.cacheSize -= len(t)
	}
}

// deleteSegments deletes the .qs files of segments whose index segments
// were deleted, writing a pending buffer out first as closing the handle
// does, and drops cached terms up to the highest deleted segment.
func (s *storeV2) deleteSegments(segs []uint64) error {
	if len(segs) == 0 {
		return nil
	}
	highest := uint64(0)
	for _, seg := range segs {
		if s.writing && s.writeSeg == seg {
			if err := s.closeWrite(); err != nil {
				return err
			}
		}
		if seg > highest {
			highest = seg
		}
	}
	for _, seg := range segs {
		if err := s.d.removeIfExists(s.segFile(seg)); err != nil {
			return err
		}
	}
	// NB: RabbitMQ drops seq ids up to and including (1+highest)*n, one past
	// the deleted segments; kept as is.
	limit := (1 + highest) * s.n
	for seq, t := range s.cache {
		if seq <= limit {
			delete(s.cache, seq)
			s.cacheSize -= len(t)
		}
	}
	return nil
}
