package format

import (
	"bytes"
	"encoding/binary"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// wantDecodeError checks that err is a *DecodeError of kind at offset, and
// that its text names the file and the offset.
func wantDecodeError(t *testing.T, err error, file string, kind error, offset int64) {
	t.Helper()
	var de *DecodeError
	if !errors.As(err, &de) {
		t.Fatalf("error %v (%T), want a *DecodeError", err, err)
	}
	if !errors.Is(err, kind) || de.File != file || de.Offset != offset {
		t.Fatalf("error %q: kind %v file %q offset %d; want kind %v file %q offset %d", err, de.Kind, de.File, de.Offset, kind, file, offset)
	}
	if prefix := file + ": offset "; !strings.HasPrefix(err.Error(), prefix) {
		t.Fatalf("error %q does not start with %q", err, prefix)
	}
}

func fixtureFile(t *testing.T, rel string) []byte {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(fixtureDir(t), rel))
	if err != nil {
		t.Fatal(err)
	}
	return data
}

const (
	v2BasicQueue = "v2-basic/A/queues/4OY5891YZFXPTW9JTXY2VNWGS/"
	v1BasicQueue = "v1-basic/A0/queues/BTU471MODCIPU4OZDHM6TC34I/"
)

func TestIndexSegmentErrors(t *testing.T) {
	qi := fixtureFile(t, v2BasicQueue+"0.qi")
	clone := func() []byte { return append([]byte(nil), qi...) }

	_, err := DecodeIndexSegment("q/0.qi", qi[:10])
	wantDecodeError(t, err, "q/0.qi", ErrTruncated, 0)

	bad := clone()
	copy(bad, "RCQS")
	_, err = DecodeIndexSegment("q/0.qi", bad)
	wantDecodeError(t, err, "q/0.qi", ErrBadMagic, 0)
	if !strings.Contains(err.Error(), `magic "RCQS", want "RCQI"`) {
		t.Errorf("bad magic text: %v", err)
	}

	bad = clone()
	bad[4] = 1
	_, err = DecodeIndexSegment("q/0.qi", bad)
	wantDecodeError(t, err, "q/0.qi", ErrBadVersion, 4)

	_, err = DecodeIndexSegment("q/3.qi", qi)
	wantDecodeError(t, err, "q/3.qi", ErrMalformed, 5)

	seg, err := DecodeIndexSegment("q/0.qi", qi[:len(qi)-5])
	wantDecodeError(t, err, "q/0.qi", ErrTruncated, 64+24*32)
	if len(seg.Slots) != 24 {
		t.Errorf("partial result has %d slots, want 24", len(seg.Slots))
	}

	bad = clone()
	bad[64+3*32] = 2
	_, err = DecodeIndexSegment("q/0.qi", bad)
	wantDecodeError(t, err, "q/0.qi", ErrMalformed, 64+3*32)

	bad = clone()
	bad[64+3*32+3] = 7
	_, err = DecodeIndexSegment("q/0.qi", bad)
	wantDecodeError(t, err, "q/0.qi", ErrMalformed, 64+3*32+3)

	// A segment header that claims 2 entries, with 25 slots.
	bad = clone()
	binary.BigEndian.PutUint64(bad[13:], 2)
	_, err = DecodeIndexSegment("x.qi", bad)
	wantDecodeError(t, err, "x.qi", ErrMalformed, 64+2*32)
	if !strings.Contains(err.Error(), "beyond") {
		t.Errorf("slot beyond end: %v", err)
	}

	// Recovery acks by zeroing only the status byte: not an error, not present.
	bad = clone()
	bad[64] = 0
	seg, err = DecodeIndexSegment("q/0.qi", bad)
	if err != nil || seg.Slots[0].Present() || seg.Slots[0].Zero || seg.Slots[0].Entry.Location.Offset != 64 {
		t.Errorf("status-0 slot: %v %+v", err, seg.Slots[0])
	}

	seg, err = DecodeIndexSegment("q/0.qi", nil)
	if err != nil || seg.HasHeader || len(seg.Slots) != 0 {
		t.Errorf("empty file: %v %+v", err, seg)
	}
}

func TestQueueStoreErrors(t *testing.T) {
	qs := fixtureFile(t, v2BasicQueue+"0.qs")
	q, err := DecodeQueueStore("q/0.qs", qs[:len(qs)-1])
	wantDecodeError(t, err, "q/0.qs", ErrTruncated, 5270)
	if len(q.Entries) != 19 {
		t.Errorf("partial result has %d entries", len(q.Entries))
	}
	_, err = DecodeQueueStore("q/0.qs", qs[:64+5])
	wantDecodeError(t, err, "q/0.qs", ErrTruncated, 64)

	bad := append([]byte(nil), qs...)
	binary.BigEndian.PutUint32(bad[64:], 0xFFFFFFFF)
	_, err = DecodeQueueStore("q/0.qs", bad)
	wantDecodeError(t, err, "q/0.qs", ErrTruncated, 64)
	if !strings.Contains(err.Error(), "runs past the end") {
		t.Errorf("size overflow: %v", err)
	}

	// A flipped payload byte is reported on the entry, not as an error.
	bad = append([]byte(nil), qs...)
	bad[400] ^= 0xFF
	q, err = DecodeQueueStore("q/0.qs", bad)
	if err != nil {
		t.Fatal(err)
	}
	if q.Entries[0].CRCOK != true || q.Entries[1].CRCOK != false {
		t.Errorf("CRC flags: %t %t", q.Entries[0].CRCOK, q.Entries[1].CRCOK)
	}
	if !bytes.Equal(q.Encode(), bad) {
		t.Error("Encode does not reproduce the file")
	}

	copy(bad, "RCQI")
	_, err = DecodeQueueStore("q/0.qs", bad)
	wantDecodeError(t, err, "q/0.qs", ErrBadMagic, 0)
}

func TestMsgFileScan(t *testing.T) {
	id := MsgID{1, 2, 3}
	var b []byte
	b = AppendMsgFileEntry(b, id, []byte("first"))
	second := len(b)
	b = AppendMsgFileEntry(b, MsgID{9}, []byte("torn"))
	b[len(b)-1] = 0 // the write-OK marker never made it
	third := len(b)
	b = AppendMsgFileEntry(b, id, []byte("third"))
	end := len(b)

	f, err := DecodeMsgFile("0.rdq", append(b, make([]byte, 100)...))
	if err != nil || f.Stop != StopZeroSize || f.End != int64(end) || len(f.Entries) != 3 {
		t.Fatalf("zero tail: %v stop=%v end=%d entries=%d", err, f.Stop, f.End, len(f.Entries))
	}
	if v := f.Valid(); len(v) != 2 || v[1].Offset != int64(third) || string(v[1].Payload) != "third" {
		t.Fatalf("valid entries %+v", v)
	}
	if f.Entries[1].Valid() || f.Entries[1].Offset != int64(second) {
		t.Fatalf("torn entry %+v", f.Entries[1])
	}

	f, err = DecodeMsgFile("0.rdq", b[:end-3])
	wantDecodeError(t, err, "0.rdq", ErrTruncated, int64(third))
	if f.End != int64(third) || f.Stop != StopTruncated || len(f.Entries) != 2 {
		t.Fatalf("truncated scan: end=%d stop=%v entries=%d", f.End, f.Stop, len(f.Entries))
	}

	huge := binary.BigEndian.AppendUint64(nil, 1<<63)
	_, err = DecodeMsgFile("0.rdq", append(huge, make([]byte, 30)...))
	wantDecodeError(t, err, "0.rdq", ErrTruncated, 0)

	small := binary.BigEndian.AppendUint64(nil, 3)
	_, err = DecodeMsgFile("0.rdq", append(small, 1, 2, 3, WriteOKMarker))
	wantDecodeError(t, err, "0.rdq", ErrMalformed, 0)
}

func TestJournalStops(t *testing.T) {
	data := fixtureFile(t, v1BasicQueue+"journal.jif")
	j, err := DecodeJournal("journal.jif", append(append([]byte(nil), data...), make([]byte, 40)...))
	if err != nil || j.Stop != JournalZeroEntry || j.End != int64(len(data)) || len(j.Records) != 50 {
		t.Fatalf("zero entry: %v stop=%v end=%d records=%d", err, j.Stop, j.End, len(j.Records))
	}
	j, err = DecodeJournal("q/journal.jif", data[:len(data)-20])
	wantDecodeError(t, err, "q/journal.jif", ErrTruncated, 6472)
	if len(j.Records) != 48 || j.Stop != JournalTruncated {
		t.Fatalf("truncated: %d records, stop %v", len(j.Records), j.Stop)
	}
	_, err = DecodeJournal("q/journal.jif", data[:3])
	wantDecodeError(t, err, "q/journal.jif", ErrTruncated, 0)
	if _, err := AppendJournalRecord(nil, JournalRecord{Kind: JournalAck, SeqID: 1 << 62}); err == nil {
		t.Error("seq id of 63 bits accepted")
	}
}

func TestIdxSegmentErrors(t *testing.T) {
	data := fixtureFile(t, "v1-basic/B/queues/BTU471MODCIPU4OZDHM6TC34I/0.idx")
	s, err := DecodeIdxSegment("0.idx", data)
	if err != nil {
		t.Fatal(err)
	}
	last := s.Records[len(s.Records)-1]
	if last.Kind != IdxAck || last.RelSeq != 0 || s.Records[1].Kind != IdxDeliver {
		t.Fatalf("kinds: %v %v", s.Records[1].Kind, last)
	}
	third, _ := AppendIdxRecord(append([]byte(nil), data...), IdxRecord{Kind: IdxAck, RelSeq: 0})
	_, err = DecodeIdxSegment("0.idx", third)
	wantDecodeError(t, err, "0.idx", ErrMalformed, int64(len(data)))

	_, err = DecodeIdxSegment("0.idx", make([]byte, 10))
	wantDecodeError(t, err, "0.idx", ErrMalformed, 0)
	_, err = DecodeIdxSegment("0.idx", append(append([]byte(nil), data...), 0x00, 0x05))
	wantDecodeError(t, err, "0.idx", ErrMalformed, int64(len(data)))
	_, err = DecodeIdxSegment("0.idx", data[:100])
	wantDecodeError(t, err, "0.idx", ErrTruncated, 72)
	_, err = DecodeIdxSegment("0.idx", append(append([]byte(nil), data...), 0x40))
	wantDecodeError(t, err, "0.idx", ErrTruncated, int64(len(data)))
	if _, err := AppendIdxRecord(nil, IdxRecord{Kind: IdxDeliver, RelSeq: 1 << 14}); err == nil {
		t.Error("rel seq of 15 bits accepted")
	}
}

func TestEncodeReproducesFixtures(t *testing.T) {
	for _, rel := range []string{v2BasicQueue + "0.qi", "v2-basic/B/queues/4OY5891YZFXPTW9JTXY2VNWGS/0.qi", v2BasicQueue + "0.qs"} {
		data := fixtureFile(t, rel)
		var enc []byte
		if strings.HasSuffix(rel, ".qi") {
			seg, err := DecodeIndexSegment(rel, data)
			if err != nil {
				t.Fatal(err)
			}
			enc = seg.Encode()
		} else {
			q, err := DecodeQueueStore(rel, data)
			if err != nil {
				t.Fatal(err)
			}
			enc = q.Encode()
		}
		if !bytes.Equal(enc, data) {
			t.Errorf("%s: decode then encode differs at byte %d", rel, firstDiff(enc, data))
		}
	}
}
