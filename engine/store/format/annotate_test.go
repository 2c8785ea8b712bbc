//go:build !js

package format

import (
	"encoding/hex"
	"fmt"
	"os"
	"path"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// These tests annotate every index, store and journal file RabbitMQ
// 3.10.8 wrote in the fixtures, say the annotation in English from the
// widget's catalog (annotate_words_test.go) and check each field against
// the layouts (rabbitmq-facts.md) and against this package's decoders.

// byteField is a span in English.
type byteField struct {
	Off   int64
	Len   int64
	Name  string
	Value string
	Role  string
	Entry int
}

// englishEntry is an entry in English.
type englishEntry struct {
	Off      int64
	Len      int64
	Label    string
	State    string
	SeqID    int64
	MsgID    string
	QSOffset int64
}

// englishAnnotation is an Annotation in English.
type englishAnnotation struct {
	Kind    string
	Size    int64
	Fields  []byteField
	Entries []englishEntry
	Total   int
	Stop    string
}

// inEnglishAnnotation says a in English.
func inEnglishAnnotation(t testing.TB, a *Annotation) englishAnnotation {
	t.Helper()
	out := englishAnnotation{Kind: a.Kind, Size: a.Size, Total: a.Total, Stop: inEnglish(t, a.Stop)}
	for _, s := range a.Spans {
		out.Fields = append(out.Fields, byteField{s.Off, s.Len, inEnglish(t, say(s.Name)), inEnglish(t, s.Value), s.Role, s.Entry})
	}
	for _, e := range a.Entries {
		out.Entries = append(out.Entries, englishEntry{e.Off, e.Len, inEnglish(t, e.Label), e.State, e.Seq, e.MsgID, e.QSOffset})
	}
	return out
}

// annotateAll annotates files (name -> path on disk) in English.
func annotateAll(t *testing.T, names, paths []string, perSegment int) []englishAnnotation {
	t.Helper()
	var as []englishAnnotation
	for i, p := range paths {
		data, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		as = append(as, inEnglishAnnotation(t, Annotate(names[i], data, perSegment)))
	}
	return as
}

// bodyText is what the view says of a body: its size and its first bytes
// as text when they are printable.
func bodyText(x []byte) string {
	head := x[:min(16, len(x))]
	s := strconv.Itoa(len(x)) + " bytes"
	for _, c := range head {
		if c < 0x20 || c > 0x7e {
			return s
		}
	}
	s += ": " + strconv.Quote(string(head))
	if len(x) > len(head) {
		s += "..."
	}
	return s
}

// fieldAt finds the field that starts at off.
func fieldAt(a englishAnnotation, off int64) (byteField, bool) {
	for _, f := range a.Fields {
		if f.Off == off {
			return f, true
		}
	}
	return byteField{}, false
}

// wantField checks that a field of the given name, length and value
// starts at off (value "" checks no value; a value ending in "*" is a
// prefix).
func wantField(t *testing.T, file string, a englishAnnotation, off, n int64, name, value string) {
	t.Helper()
	f, ok := fieldAt(a, off)
	if !ok {
		t.Errorf("%s: no field starts at %d (want %s)", file, off, name)
		return
	}
	if f.Name != name || f.Len != n {
		t.Errorf("%s@%d: field %q of %d bytes, want %q of %d", file, off, f.Name, f.Len, name, n)
	}
	if p, ok := strings.CutSuffix(value, "*"); ok {
		if !strings.HasPrefix(f.Value, p) {
			t.Errorf("%s@%d %s: value %q, want it to start with %q", file, off, name, f.Value, p)
		}
	} else if value != "" && f.Value != value {
		t.Errorf("%s@%d %s: value %q, want %q", file, off, name, f.Value, value)
	}
}

// checkTiles checks that the fields cover every byte of the file once, in
// order, and that each field lies inside its entry.
func checkTiles(t *testing.T, file string, a englishAnnotation, size int64) {
	t.Helper()
	at := int64(0)
	for _, f := range a.Fields {
		if f.Off != at {
			t.Errorf("%s: field %q starts at %d, the previous one ends at %d", file, f.Name, f.Off, at)
			return
		}
		if f.Entry >= 0 {
			e := a.Entries[f.Entry]
			if f.Off < e.Off || f.Off+f.Len > e.Off+e.Len {
				t.Errorf("%s: field %q [%d,%d) lies outside its entry %s [%d,%d)", file, f.Name, f.Off, f.Off+f.Len, e.Label, e.Off, e.Off+e.Len)
			}
		}
		at = f.Off + f.Len
	}
	if at != size || a.Stop != "" {
		t.Errorf("%s: the fields end at %d of %d bytes (stop: %q)", file, at, size, a.Stop)
	}
	if a.Size != size || a.Total != len(a.Entries) {
		t.Errorf("%s: size %d, %d of %d entries listed", file, a.Size, len(a.Entries), a.Total)
	}
}

// TestAnnotateFixtures annotates every index, store and journal file that
// RabbitMQ 3.10.8 wrote in the fixtures, and checks each field's offset and
// value against the layouts (rabbitmq-facts.md) and against this package's
// decoders; each message of CASE.md must show with its id and its body.
func TestAnnotateFixtures(t *testing.T) {
	kinds := map[string]int{}
	for _, c := range loadCases(t) {
		for _, sn := range c.Snapshots {
			if len(sn.Files) == 0 {
				continue
			}
			dir := filepath.Join(c.Dir, sn.Name)
			snap := readSnapshot(t, dir)
			var names, paths []string
			for _, p := range snap.paths() {
				if Kind(p) != "" {
					names, paths = append(names, p), append(paths, filepath.Join(dir, filepath.FromSlash(p)))
				}
			}
			if len(names) == 0 {
				continue
			}
			annotated := map[string]englishAnnotation{}
			for i, a := range annotateAll(t, names, paths, LegacyV1SegmentEntryCount) {
				annotated[names[i]] = a
			}
			ids := map[string]bool{}
			bodies := map[string]bool{}
			for _, p := range names {
				kind := Kind(p)
				data := snap[p]
				file := c.Name + "/" + sn.Name + "/" + p
				a := annotated[p]
				if a.Kind != kind {
					t.Fatalf("%s: kind %q", file, a.Kind)
				}
				kinds[kind]++
				checkTiles(t, file, a, int64(len(data)))
				switch kind {
				case "qi":
					checkQI(t, file, a, data)
					if qs, ok := annotated[strings.TrimSuffix(p, ".qi")+".qs"]; ok {
						checkQIToQS(t, file, a, qs)
					}
				case "qs":
					checkQS(t, file, a, data)
				case "rdq":
					checkRDQ(t, file, a, data)
				case "jif":
					checkJournal(t, file, a, data)
				case "idx":
					checkIdx(t, file, a, data, path.Base(p))
				}
				for _, f := range a.Fields {
					switch f.Name {
					case "msg id", "msg id (in term)":
						ids[f.Value] = true
					case "body":
						bodies[f.Value] = true
					}
				}
			}
			for _, m := range c.Messages {
				if m.ID == "" {
					continue
				}
				if !ids[m.ID] && snapHolds(snap, m.ID) {
					t.Errorf("%s/%s: message #%d (id %s) is in the bytes but no field names its id", c.Name, sn.Name, m.Index, m.ID)
				}
				if snapHolds(snap, m.ID) && len(m.Body) > 0 && !bodies[bodyText(m.Body)] && embeddedHere(snap, m.ID) {
					t.Errorf("%s/%s: message #%d: no body field says %q", c.Name, sn.Name, m.Index, bodyText(m.Body))
				}
			}
		}
	}
	for _, k := range []string{"qi", "qs", "rdq", "jif", "idx"} {
		if kinds[k] == 0 {
			t.Errorf("no fixture file of kind %s was annotated", k)
		}
	}
}

// snapHolds says whether the id's 16 bytes are in some file of the
// snapshot.
func snapHolds(snap snapshot, id string) bool {
	raw, _ := hex.DecodeString(id)
	for _, d := range snap {
		if strings.Contains(string(d), string(raw)) {
			return true
		}
	}
	return false
}

// embeddedHere says whether the snapshot holds the message's term (a body
// and not only the id): in a .qs, an .rdq, or embedded in a v1 record.
func embeddedHere(snap snapshot, id string) bool {
	raw, _ := hex.DecodeString(id)
	term := append([]byte{tagBinary, 0, 0, 0, 16}, raw...)
	for _, d := range snap {
		if strings.Contains(string(d), string(term)) {
			return true
		}
	}
	return false
}

func checkHeader(t *testing.T, file string, a englishAnnotation, data []byte, magic string) {
	t.Helper()
	wantField(t, file, a, 0, 4, "magic", magic)
	wantField(t, file, a, 4, 1, "version", "2")
	wantField(t, file, a, 5, 8, "first seq id", "0")
	wantField(t, file, a, 13, 8, "end seq id", "4096*")
	wantField(t, file, a, 21, 43, "reserved", "zeroes")
}

func checkQI(t *testing.T, file string, a englishAnnotation, data []byte) {
	if len(data) == 0 {
		return
	}
	checkHeader(t, file, a, data, "RCQI")
	seg, err := DecodeIndexSegment(path.Base(file), data)
	if err != nil {
		t.Fatalf("%s: %v", file, err)
	}
	if len(a.Entries) != len(seg.Slots) {
		t.Fatalf("%s: %d entries, the decoder finds %d slots", file, len(a.Entries), len(seg.Slots))
	}
	for i, s := range seg.Slots {
		e, off := a.Entries[i], s.Offset
		if e.Off != off || e.Len != 32 || e.SeqID != int64(s.SeqID) || e.Label != "seq "+strconv.FormatUint(s.SeqID, 10) {
			t.Errorf("%s: entry %d is %+v, want slot of seq %d at %d", file, i, e, s.SeqID, off)
		}
		if off != 64+int64(s.SeqID)*32 {
			t.Errorf("%s: seq %d at %d, want 64 + seq*32", file, s.SeqID, off)
		}
		if s.Zero {
			wantField(t, file, a, off, 32, "acked slot", "")
			if e.State != "acked" {
				t.Errorf("%s: zeroed slot of seq %d reads %q", file, s.SeqID, e.State)
			}
			continue
		}
		if e.State != "live" {
			t.Errorf("%s: present slot of seq %d reads %q", file, s.SeqID, e.State)
		}
		wantField(t, file, a, off, 1, "status", "1: entry")
		flags := "0: transient"
		if s.Entry.Persistent() {
			flags = "1: persistent"
		}
		wantField(t, file, a, off+1, 1, "flags", flags)
		wantField(t, file, a, off+2, 1, "unused", "0")
		loc := s.Entry.Location
		wantField(t, file, a, off+3, 1, "location", fmt.Sprintf("%d: *", loc.Kind))
		switch loc.Kind {
		case LocMsgStore:
			wantField(t, file, a, off+4, 16, "msg id", hex.EncodeToString(loc.MsgID[:]))
		case LocQueueStore:
			wantField(t, file, a, off+4, 8, "qs offset", strconv.FormatUint(loc.Offset, 10))
			wantField(t, file, a, off+12, 4, "qs size", strconv.FormatUint(uint64(loc.Size), 10))
			wantField(t, file, a, off+16, 4, "padding", "zeroes")
		}
		wantField(t, file, a, off+20, 4, "body size", strconv.FormatUint(uint64(s.Entry.Size), 10))
		wantField(t, file, a, off+24, 8, "expiry", "0: none")
	}
}

// checkQIToQS checks that every slot whose body is in the .qs points at an
// entry of the annotated .qs of that size.
func checkQIToQS(t *testing.T, file string, qi, qs englishAnnotation) {
	starts := map[int64]int64{}
	for _, e := range qs.Entries {
		starts[e.Off] = e.Len
	}
	for _, e := range qi.Entries {
		if e.QSOffset < 0 {
			continue
		}
		n, ok := starts[e.QSOffset]
		f, _ := fieldAt(qi, e.Off+12)
		if !ok || strconv.FormatInt(n-8, 10) != f.Value {
			t.Errorf("%s: %s points at .qs offset %d (size %s): the .qs has an entry there %v of %d bytes", file, e.Label, e.QSOffset, f.Value, ok, n)
		}
	}
}

func checkTerm(t *testing.T, file string, a englishAnnotation, off int64, term []byte) {
	t.Helper()
	m, err := DecodeMessage(file, off, term)
	if err != nil {
		t.Fatalf("%s@%d: %v", file, off, err)
	}
	wantField(t, file, a, off, 1, "term version", "131*")
	var body byteField
	for _, f := range a.Fields {
		if f.Name == "body" && f.Off > off && f.Off < off+int64(len(term)) {
			body = f
		}
	}
	if body.Value != bodyText(m.Payload()) || string(term[body.Off-off:body.Off-off+body.Len]) != string(m.Payload()) {
		t.Errorf("%s@%d: the body field is %+v, want the %d body bytes", file, off, body, len(m.Payload()))
	}
	wantIn := func(name, value string) {
		for _, f := range a.Fields {
			if f.Name == name && f.Value == value && f.Off > off && f.Off < off+int64(len(term)) {
				return
			}
		}
		t.Errorf("%s@%d: no %s field %q in the term", file, off, name, value)
	}
	if m.Exchange != "" {
		wantIn("exchange", strconv.Quote(m.Exchange))
	}
	wantIn("routing key", strconv.Quote(m.RoutingKeys[0]))
	wantIn("msg id (in term)", hex.EncodeToString(m.ID[:]))
	props := "flags 0x" + hex.EncodeToString([]byte{byte(m.Properties.Present >> 8), byte(m.Properties.Present)})
	if m.Properties.Has(FlagDeliveryMode) {
		props += ", delivery-mode " + strconv.Itoa(int(m.Properties.DeliveryMode))
	}
	if m.Properties.Has(FlagPriority) {
		props += ", priority " + strconv.Itoa(int(m.Properties.Priority))
	}
	wantIn("properties", props)
}

func checkQS(t *testing.T, file string, a englishAnnotation, data []byte) {
	if len(data) == 0 {
		return
	}
	checkHeader(t, file, a, data, "RCQS")
	q, err := DecodeQueueStore(path.Base(file), data)
	if err != nil {
		t.Fatalf("%s: %v", file, err)
	}
	if len(a.Entries) != len(q.Entries) {
		t.Fatalf("%s: %d entries, the decoder finds %d", file, len(a.Entries), len(q.Entries))
	}
	for i, e := range q.Entries {
		if a.Entries[i].Off != e.Offset || a.Entries[i].Len != 8+int64(e.Size) {
			t.Errorf("%s: entry %d at %d, want %d", file, i, a.Entries[i].Off, e.Offset)
		}
		wantField(t, file, a, e.Offset, 4, "term size", strconv.FormatUint(uint64(e.Size), 10))
		wantField(t, file, a, e.Offset+4, 1, "flags", "1: CRC present")
		wantField(t, file, a, e.Offset+5, 2, "crc16", strconv.Itoa(int(e.CRC16))+": matches")
		wantField(t, file, a, e.Offset+7, 1, "unused", "0")
		checkTerm(t, file, a, e.Offset+8, e.Payload)
	}
}

func checkRDQ(t *testing.T, file string, a englishAnnotation, data []byte) {
	f, err := DecodeMsgFile(path.Base(file), data)
	if err != nil {
		t.Fatalf("%s: %v", file, err)
	}
	if len(a.Entries) != len(f.Entries) {
		t.Fatalf("%s: %d entries, the decoder finds %d", file, len(a.Entries), len(f.Entries))
	}
	for i, e := range f.Entries {
		ae := a.Entries[i]
		if ae.Off != e.Offset || ae.Len != e.TotalSize() || ae.MsgID != hex.EncodeToString(e.MsgID[:]) || ae.State != "live" {
			t.Errorf("%s: entry %d is %+v, want %d bytes at %d", file, i, ae, e.TotalSize(), e.Offset)
		}
		wantField(t, file, a, e.Offset, 8, "size", strconv.FormatUint(e.Size, 10)+" (16 + term)")
		wantField(t, file, a, e.Offset+8, 16, "msg id", hex.EncodeToString(e.MsgID[:]))
		checkTerm(t, file, a, e.Offset+24, e.Payload)
		wantField(t, file, a, e.Offset+e.TotalSize()-1, 1, "marker", "0xFF: write OK")
	}
}

func checkPub(t *testing.T, file string, a englishAnnotation, off int64, p PubRecord) {
	t.Helper()
	wantField(t, file, a, off, 16, "msg id", hex.EncodeToString(p.MsgID[:]))
	wantField(t, file, a, off+16, 8, "expiry", "0: none")
	wantField(t, file, a, off+24, 4, "body size", strconv.FormatUint(uint64(p.Size), 10))
	wantField(t, file, a, off+28, 4, "embedded size", strconv.Itoa(len(p.Embedded))+"*")
	if len(p.Embedded) > 0 {
		checkTerm(t, file, a, off+32, p.Embedded)
	}
}

func checkJournal(t *testing.T, file string, a englishAnnotation, data []byte) {
	j, err := DecodeJournal(path.Base(file), data)
	if err != nil {
		t.Fatalf("%s: %v", file, err)
	}
	if len(a.Entries) != len(j.Records) {
		t.Fatalf("%s: %d entries, the decoder finds %d records", file, len(a.Entries), len(j.Records))
	}
	for i, r := range j.Records {
		if a.Entries[i].Off != r.Offset || a.Entries[i].SeqID != int64(r.SeqID) {
			t.Errorf("%s: entry %d is %+v, want seq %d at %d", file, i, a.Entries[i], r.SeqID, r.Offset)
		}
		wantField(t, file, a, r.Offset, 8, "kind and seq id", fmt.Sprintf("%02b: *", uint8(r.Kind)))
		if !strings.HasSuffix(fieldValue(a, r.Offset), fmt.Sprintf("seq %d", r.SeqID)) {
			t.Errorf("%s@%d: %q does not end in seq %d", file, r.Offset, fieldValue(a, r.Offset), r.SeqID)
		}
		if r.Kind.IsPublish() {
			checkPub(t, file, a, r.Offset+8, r.Pub)
		}
	}
}

func fieldValue(a englishAnnotation, off int64) string {
	f, _ := fieldAt(a, off)
	return f.Value
}

func checkIdx(t *testing.T, file string, a englishAnnotation, data []byte, base string) {
	s, err := DecodeIdxSegment(base, data)
	if err != nil {
		t.Fatalf("%s: %v", file, err)
	}
	if len(a.Entries) != len(s.Records) {
		t.Fatalf("%s: %d entries, the decoder finds %d records", file, len(a.Entries), len(s.Records))
	}
	seg, _ := strconv.Atoi(strings.TrimSuffix(base, ".idx"))
	for i, r := range s.Records {
		e := a.Entries[i]
		if e.Off != r.Offset || e.SeqID != int64(seg*LegacyV1SegmentEntryCount+int(r.RelSeq)) || !strings.HasPrefix(e.Label, r.Kind.String()+" seq ") {
			t.Errorf("%s: entry %d is %+v, want %s of rel seq %d at %d", file, i, e, r.Kind, r.RelSeq, r.Offset)
		}
		wantField(t, file, a, r.Offset, 2, "kind and rel seq", "")
		if !strings.Contains(fieldValue(a, r.Offset), fmt.Sprintf("rel seq %d", r.RelSeq)) {
			t.Errorf("%s@%d: %q does not name rel seq %d", file, r.Offset, fieldValue(a, r.Offset), r.RelSeq)
		}
		if r.Kind == IdxPublish {
			checkPub(t, file, a, r.Offset+2, r.Pub)
		}
	}
}

// TestAnnotateDamaged: bytes no layout explains are one field, and the
// walk says why it stopped.
func TestAnnotateDamaged(t *testing.T) {
	var rdq []byte
	rdq = AppendMsgFileEntry(rdq, MsgID{1}, []byte("not a term"))
	rdq = append(rdq, 0, 0, 0, 0, 0, 0, 0, 0, 9, 9)
	dir := t.TempDir()
	for name, data := range map[string][]byte{"0.rdq": rdq, "0.qi": []byte("RCQX")} {
		if err := os.WriteFile(filepath.Join(dir, name), data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	as := annotateAll(t, []string{"0.rdq", "0.qi"}, []string{filepath.Join(dir, "0.rdq"), filepath.Join(dir, "0.qi")}, 0)
	a := as[0]
	if len(a.Entries) != 1 || a.Stop == "" {
		t.Fatalf("entries %d, stop %q", len(a.Entries), a.Stop)
	}
	last := a.Fields[len(a.Fields)-1]
	if last.Name != "unreadable" || last.Off != int64(len(rdq)-10) || last.Len != 10 {
		t.Errorf("last field %+v", last)
	}
	wantField(t, "0.rdq", a, 24, 10, "term", "10 bytes, not a stored message")
	qi := as[1]
	if len(qi.Fields) != 1 || qi.Fields[0].Name != "unreadable" || !strings.Contains(qi.Stop, "header") {
		t.Errorf("short .qi: %+v", qi)
	}
}
