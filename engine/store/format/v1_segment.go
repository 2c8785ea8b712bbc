package format

import (
	"encoding/binary"
	"fmt"
)

// Models the segment files of rabbit_queue_index (entry_to_segment/3,
// load_segment/2, parse_segment_entries/3).

// MaxRelSeq is the largest relative seq a 14-bit segment field holds.
const MaxRelSeq = 1<<14 - 1

// IdxKind is the kind of a v1 segment record.
type IdxKind uint8

// Segment record kinds. Deliver and ack records are written the same way (bits
// 01 then the rel seq); the first for a rel seq is the deliver, the second the
// ack.
const (
	IdxPublish IdxKind = iota
	IdxDeliver
	IdxAck
)

// String names the kind.
func (k IdxKind) String() string {
	switch k {
	case IdxPublish:
		return "publish"
	case IdxDeliver:
		return "deliver"
	case IdxAck:
		return "ack"
	}
	return fmt.Sprintf("idx(%d)", uint8(k))
}

// IdxRecord is one record of a v1 .idx segment file.
type IdxRecord struct {
	Offset     int64 // byte offset in the file
	Kind       IdxKind
	Persistent bool // publish records only
	RelSeq     uint16
	Pub        PubRecord // publish records only
}

// AppendIdxRecord appends the encoding of r to dst.
func AppendIdxRecord(dst []byte, r IdxRecord) ([]byte, error) {
	if r.RelSeq > MaxRelSeq {
		return dst, fmt.Errorf("segment record: rel seq %d does not fit in 14 bits", r.RelSeq)
	}
	switch r.Kind {
	case IdxPublish:
		w := uint16(1<<15) | r.RelSeq
		if r.Persistent {
			w |= 1 << 14
		}
		dst = binary.BigEndian.AppendUint16(dst, w)
		return r.Pub.appendTo(dst), nil
	case IdxDeliver, IdxAck:
		return binary.BigEndian.AppendUint16(dst, 1<<14|r.RelSeq), nil
	}
	return dst, fmt.Errorf("segment record: unknown kind %d", r.Kind)
}

// IdxSegment is a decoded v1 .idx file.
type IdxSegment struct {
	Records []IdxRecord
}

// DecodeIdxSegment decodes a v1 .idx file. A deliver-or-ack record is labelled
// by how many such records came before it for the same rel seq. On error the
// returned segment holds every record before the failing offset.
func DecodeIdxSegment(file string, data []byte) (*IdxSegment, error) {
	s := &IdxSegment{}
	if len(data) > 0 && allZero(data) {
		return s, decodeErr(file, 0, ErrMalformed, "file holds only zero bytes (RabbitMQ deletes such a segment)")
	}
	seen := map[uint16]int{}
	off := int64(0)
	for off < int64(len(data)) {
		rest := data[off:]
		if len(rest) < 2 {
			return s, decodeErr(file, off, ErrTruncated, "record prefix is 1 byte, want 2")
		}
		w := binary.BigEndian.Uint16(rest)
		r := IdxRecord{Offset: off, RelSeq: w & MaxRelSeq}
		switch {
		case w&(1<<15) != 0:
			r.Kind = IdxPublish
			r.Persistent = w&(1<<14) != 0
			pub, n, ok := decodePubRecord(rest[2:])
			if !ok {
				return s, decodeErr(file, off, ErrTruncated, "publish record of rel seq %d runs past the end of the file (%d bytes left)", r.RelSeq, len(rest))
			}
			r.Pub = pub
			off += 2 + int64(n)
		case w&(1<<14) != 0:
			switch seen[r.RelSeq] {
			case 0:
				r.Kind = IdxDeliver
			case 1:
				r.Kind = IdxAck
			default:
				return s, decodeErr(file, off, ErrMalformed, "third deliver/ack record for rel seq %d", r.RelSeq)
			}
			seen[r.RelSeq]++
			off += 2
		default:
			return s, decodeErr(file, off, ErrMalformed, "record prefix 00 is neither publish (1) nor deliver/ack (01)")
		}
		s.Records = append(s.Records, r)
	}
	return s, nil
}
