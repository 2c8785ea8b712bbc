//go:build !js

package format

import (
	"encoding/binary"
	"encoding/json"
	"strings"
	"testing"
)

// Files built here, annotated: what the fixtures do not hold (a CRC that
// does not match, a zero size field, more entries than an annotation
// lists) and the JSON the Files view reads.

// be appends n as width big-endian bytes.
func be(b []byte, n uint64, width int) []byte {
	var x [8]byte
	binary.BigEndian.PutUint64(x[:], n)
	return append(b, x[8-width:]...)
}

// segmentHeaderOf is a .qi or .qs header of segment 0.
func segmentHeaderOf(magic string) []byte {
	b := append([]byte(magic), 2)
	b = be(b, 0, 8)
	b = be(b, 4096, 8)
	return append(b, make([]byte, 43)...)
}

// spanList is "off+len name" for each span, the name's key without files.f.
func spanList(a *Annotation) string {
	var out []string
	for _, s := range a.Spans {
		out = append(out, strings.Join([]string{itoa(s.Off) + "+" + itoa(s.Len), strings.TrimPrefix(s.Name, "files.f.")}, " "))
	}
	return strings.Join(out, ", ")
}

func itoa(n int64) string { return num(n).Word }

func TestAnnotateQIToQS(t *testing.T) {
	slot := []byte{1, 1, 0, 2}
	slot = be(slot, 64, 8)
	slot = be(slot, 100, 4)
	slot = append(slot, 0, 0, 0, 0)
	slot = be(slot, 100, 4)
	slot = be(slot, 0, 8)
	data := append(append(segmentHeaderOf("RCQI"), slot...), make([]byte, 32)...)
	a := Annotate("queues/X/0.qi", data, 0)
	want := "0+4 magic, 4+1 version, 5+8 firstSeq, 13+8 endSeq, 21+43 reserved, 64+1 status, 65+1 flags, 66+1 unused, 67+1 location, " +
		"68+8 qsOffset, 76+4 qsSize, 80+4 padding, 84+4 bodySize, 88+8 expiry, 96+32 ackedSlot"
	if got := spanList(a); got != want {
		t.Errorf("spans\n got %s\nwant %s", got, want)
	}
	if got := inEnglish(t, a.Spans[3].Value) + "; " + inEnglish(t, a.Spans[6].Value) + "; " + inEnglish(t, a.Spans[8].Value); got != "4096 (first + 4096); 1: persistent; 2: queue store (.qs)" {
		t.Errorf("values: %s", got)
	}
	if len(a.Entries) != 2 || a.Entries[0].State != StateLive || a.Entries[0].QSOffset != 64 || a.Entries[1].State != StateAcked || a.Entries[1].QSOffset != -1 ||
		inEnglish(t, a.Entries[1].Label) != "seq 1" || a.Stop.Key != "" {
		t.Errorf("entries %+v, stop %v", a.Entries, a.Stop)
	}
}

func TestAnnotateQSCRC(t *testing.T) {
	payload := []byte("xyz")
	crc := CRC16(payload)
	entry := func(c uint16) []byte {
		b := be(nil, 3, 4)
		b = append(b, 1)
		b = be(b, uint64(c), 2)
		return append(append(b, 0), payload...)
	}
	data := append(append(segmentHeaderOf("RCQS"), entry(crc)...), entry(crc^1)...)
	var crcs []string
	for _, s := range Annotate("0.qs", data, 0).Spans {
		if s.Name == "files.f.crc16" {
			crcs = append(crcs, inEnglish(t, s.Value))
		}
	}
	if want := itoa(int64(crc)) + ": matches, " + itoa(int64(crc^1)) + ": does not match"; strings.Join(crcs, ", ") != want {
		t.Errorf("crc16 fields %v, want %s", crcs, want)
	}
	if CRC16([]byte("123456789")) != 0x3926 {
		t.Errorf("CRC16 of the check string is %#x, want the low half of CRC-32's 0xcbf43926", CRC16([]byte("123456789")))
	}
}

func TestAnnotateRDQStops(t *testing.T) {
	data := AppendMsgFileEntry(nil, MsgID{7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7}, []byte("not a term"))
	data = append(data, make([]byte, 10)...)
	a := Annotate("msg_store_persistent/0.rdq", data, 0)
	if got := spanList(a); got != "0+8 size, 8+16 msgId, 24+10 term, 34+1 marker, 35+10 unreadable" {
		t.Errorf("spans %s", got)
	}
	if got := inEnglish(t, a.Spans[0].Value) + "; " + inEnglish(t, a.Spans[3].Value) + "; " + inEnglish(t, a.Stop); got != "26 (16 + term); 0xFF: write OK; zero size field: nothing written after this" {
		t.Errorf("values: %s", got)
	}
	if a.Entries[0].MsgID != strings.Repeat("07", 16) {
		t.Errorf("entry %+v", a.Entries[0])
	}
	// an entry without its marker is invalid; one the node says nothing
	// points at is dead
	data = AppendMsgFileEntry(nil, MsgID{1}, []byte("x"))
	data = AppendMsgFileEntry(data, MsgID{2}, []byte("y"))
	data[len(data)-1] = 0
	a = Annotate("1.rdq", data, 0)
	a.MarkDead([]int64{0, a.Entries[1].Off})
	if a.Entries[0].State != StateDead || a.Entries[1].State != StateInvalid || inEnglish(t, a.Spans[len(a.Spans)-1].Value) != "0x00: not 0xFF, the scan skips this entry" {
		t.Errorf("entries %+v", a.Entries)
	}
}

func TestAnnotateV1(t *testing.T) {
	pub := append(make([]byte, 0, 32), []byte(strings.Repeat("\x01", 16))...)
	pub = be(pub, 0, 8)
	pub = be(pub, 100, 4)
	pub = be(pub, 0, 4)
	jif := append(be(nil, 5, 8), pub...)
	jif = append(jif, 0x80, 0, 0, 0, 0, 0, 0, 5, 0xc0, 0, 0, 0, 0, 0, 0, 5)
	j := Annotate("journal.jif", jif, 0)
	var got []string
	for _, e := range j.Entries {
		got = append(got, inEnglish(t, e.Label)+" "+e.State)
	}
	if strings.Join(got, ", ") != "publish seq 5 live, deliver seq 5 delivered, ack seq 5 acked" {
		t.Errorf("journal entries %v", got)
	}
	if inEnglish(t, j.Spans[0].Value) != "00: publish, persistent, seq 5" || inEnglish(t, j.Spans[4].Value) != "0: the body is in the message store" {
		t.Errorf("journal values %q, %q", inEnglish(t, j.Spans[0].Value), inEnglish(t, j.Spans[4].Value))
	}
	idx := append(append([]byte{0xc0, 3}, pub...), 0x40, 3, 0x40, 3)
	s := Annotate("queues/X/1.idx", idx, 2048)
	got = got[:0]
	for _, e := range s.Entries {
		got = append(got, inEnglish(t, e.Label)+" "+e.State)
	}
	if strings.Join(got, ", ") != "publish seq 2051 live, deliver seq 2051 delivered, ack seq 2051 acked" || inEnglish(t, s.Spans[0].Value) != "11: publish, persistent, rel seq 3" {
		t.Errorf("segment entries %v, first value %q", got, inEnglish(t, s.Spans[0].Value))
	}
}

func TestAnnotateWords(t *testing.T) {
	for _, c := range []struct {
		w    Words
		want string
	}{
		{bodyWords([]byte("small-01-aaaaaaaaaaaa")), `21 bytes: "small-01-aaaaaaa"...`},
		{bodyWords([]byte{0, 1}), "2 bytes"},
		{propertyWords([]byte{0x18, 0, 2, 3}), "flags 0x1800, delivery-mode 2, priority 3"},
		// content-type "t" before them is skipped by its length
		{propertyWords([]byte{0x90, 0, 1, 0x74, 2}), "flags 0x9000, delivery-mode 2"},
		// headers that run past the end: the flags alone
		{propertyWords([]byte{0x30, 0, 0, 0, 0, 9, 2}), "flags 0x3000"},
	} {
		if got := inEnglish(t, c.w); got != c.want {
			t.Errorf("%v says %q, want %q", c.w, got, c.want)
		}
	}
	for name, kind := range map[string]string{"queues/X/0.qi": "qi", "a/journal.jif": "jif", ".vhost": "", "0.rdq": "rdq", "3.idx": "idx", "0.qs": "qs"} {
		if Kind(name) != kind {
			t.Errorf("Kind(%q) = %q, want %q", name, Kind(name), kind)
		}
	}
}

// TestAnnotateMaxEntries: a file of more entries than an annotation lists
// names the first MaxAnnotatedEntries, and counts them all.
func TestAnnotateMaxEntries(t *testing.T) {
	data := segmentHeaderOf("RCQI")
	for range MaxAnnotatedEntries + 44 {
		data = append(data, make([]byte, 32)...)
	}
	a := Annotate("0.qi", data, 0)
	last := a.Spans[len(a.Spans)-1]
	if len(a.Entries) != MaxAnnotatedEntries || a.Total != MaxAnnotatedEntries+44 || last.Entry != MaxAnnotatedEntries-1 || a.Stop.Key != "" {
		t.Errorf("%d entries listed of %d, the last span %+v", len(a.Entries), a.Total, last)
	}
}

// TestAnnotateJSON: the JSON the Files view reads holds every span and
// entry with its words, a field's bytes (whole up to 64, else its head and
// tail), and parses as JSON whatever the names hold.
func TestAnnotateJSON(t *testing.T) {
	body := []byte(strings.Repeat("b", 100))
	m := NewMessage("ex\"\\\x01é\xff", "k", Properties{}.WithDeliveryMode(2), body, MsgID{9}, true)
	term, err := m.Encode()
	if err != nil {
		t.Fatal(err)
	}
	data := AppendMsgFileEntry(nil, MsgID{9}, term)
	a := Annotate("0.rdq", append(data, 1, 2, 3), 0)
	a.MarkDead([]int64{0})
	type words any
	var got struct {
		Kind   string `json:"kind"`
		Read   int64  `json:"read"`
		Fields []struct {
			Off   int64  `json:"off"`
			Len   int64  `json:"len"`
			Name  string `json:"name"`
			Value words  `json:"value"`
			Role  string `json:"role"`
			Entry int    `json:"entry"`
			Head  string `json:"head"`
			Tail  string `json:"tail"`
		} `json:"fields"`
		Entries []struct {
			Off      int64  `json:"off"`
			Len      int64  `json:"len"`
			Label    words  `json:"label"`
			State    string `json:"state"`
			Seq      int64  `json:"seq"`
			Msg      string `json:"msg"`
			QSOffset int64  `json:"qsOffset"`
		} `json:"entries"`
		Total int   `json:"total"`
		Stop  words `json:"stop"`
	}
	raw := a.AppendJSON(nil)
	if err := json.Unmarshal(raw, &got); err != nil {
		t.Fatalf("%v\n%s", err, raw)
	}
	if got.Kind != "rdq" || got.Read != int64(len(data)+3) || len(got.Fields) != len(a.Spans) || got.Total != 1 || len(got.Entries) != 1 {
		t.Fatalf("%s", raw)
	}
	for i, f := range got.Fields {
		s := a.Spans[i]
		head, tail := s.Bytes, []byte(nil)
		if len(head) > 64 {
			head, tail = head[:32], head[len(head)-16:]
		}
		v, _ := json.Marshal(f.Value)
		if f.Off != s.Off || f.Len != s.Len || f.Name != s.Name || f.Role != s.Role || f.Entry != s.Entry || f.Head != Hex(head) || f.Tail != Hex(tail) ||
			string(v) != wordsJSON(s.Value) {
			t.Errorf("field %d is %+v (value %s), want %+v", i, f, v, s)
		}
	}
	e := got.Entries[0]
	if e.State != StateDead || e.Msg != a.Entries[0].MsgID || e.Seq != -1 || e.QSOffset != -1 || e.Len != int64(len(data)) {
		t.Errorf("entry %+v", e)
	}
	if stop, _ := json.Marshal(got.Stop); string(stop) != `{"args":[],"key":"files.s.sizeCut"}` {
		t.Errorf("stop %s", stop)
	}
	var exchange string
	for _, f := range got.Fields {
		if f.Name == "files.f.exchange" {
			exchange, _ = f.Value.(string)
		}
	}
	if exchange != `"ex\"\\\x01é\xff"` {
		t.Errorf("the exchange's name is said %s", exchange)
	}
}

// wordsJSON is words as encoding/json writes what the view reads: a string,
// or {"args", "key"} with the arguments so again.
func wordsJSON(w Words) string {
	if w.Key == "" {
		b, _ := json.Marshal(w.Word)
		return string(b)
	}
	args := make([]string, len(w.Args))
	for i, a := range w.Args {
		args[i] = wordsJSON(a)
	}
	k, _ := json.Marshal(w.Key)
	return `{"args":[` + strings.Join(args, ",") + `],"key":` + string(k) + `}`
}
