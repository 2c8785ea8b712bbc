package format

import (
	"encoding/binary"
)

// Models the 64-byte file header shared by rabbit_classic_queue_index_v2 and
// rabbit_classic_queue_store_v2.

// Constants of the v2 segment files.
const (
	MagicIndex      = 0x52435149 // "RCQI", the .qi magic
	MagicQueueStore = 0x52435153 // "RCQS", the .qs magic
	SegmentVersion  = 2          // the only version 3.10 writes
	HeaderSize      = 64         // bytes of header before the first slot or entry
	// SegmentEntryCount is classic_queue_index_v2_segment_entry_count, the
	// number of seq ids per .qi/.qs segment.
	SegmentEntryCount = 4096
)

// SegmentHeader is the 64-byte header of a .qi or .qs file.
type SegmentHeader struct {
	Magic    uint32
	Version  uint8
	FirstSeq uint64 // first seq id of the segment
	EndSeq   uint64 // one past the last seq id of the segment
	// Reserved holds bytes 21..63, which RabbitMQ writes as zeros and never
	// reads; kept so that decode then encode gives the same bytes.
	Reserved [HeaderSize - 21]byte
}

// NewSegmentHeader returns the header RabbitMQ writes for segment n with the
// given magic and the default entry count.
func NewSegmentHeader(magic uint32, n uint64) SegmentHeader {
	return SegmentHeader{Magic: magic, Version: SegmentVersion, FirstSeq: n * SegmentEntryCount, EndSeq: n*SegmentEntryCount + SegmentEntryCount}
}

// Encode returns the 64 header bytes.
func (h SegmentHeader) Encode() []byte {
	b := make([]byte, HeaderSize)
	binary.BigEndian.PutUint32(b[0:], h.Magic)
	b[4] = h.Version
	binary.BigEndian.PutUint64(b[5:], h.FirstSeq)
	binary.BigEndian.PutUint64(b[13:], h.EndSeq)
	copy(b[21:], h.Reserved[:])
	return b
}

// EntryCount returns the number of seq ids the segment covers.
func (h SegmentHeader) EntryCount() uint64 { return h.EndSeq - h.FirstSeq }

// decodeSegmentHeader checks and parses the header of a .qi or .qs file.
// The reserved bytes 21..63 are not checked: RabbitMQ ignores them.
func decodeSegmentHeader(file string, data []byte, magic uint32) (SegmentHeader, error) {
	var h SegmentHeader
	if len(data) < HeaderSize {
		return h, decodeErr(file, 0, ErrTruncated, "header is %d bytes, want %d", len(data), HeaderSize)
	}
	h.Magic = binary.BigEndian.Uint32(data[0:])
	h.Version = data[4]
	h.FirstSeq = binary.BigEndian.Uint64(data[5:])
	h.EndSeq = binary.BigEndian.Uint64(data[13:])
	copy(h.Reserved[:], data[21:HeaderSize])
	if h.Magic != magic {
		return h, decodeErr(file, 0, ErrBadMagic, "magic %q, want %q", magicText(h.Magic), magicText(magic))
	}
	if h.Version != SegmentVersion {
		return h, decodeErr(file, 4, ErrBadVersion, "version %d, want %d", h.Version, SegmentVersion)
	}
	if h.EndSeq <= h.FirstSeq || h.EndSeq-h.FirstSeq > 1<<24 {
		return h, decodeErr(file, 5, ErrMalformed, "seq range %d..%d is empty or too large", h.FirstSeq, h.EndSeq)
	}
	if h.FirstSeq%h.EntryCount() != 0 {
		return h, decodeErr(file, 5, ErrMalformed, "first seq %d is not a multiple of the segment size %d", h.FirstSeq, h.EntryCount())
	}
	return h, nil
}

// checkSegmentNumber checks the header against the number in the file name,
// when the name has one.
func checkSegmentNumber(file, ext string, h SegmentHeader) error {
	n, err := ParseSegmentFileName(baseName(file), ext)
	if err != nil {
		return nil
	}
	if h.FirstSeq/h.EntryCount() != n {
		return decodeErr(file, 5, ErrMalformed, "header covers seq %d..%d, not segment %d", h.FirstSeq, h.EndSeq-1, n)
	}
	return nil
}

func magicText(m uint32) string {
	b := []byte{byte(m >> 24), byte(m >> 16), byte(m >> 8), byte(m)}
	for _, c := range b {
		if c < 0x20 || c > 0x7e {
			return string(printableHex(b))
		}
	}
	return string(b)
}

func printableHex(b []byte) []byte {
	const hex = "0123456789abcdef"
	out := []byte("0x")
	for _, c := range b {
		out = append(out, hex[c>>4], hex[c&15])
	}
	return out
}

// baseName returns the part of a slash path after the last slash.
func baseName(p string) string {
	for i := len(p) - 1; i >= 0; i-- {
		if p[i] == '/' {
			return p[i+1:]
		}
	}
	return p
}
