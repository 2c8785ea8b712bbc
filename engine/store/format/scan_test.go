package format

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"
)

// TestScanAgreesWithDecode: on every .qi, .qs and .rdq file RabbitMQ
// wrote in the fixtures, the header-only scans find the entries the
// decoders find, where they find them.
func TestScanAgreesWithDecode(t *testing.T) {
	root := fixtureDir(t)
	seen := map[string]int{}
	err := filepath.Walk(root, func(p string, info os.FileInfo, err error) error {
		if err != nil || info.IsDir() {
			return err
		}
		data, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		r, size := bytes.NewReader(data), int64(len(data))
		switch filepath.Ext(p) {
		case ".qi":
			seg, err := DecodeIndexSegment(p, data)
			if err != nil || len(data) == 0 {
				return nil
			}
			var present []bool
			ScanIndexSlots(r, size, func(_ int64, ok bool) { present = append(present, ok) })
			if len(present) != len(seg.Slots) {
				t.Errorf("%s: scan finds %d slots, decode %d", p, len(present), len(seg.Slots))
				return nil
			}
			for i, sl := range seg.Slots {
				if present[i] != sl.Present() {
					t.Errorf("%s: slot %d present %v, decode says %v", p, i, present[i], sl.Present())
				}
			}
		case ".qs":
			q, err := DecodeQueueStore(p, data)
			if err != nil {
				return nil
			}
			var ends []int64
			ScanQueueStoreEntries(r, size, func(end int64) { ends = append(ends, end) })
			if len(ends) != len(q.Entries) {
				t.Errorf("%s: scan finds %d entries, decode %d", p, len(ends), len(q.Entries))
				return nil
			}
			for i, e := range q.Entries {
				if want := e.Offset + QSEntryHeaderSize + int64(e.Size); ends[i] != want {
					t.Errorf("%s: entry %d ends at %d, decode says %d", p, i, ends[i], want)
				}
			}
		case ".rdq":
			f, err := DecodeMsgFile(p, data)
			if err != nil {
				return nil
			}
			var got []MsgFileEntry
			ScanMsgFileEntries(r, size, func(off, end int64, id MsgID, valid bool) {
				e := MsgFileEntry{Offset: off, Size: uint64(end - off - MsgFileEntryOverhead), MsgID: id}
				if valid {
					e.Marker = WriteOKMarker
				}
				got = append(got, e)
			})
			if len(got) != len(f.Entries) {
				t.Errorf("%s: scan finds %d entries, decode %d", p, len(got), len(f.Entries))
				return nil
			}
			for i, e := range f.Entries {
				if g := got[i]; g.Offset != e.Offset || g.Size != e.Size || g.MsgID != e.MsgID || g.Valid() != e.Valid() {
					t.Errorf("%s: entry %d: scan %+v, decode %+v", p, i, g, e)
				}
			}
		default:
			return nil
		}
		seen[filepath.Ext(p)]++
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	for _, ext := range []string{".qi", ".qs", ".rdq"} {
		if seen[ext] == 0 {
			t.Errorf("no %s file among the fixtures", ext)
		}
	}
}
