package format

// Scanning a file's entries by their headers alone, through an
// io.ReaderAt: a view of a large file costs a few bytes an entry, not a
// copy of the file (the Files view of the widget). Decode* reads the same
// layouts whole; TestScanAgreesWithDecode checks that both find the same
// entries.

import (
	"encoding/binary"
	"io"
)

// headerReader reads short fixed-size headers, nothing past size.
type headerReader struct {
	r    io.ReaderAt
	size int64
	buf  [24]byte
}

func (h *headerReader) at(off int64, n int) []byte {
	if off < 0 || off+int64(n) > h.size {
		return nil
	}
	if k, _ := h.r.ReadAt(h.buf[:n], off); k < n {
		return nil
	}
	return h.buf[:n]
}

// ScanIndexSlots calls fn for each whole 32-byte slot of a v2 index
// segment (.qi) of size bytes, with where the slot ends and whether it
// holds an entry (status 1; an acked slot is zeroes).
func ScanIndexSlots(r io.ReaderAt, size int64, fn func(end int64, present bool)) {
	slots := make([]byte, max(size-HeaderSize, 0))
	if k, _ := r.ReadAt(slots, HeaderSize); k < len(slots) {
		slots = slots[:k]
	}
	for off := 0; off+EntrySize <= len(slots); off += EntrySize {
		fn(int64(HeaderSize+off+EntrySize), slots[off] == 1)
	}
}

// ScanQueueStoreEntries calls fn with where each whole entry of a v2
// queue store file (.qs) of size bytes ends, reading only the entries'
// size fields.
func ScanQueueStoreEntries(r io.ReaderAt, size int64, fn func(end int64)) {
	h := headerReader{r: r, size: size}
	for off := int64(HeaderSize); ; {
		b := h.at(off, QSEntryHeaderSize)
		if b == nil {
			return
		}
		n := int64(binary.BigEndian.Uint32(b))
		if n == 0 || off+QSEntryHeaderSize+n > size {
			return
		}
		off += QSEntryHeaderSize + n
		fn(off)
	}
}

// ScanMsgFileEntries calls fn for each whole entry of a message store
// file (.rdq) of size bytes, as rabbit_msg_file:scan finds them: where it
// starts and ends, its message id, and whether it ends with the write-OK
// marker. It reads the size field, the id and the marker only.
func ScanMsgFileEntries(r io.ReaderAt, size int64, fn func(off, end int64, id MsgID, valid bool)) {
	h := headerReader{r: r, size: size}
	for off := int64(0); ; {
		b := h.at(off, 8)
		if b == nil {
			return
		}
		n := binary.BigEndian.Uint64(b)
		if n == 0 || n > uint64(size) || off+int64(n)+MsgFileEntryOverhead > size {
			return
		}
		end := off + int64(n) + MsgFileEntryOverhead
		t := h.at(end-1, 1)
		valid := t != nil && t[0] == WriteOKMarker
		var id MsgID
		if n >= 16 {
			if b := h.at(off+8, 16); b != nil {
				copy(id[:], b)
			}
		}
		fn(off, end, id, valid)
		off = end
	}
}
