package format

import (
	"encoding/binary"
	"fmt"
)

// Models rabbit_classic_queue_index_v2 (segment files, build_entry/1,
// parse_entries/4, recover_segment/10).

// EntrySize is the size of one .qi slot.
const EntrySize = 32

// LocationKind says where the body of an index entry lives.
type LocationKind uint8

// Location kinds, the first byte of the 17-byte location field.
const (
	LocMemory     LocationKind = 0 // body only in memory; dropped on recovery
	LocMsgStore   LocationKind = 1 // body in the vhost's shared message store
	LocQueueStore LocationKind = 2 // body in the queue's own .qs file
)

// String names the location kind.
func (k LocationKind) String() string {
	switch k {
	case LocMemory:
		return "memory"
	case LocMsgStore:
		return "msg_store"
	case LocQueueStore:
		return "queue_store"
	}
	return fmt.Sprintf("location(%d)", uint8(k))
}

// Location is the 17-byte location field of an index entry.
type Location struct {
	Kind   LocationKind
	MsgID  MsgID  // LocMsgStore: the id in the shared store
	Offset uint64 // LocQueueStore: offset of the .qs entry header
	Size   uint32 // LocQueueStore: size of the .qs payload, without its 8-byte header
}

// IndexEntry is the content of one 32-byte .qi slot.
type IndexEntry struct {
	Status   uint8 // 1 = entry present; 0 = no entry, or acked
	Flags    uint8 // bit 0 = persistent
	Location Location
	Size     uint32 // body (payload) size in bytes
	Expiry   uint64 // absolute expiry in microseconds since the epoch; 0 = none
}

// Persistent reports flag bit 0.
func (e IndexEntry) Persistent() bool { return e.Flags&1 == 1 }

// Encode returns the 32 slot bytes, as build_entry writes them.
func (e IndexEntry) Encode() [EntrySize]byte {
	var b [EntrySize]byte
	b[0] = e.Status
	b[1] = e.Flags
	b[3] = byte(e.Location.Kind)
	switch e.Location.Kind {
	case LocMsgStore:
		copy(b[4:20], e.Location.MsgID[:])
	case LocQueueStore:
		binary.BigEndian.PutUint64(b[4:], e.Location.Offset)
		binary.BigEndian.PutUint32(b[12:], e.Location.Size)
	}
	binary.BigEndian.PutUint32(b[20:], e.Size)
	binary.BigEndian.PutUint64(b[24:], e.Expiry)
	return b
}

// NewIndexEntry returns a present entry (status 1) as the queue writes it on
// publish.
func NewIndexEntry(persistent bool, loc Location, size uint32, expiry uint64) IndexEntry {
	e := IndexEntry{Status: 1, Location: loc, Size: size, Expiry: expiry}
	if persistent {
		e.Flags = 1
	}
	return e
}

// SlotOffset returns the byte offset of the slot of seq in its segment file.
func SlotOffset(seq uint64) int64 {
	return HeaderSize + int64(seq%SegmentEntryCount)*EntrySize
}

// IndexSlot is one slot found in a .qi file.
type IndexSlot struct {
	SeqID  uint64
	Offset int64 // byte offset of the slot in the file
	Zero   bool  // all 32 bytes are zero: never written, or acked by a flush
	Entry  IndexEntry
}

// Present reports whether the slot holds an unacked entry.
func (s IndexSlot) Present() bool { return s.Entry.Status == 1 }

// IndexSegment is a decoded .qi file.
type IndexSegment struct {
	// Header is valid when HasHeader is true; a 0-byte file has none.
	Header    SegmentHeader
	HasHeader bool
	Slots     []IndexSlot // one per 32-byte slot in the file, in seq order
}

// Encode returns the file bytes: header then every slot.
func (s *IndexSegment) Encode() []byte {
	if !s.HasHeader {
		return nil
	}
	out := s.Header.Encode()
	for _, sl := range s.Slots {
		b := sl.Entry.Encode()
		out = append(out, b[:]...)
	}
	return out
}

// DecodeIndexSegment decodes a .qi file. A 0-byte file decodes to a segment
// without header. On error the returned segment holds every slot before the
// failing offset.
func DecodeIndexSegment(file string, data []byte) (*IndexSegment, error) {
	seg := &IndexSegment{}
	if len(data) == 0 {
		return seg, nil
	}
	h, err := decodeSegmentHeader(file, data, MagicIndex)
	if err != nil {
		return seg, err
	}
	if err := checkSegmentNumber(file, ExtIndexV2, h); err != nil {
		return seg, err
	}
	seg.Header, seg.HasHeader = h, true
	body := data[HeaderSize:]
	for i := 0; len(body) > 0; i++ {
		off := int64(HeaderSize + i*EntrySize)
		if uint64(i) >= h.EntryCount() {
			return seg, decodeErr(file, off, ErrMalformed, "slot %d is beyond the segment's %d entries", i, h.EntryCount())
		}
		if len(body) < EntrySize {
			return seg, decodeErr(file, off, ErrTruncated, "slot of seq %d is %d bytes, want %d", h.FirstSeq+uint64(i), len(body), EntrySize)
		}
		slot, err := decodeSlot(file, off, h.FirstSeq+uint64(i), body[:EntrySize])
		if err != nil {
			return seg, err
		}
		seg.Slots = append(seg.Slots, slot)
		body = body[EntrySize:]
	}
	return seg, nil
}

// decodeSlot parses one slot. A present entry must be well formed, as
// RabbitMQ's parser demands; a slot with status 0 is read leniently, since
// RabbitMQ skips it (recovery acks an entry by zeroing only its status byte).
func decodeSlot(file string, off int64, seq uint64, b []byte) (IndexSlot, error) {
	slot := IndexSlot{SeqID: seq, Offset: off, Zero: allZero(b)}
	e := &slot.Entry
	e.Status, e.Flags = b[0], b[1]
	e.Size = binary.BigEndian.Uint32(b[20:])
	e.Expiry = binary.BigEndian.Uint64(b[24:])
	loc, locErr := decodeLocation(b[3:20])
	e.Location = loc
	switch e.Status {
	case 0:
		return slot, nil
	case 1:
	default:
		return slot, decodeErr(file, off, ErrMalformed, "seq %d: status %d, want 0 or 1", seq, e.Status)
	}
	if e.Flags&^1 != 0 {
		return slot, decodeErr(file, off+1, ErrMalformed, "seq %d: flags 0x%02x have unknown bits", seq, e.Flags)
	}
	if b[2] != 0 {
		return slot, decodeErr(file, off+2, ErrMalformed, "seq %d: reserved byte is %d, want 0", seq, b[2])
	}
	if locErr != "" {
		return slot, decodeErr(file, off+3, ErrMalformed, "seq %d: %s", seq, locErr)
	}
	return slot, nil
}

// decodeLocation parses the 17-byte location field.
func decodeLocation(b []byte) (Location, string) {
	loc := Location{Kind: LocationKind(b[0])}
	switch loc.Kind {
	case LocMemory:
		if !allZero(b[1:]) {
			return loc, "memory location with non-zero bytes"
		}
	case LocMsgStore:
		copy(loc.MsgID[:], b[1:17])
	case LocQueueStore:
		loc.Offset = binary.BigEndian.Uint64(b[1:])
		loc.Size = binary.BigEndian.Uint32(b[9:])
		if !allZero(b[13:17]) {
			return loc, "queue store location with non-zero padding"
		}
	default:
		return loc, fmt.Sprintf("unknown location kind %d", b[0])
	}
	return loc, ""
}
