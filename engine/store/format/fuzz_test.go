package format

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"warren/engine/amqp"
)

// seedFixtures adds every fixture file whose name matches one of the
// suffixes to the corpus.
func seedFixtures(f *testing.F, suffixes ...string) {
	root := fixtureDir(f)
	n := 0
	err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		for _, s := range suffixes {
			if strings.HasSuffix(p, s) {
				data, err := os.ReadFile(p)
				if err != nil {
					return err
				}
				f.Add(data)
				n++
				break
			}
		}
		return nil
	})
	if err != nil || n == 0 {
		f.Fatalf("seeding from %s with %v: %d files, %v", root, suffixes, n, err)
	}
}

// checkFuzzError requires a decode error to be a *DecodeError that names the
// file and an offset inside the data.
func checkFuzzError(t *testing.T, err error, file string, size int) {
	t.Helper()
	if err == nil {
		return
	}
	var de *DecodeError
	if !errors.As(err, &de) {
		t.Fatalf("error %v (%T) is not a *DecodeError", err, err)
	}
	if de.File != file || de.Offset < 0 || de.Offset > int64(size) {
		t.Fatalf("error %q: file %q offset %d, data is %d bytes", err, de.File, de.Offset, size)
	}
	if !strings.HasPrefix(err.Error(), file+": offset ") {
		t.Fatalf("error %q does not name the file and offset", err)
	}
	if de.Kind == nil {
		t.Fatalf("error %q has no kind", err)
	}
}

func FuzzDecodeQI(f *testing.F) {
	seedFixtures(f, ".qi")
	f.Fuzz(func(t *testing.T, data []byte) {
		seg, err := DecodeIndexSegment("queues/Q/0.qi", data)
		checkFuzzError(t, err, "queues/Q/0.qi", len(data))
		if seg == nil {
			t.Fatal("nil segment")
		}
		if err != nil {
			return
		}
		clean := true
		for _, s := range seg.Slots {
			if !s.Zero && !s.Present() {
				clean = false // leniently read: status 0 with other bytes set
			}
		}
		if clean && string(seg.Encode()) != string(data) {
			t.Fatal("decode then encode differs")
		}
	})
}

func FuzzDecodeQS(f *testing.F) {
	seedFixtures(f, ".qs")
	f.Fuzz(func(t *testing.T, data []byte) {
		q, err := DecodeQueueStore("queues/Q/0.qs", data)
		checkFuzzError(t, err, "queues/Q/0.qs", len(data))
		if err == nil && string(q.Encode()) != string(data) {
			t.Fatal("decode then encode differs")
		}
		for _, e := range q.Entries {
			if e.CRCOK != (!e.HasCRC() || CRC16(e.Payload) == e.CRC16) {
				t.Fatal("CRC flag wrong")
			}
		}
	})
}

func FuzzDecodeRDQ(f *testing.F) {
	seedFixtures(f, ".rdq")
	f.Add(AppendMsgFileEntry(nil, MsgID{1}, []byte("x")))
	f.Fuzz(func(t *testing.T, data []byte) {
		mf, err := DecodeMsgFile("msg_store_persistent/0.rdq", data)
		checkFuzzError(t, err, "msg_store_persistent/0.rdq", len(data))
		if mf.End < 0 || mf.End > int64(len(data)) {
			t.Fatalf("End %d outside the file", mf.End)
		}
		var rebuilt []byte
		for _, e := range mf.Entries {
			if e.Valid() && e.Size >= 16 {
				rebuilt = AppendMsgFileEntry(rebuilt, e.MsgID, e.Payload)
				if string(rebuilt[len(rebuilt)-int(e.TotalSize()):]) != string(data[e.Offset:e.Offset+e.TotalSize()]) {
					t.Fatalf("entry at %d does not re-encode", e.Offset)
				}
			}
		}
	})
}

func FuzzDecodeJournal(f *testing.F) {
	seedFixtures(f, "journal.jif")
	f.Fuzz(func(t *testing.T, data []byte) {
		j, err := DecodeJournal("queues/Q/journal.jif", data)
		checkFuzzError(t, err, "queues/Q/journal.jif", len(data))
		var out []byte
		for _, r := range j.Records {
			if out, err = AppendJournalRecord(out, r); err != nil {
				t.Fatal(err)
			}
		}
		if string(out) != string(data[:j.End]) {
			t.Fatal("records do not re-encode to the bytes they came from")
		}
	})
}

func FuzzDecodeIdx(f *testing.F) {
	seedFixtures(f, ".idx")
	f.Fuzz(func(t *testing.T, data []byte) {
		s, err := DecodeIdxSegment("queues/Q/0.idx", data)
		checkFuzzError(t, err, "queues/Q/0.idx", len(data))
		var out []byte
		for _, r := range s.Records {
			if out, err = AppendIdxRecord(out, r); err != nil {
				t.Fatal(err)
			}
		}
		if string(out) != string(data[:len(out)]) {
			t.Fatal("records do not re-encode to the bytes they came from")
		}
	})
}

// FuzzDecodeMessage feeds stored message terms (taken from the .qs files)
// and checks that what decodes encodes and decodes again to the same value.
func FuzzDecodeMessage(f *testing.F) {
	root := fixtureDir(f)
	for _, rel := range []string{
		"v2-basic/A/queues/4OY5891YZFXPTW9JTXY2VNWGS/0.qs",
		"v2-priority/A/queues/4P9337INX5BBGEAIZJKD229QK/0.qs",
		"transient-lazy-v2/A/queues/64OT0YCNO3EGP8VWZ39WMOL1E/0.qs",
	} {
		data, err := os.ReadFile(filepath.Join(root, rel))
		if err != nil {
			f.Fatal(err)
		}
		q, err := DecodeQueueStore(rel, data)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(q.Entries[0].Payload)
	}
	rec := NewMessage("dlx", "k", allProperties(), []byte("b"), MsgID{}, false)
	rec.PropertiesRecord = true
	b, _ := rec.Encode()
	f.Add(b)
	f.Fuzz(func(t *testing.T, data []byte) {
		m, err := DecodeMessage("f.qs", 0, data)
		checkFuzzError(t, err, "f.qs", len(data))
		if err != nil {
			return
		}
		enc, err := m.Encode()
		if err != nil {
			t.Fatalf("decoded message does not encode: %v", err)
		}
		back, err := DecodeMessage("again", 0, enc)
		if err != nil {
			t.Fatalf("encoded message does not decode: %v", err)
		}
		if !reflect.DeepEqual(normalise(back), normalise(m)) {
			t.Fatalf("round trip changed the message:\n%+v\n%+v", back, m)
		}
	})
}

// normalise clears what a round trip may legitimately change: NaN payloads
// and float32 precision do not survive, so floats are compared as encoded.
func normalise(m *Message) *Message {
	c := *m
	c.Properties.Headers = normaliseTable(c.Properties.Headers)
	return &c
}

func normaliseTable(t Table) Table {
	var out Table
	for _, f := range t {
		out = append(out, Field{Key: f.Key, Val: normaliseValue(f.Val)})
	}
	return out
}

func normaliseValue(v FieldValue) FieldValue {
	if v.Kind == amqp.Double || v.Kind == amqp.Float {
		b, _ := appendFieldValue(nil, v, 0)
		v.Float, v.Str = 0, string(b)
	}
	v.Tab = normaliseTable(v.Tab)
	var arr []FieldValue
	for _, e := range v.Arr {
		arr = append(arr, normaliseValue(e))
	}
	v.Arr = arr
	return v
}

func FuzzDecodeProperties(f *testing.F) {
	for _, p := range []Properties{Properties{}.WithDeliveryMode(2), Properties{}.WithDeliveryMode(2).WithPriority(0), allProperties()} {
		b, _ := EncodeProperties(p)
		f.Add(b)
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		p, err := DecodeProperties("f.qs", 0, data)
		checkFuzzError(t, err, "f.qs", len(data))
		if err != nil {
			return
		}
		if _, err := EncodeProperties(p); err != nil {
			t.Fatalf("decoded properties do not encode: %v", err)
		}
	})
}

func FuzzDecodeQueueName(f *testing.F) {
	seedFixtures(f, ".queue_name")
	f.Fuzz(func(t *testing.T, data []byte) {
		q, err := DecodeQueueName("queues/Q/.queue_name", data)
		checkFuzzError(t, err, "queues/Q/.queue_name", len(data))
		if err == nil && string(q.Encode()) != string(data) {
			t.Fatalf("decode then encode differs: %q", data)
		}
	})
}

func FuzzDecodeVHostConfig(f *testing.F) {
	seedFixtures(f, ".config")
	f.Fuzz(func(t *testing.T, data []byte) {
		n, err := DecodeVHostConfig(".config", data)
		checkFuzzError(t, err, ".config", len(data))
		if err == nil && (n < 1 || n > 1<<14) {
			t.Fatalf("count %d out of range", n)
		}
	})
}
