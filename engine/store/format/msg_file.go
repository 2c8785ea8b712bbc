package format

import (
	"encoding/binary"
)

// Models rabbit_msg_file (append/3, scan/4).

// Constants of the shared message store's .rdq files.
const (
	// WriteOKMarker ends every completely written .rdq entry.
	WriteOKMarker = 0xFF
	// MsgFileEntryOverhead is the bytes an entry adds besides id and term:
	// the 8-byte size and the marker.
	MsgFileEntryOverhead = 9
	// MsgFileSizeLimit is msg_store_file_size_limit: the store rolls to a new
	// file once an append reaches it.
	MsgFileSizeLimit = 16777216
)

// MsgFileEntry is one entry of an .rdq file.
type MsgFileEntry struct {
	Offset int64  // byte offset of the entry in the file
	Size   uint64 // the size field: 16 + len(Payload)
	MsgID  MsgID
	// Payload is the stored message term; it points into the decoded data.
	Payload []byte
	Marker  uint8
}

// Valid reports whether the entry ends with the write-OK marker; the scanner
// skips entries that do not.
func (e MsgFileEntry) Valid() bool { return e.Marker == WriteOKMarker }

// TotalSize returns the bytes the entry takes on disk: Size + 9.
func (e MsgFileEntry) TotalSize() int64 { return int64(e.Size) + MsgFileEntryOverhead }

// AppendMsgFileEntry appends one entry (size, id, payload, marker) to dst.
func AppendMsgFileEntry(dst []byte, id MsgID, payload []byte) []byte {
	var h [8]byte
	binary.BigEndian.PutUint64(h[:], uint64(len(payload))+16)
	dst = append(dst, h[:]...)
	dst = append(dst, id[:]...)
	dst = append(dst, payload...)
	return append(dst, WriteOKMarker)
}

// ScanStop says why a scan of an .rdq file ended.
type ScanStop uint8

// Reasons a scan stops.
const (
	StopEOF       ScanStop = iota // reached the end of the file
	StopZeroSize                  // found a size field of 0 (unwritten space)
	StopTruncated                 // the last entry runs past the end of the file
)

// String names the reason.
func (s ScanStop) String() string {
	switch s {
	case StopEOF:
		return "end of file"
	case StopZeroSize:
		return "zero size field"
	case StopTruncated:
		return "truncated entry"
	}
	return "unknown"
}

// MsgFile is a scanned .rdq file.
type MsgFile struct {
	Entries []MsgFileEntry // every entry, valid or not, in file order
	// End is the offset just after the last whole entry: where RabbitMQ's
	// recovery would truncate the file.
	End  int64
	Stop ScanStop
}

// Valid returns the entries that end with the write-OK marker.
func (f *MsgFile) Valid() []MsgFileEntry {
	var out []MsgFileEntry
	for _, e := range f.Entries {
		if e.Valid() {
			out = append(out, e)
		}
	}
	return out
}

// DecodeMsgFile scans an .rdq file the way rabbit_msg_file:scan does: it stops
// at a zero size field or at the end, and records entries without the
// write-OK marker as invalid. A last entry that runs past the end of the file
// is reported as an ErrTruncated error, with the scan result up to it.
func DecodeMsgFile(file string, data []byte) (*MsgFile, error) {
	f := &MsgFile{}
	off := int64(0)
	for {
		rest := data[off:]
		if len(rest) == 0 {
			f.End, f.Stop = off, StopEOF
			return f, nil
		}
		if len(rest) < 8 {
			f.End, f.Stop = off, StopTruncated
			if allZero(rest) {
				f.Stop = StopZeroSize
				return f, nil
			}
			return f, decodeErr(file, off, ErrTruncated, "size field is %d bytes, want 8", len(rest))
		}
		size := binary.BigEndian.Uint64(rest)
		if size == 0 {
			f.End, f.Stop = off, StopZeroSize
			return f, nil
		}
		if len(rest) < MsgFileEntryOverhead || size > uint64(len(rest)-MsgFileEntryOverhead) {
			f.End, f.Stop = off, StopTruncated
			return f, decodeErr(file, off, ErrTruncated, "entry of size %d runs past the end of the file (%d bytes left)", size, len(rest))
		}
		e := MsgFileEntry{Offset: off, Size: size, Marker: rest[8+size]}
		if size < 16 {
			if e.Valid() {
				f.End, f.Stop = off, StopTruncated
				return f, decodeErr(file, off, ErrMalformed, "entry size %d is smaller than its 16-byte message id", size)
			}
		} else {
			copy(e.MsgID[:], rest[8:24])
			e.Payload = rest[24 : 8+size]
		}
		f.Entries = append(f.Entries, e)
		off += e.TotalSize()
	}
}
