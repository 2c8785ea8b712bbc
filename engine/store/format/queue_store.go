package format

import (
	"encoding/binary"
)

// Models rabbit_classic_queue_store_v2 (write/4, read/3, check_msg_on_disk/3).

// QSEntryHeaderSize is the size of the header before each .qs payload.
const QSEntryHeaderSize = 8

// QSEntry is one entry of a .qs file.
type QSEntry struct {
	Offset  int64  // byte offset of the entry header in the file
	Size    uint32 // payload size
	Flags   uint8  // bit 0 = CRC present
	CRC16   uint16 // low 16 bits of CRC-32 (IEEE) of the payload
	Unused  uint8
	Payload []byte // the stored message term; points into the decoded data
	// CRCOK reports whether CRC16 matches the payload; it is true when the
	// entry carries no CRC. A mismatch is data, not a decode error: RabbitMQ
	// drops such a message on recovery.
	CRCOK bool
}

// HasCRC reports flag bit 0.
func (e QSEntry) HasCRC() bool { return e.Flags&1 == 1 }

// CRC16 returns the low 16 bits of the CRC-32 (IEEE) of payload, as the
// queue store records it.
func CRC16(payload []byte) uint16 {
	crc := ^uint32(0)
	for _, b := range payload {
		crc = crcTable[byte(crc)^b] ^ crc>>8
	}
	return uint16(^crc)
}

// crcTable is CRC-32 (IEEE)'s table, one byte at a time. The payloads are
// messages of a simulation, most of them a few bytes; hash/crc32's
// faster tables cost the browser's build more than they save.
var crcTable = func() (t [256]uint32) {
	for i := range t {
		c := uint32(i)
		for range 8 {
			if c&1 == 1 {
				c = c>>1 ^ 0xEDB88320
			} else {
				c >>= 1
			}
		}
		t[i] = c
	}
	return t
}()

// AppendQSEntry appends one entry (8-byte header, then payload) to dst, with
// a CRC when withCRC is set (classic_queue_store_v2_check_crc32, default on).
func AppendQSEntry(dst, payload []byte, withCRC bool) []byte {
	var h [QSEntryHeaderSize]byte
	binary.BigEndian.PutUint32(h[0:], uint32(len(payload)))
	if withCRC {
		h[4] = 1
		binary.BigEndian.PutUint16(h[5:], CRC16(payload))
	}
	dst = append(dst, h[:]...)
	return append(dst, payload...)
}

// QueueStoreFile is a decoded .qs file.
type QueueStoreFile struct {
	// Header is valid when HasHeader is true; a 0-byte file (created, nothing
	// flushed yet) has none.
	Header    SegmentHeader
	HasHeader bool
	Entries   []QSEntry
}

// EntryAt returns the entry whose header starts at offset.
func (q *QueueStoreFile) EntryAt(offset uint64) (QSEntry, bool) {
	lo, hi := 0, len(q.Entries)
	for lo < hi {
		mid := (lo + hi) / 2
		switch o := uint64(q.Entries[mid].Offset); {
		case o == offset:
			return q.Entries[mid], true
		case o < offset:
			lo = mid + 1
		default:
			hi = mid
		}
	}
	return QSEntry{}, false
}

// Encode returns the file bytes: header, then every entry with its recorded
// flags and CRC.
func (q *QueueStoreFile) Encode() []byte {
	if !q.HasHeader {
		return nil
	}
	out := q.Header.Encode()
	for _, e := range q.Entries {
		var h [QSEntryHeaderSize]byte
		binary.BigEndian.PutUint32(h[0:], e.Size)
		h[4] = e.Flags
		binary.BigEndian.PutUint16(h[5:], e.CRC16)
		h[7] = e.Unused
		out = append(out, h[:]...)
		out = append(out, e.Payload...)
	}
	return out
}

// DecodeQueueStore decodes a .qs file. On error the returned file holds every
// entry before the failing offset.
func DecodeQueueStore(file string, data []byte) (*QueueStoreFile, error) {
	q := &QueueStoreFile{}
	if len(data) == 0 {
		return q, nil
	}
	h, err := decodeSegmentHeader(file, data, MagicQueueStore)
	if err != nil {
		return q, err
	}
	if err := checkSegmentNumber(file, ExtQueueStore, h); err != nil {
		return q, err
	}
	q.Header, q.HasHeader = h, true
	off := int64(HeaderSize)
	for off < int64(len(data)) {
		rest := data[off:]
		if len(rest) < QSEntryHeaderSize {
			return q, decodeErr(file, off, ErrTruncated, "entry header is %d bytes, want %d", len(rest), QSEntryHeaderSize)
		}
		e := QSEntry{
			Offset: off,
			Size:   binary.BigEndian.Uint32(rest[0:]),
			Flags:  rest[4],
			CRC16:  binary.BigEndian.Uint16(rest[5:]),
			Unused: rest[7],
		}
		if uint64(e.Size) > uint64(len(rest)-QSEntryHeaderSize) {
			return q, decodeErr(file, off, ErrTruncated, "entry of %d bytes runs past the end of the file (%d bytes left)", e.Size, len(rest)-QSEntryHeaderSize)
		}
		e.Payload = rest[QSEntryHeaderSize : QSEntryHeaderSize+int(e.Size)]
		e.CRCOK = !e.HasCRC() || CRC16(e.Payload) == e.CRC16
		q.Entries = append(q.Entries, e)
		off += QSEntryHeaderSize + int64(e.Size)
	}
	return q, nil
}
