package format

import (
	"encoding/binary"
	"strconv"
	"strings"
)

// An annotation reads a file's bytes as the Files view shows them: every
// byte of a .qi (rabbit_classic_queue_index_v2), .qs
// (rabbit_classic_queue_store_v2), .rdq (rabbit_msg_file), journal.jif or
// .idx (rabbit_queue_index) named as a field of its layout, with its
// offset, its size and its value in words, and grouped into the file's
// entries, each with its state. Unlike the decoders, it reads what it can
// of a damaged file and says where and why it stopped.

// MaxAnnotatedEntries bounds the entries an annotation lists; Total
// counts them all.
const MaxAnnotatedEntries = 256

// Words is a value or a label in the reader's words: a key of the widget's
// catalogs (site/static/widget/i18n-LANG.js: files.v.*, files.l.*,
// files.s.*, files.w.*) with its arguments {a}, {b}, ... in order, or,
// without a key, Word as it is, in no language (a number, hex digits, a
// quoted name).
type Words struct {
	Key  string
	Args []Words
	Word string
}

// Span is one run of bytes with a name in its file's layout.
type Span struct {
	Off, Len int64
	// Name is the catalog key of the field's name (files.f.magic).
	Name  string
	Value Words
	// Role is the kind of field, which the view colours: header, pad,
	// status, flags, location, id, size, expiry, crc, marker, seq, term,
	// body.
	Role string
	// Entry is the index of the entry the span belongs to, or -1 for the
	// file's header and for bytes no layout explains.
	Entry int
	// Bytes are the span's bytes (a slice of the annotated data).
	Bytes []byte
}

// Entry states.
const (
	StateLive      = "live"      // a slot or an entry holding a message
	StateAcked     = "acked"     // a zeroed slot, an ack record
	StateDelivered = "delivered" // a deliver record
	StateInvalid   = "invalid"   // an .rdq entry without its write-OK marker
	StateDead      = "dead"      // whole, but the node says nothing points at it
)

// AnnotatedEntry is one record of a file: a slot, a store entry, a
// journal or segment record.
type AnnotatedEntry struct {
	Off, Len int64
	Label    Words
	State    string
	Seq      int64  // its seq id, or -1
	MsgID    string // the message id in hex, or ""
	QSOffset int64  // where in the .qs a slot's message is, or -1
}

// Annotation is a file's bytes, field by field.
type Annotation struct {
	Kind    string // qi, qs, rdq, jif, idx, or "" for a file of no layout
	Size    int64  // the bytes annotated
	Spans   []Span
	Entries []AnnotatedEntry
	Total   int   // the entries, also those past MaxAnnotatedEntries
	Stop    Words // why the read stopped before the end, or none
}

// Kind names a file's layout from its name: qi, qs, rdq, jif, idx or "".
func Kind(name string) string {
	for _, k := range [...]string{"qi", "qs", "rdq", "idx", "jif"} {
		if strings.HasSuffix(name, "."+k) {
			return k
		}
	}
	return ""
}

// Annotate reads data, the bytes of the file name, by the layout its name
// says. perSegment is the v1 segment size of the vhost's .config (2048),
// which turns an .idx record's relative seq into a seq id (0 when it is
// not known). Bytes no layout explains (after a damaged record) are one
// span, files.f.unreadable, whose value is why the read stopped; spans
// stop after MaxAnnotatedEntries entries.
func Annotate(name string, data []byte, perSegment int) *Annotation {
	a := &annotator{data: data, entry: -1}
	a.Kind, a.Size = Kind(name), int64(len(data))
	end := int64(0)
	switch a.Kind {
	case "qi":
		if end = a.segmentHeader("RCQI"); end > 0 {
			end = a.indexSlots()
		}
	case "qs":
		if end = a.segmentHeader("RCQS"); end > 0 {
			end = a.queueStore()
		}
	case "rdq":
		end = a.msgFile()
	case "jif":
		end = a.journal()
	case "idx":
		seg := int64(0)
		if n, err := strconv.ParseInt(strings.TrimSuffix(baseName(name), ".idx"), 10, 64); err == nil && perSegment > 0 {
			seg = n
		}
		end = a.idxSegment(seg, int64(perSegment))
	}
	if end < a.Size && !a.full {
		a.entry = -1
		a.add(end, a.Size-end, "files.f.unreadable", "pad", a.Stop)
	}
	return &a.Annotation
}

// MarkDead marks the live entries that start at the offsets dead: the
// ones the node says nothing points at although their bytes are whole.
func (a *Annotation) MarkDead(dead []int64) {
	for i := range a.Entries {
		e := &a.Entries[i]
		for _, off := range dead {
			if e.Off == off && e.State == StateLive {
				e.State = StateDead
			}
		}
	}
}

// annotator builds an annotation, one span after the other.
type annotator struct {
	Annotation
	data  []byte
	entry int  // the entry spans are added to
	full  bool // MaxAnnotatedEntries are listed
}

// say is words of a catalog key.
//
//go:noinline
func say(key string, args ...Words) Words { return Words{Key: key, Args: args} }

// word is words said as they are.
func word(s string) Words { return Words{Word: s} }

func num(n int64) Words { return word(strconv.FormatInt(n, 10)) }

func unum(n uint64) Words { return word(strconv.FormatUint(n, 10)) }

// quoted is bytes as a quoted string.
func quoted(b []byte) Words { return word(strconv.Quote(string(b))) }

func (a *annotator) stop(key string, args ...Words) { a.Stop = say(key, args...) }

func (a *annotator) add(off, n int64, name, role string, value Words) {
	if a.full || n <= 0 {
		return
	}
	a.Spans = append(a.Spans, Span{Off: off, Len: n, Name: name, Value: value, Role: role, Entry: a.entry, Bytes: a.data[off : off+n]})
}

// begin starts an entry; false when the annotation lists no more of them.
func (a *annotator) begin(e AnnotatedEntry) bool {
	a.Total++
	if len(a.Entries) >= MaxAnnotatedEntries {
		a.full = true
		return false
	}
	a.Entries = append(a.Entries, e)
	a.entry = len(a.Entries) - 1
	return true
}

func (a *annotator) u16(off int64) uint16 { return binary.BigEndian.Uint16(a.data[off:]) }
func (a *annotator) u32(off int64) uint32 { return binary.BigEndian.Uint32(a.data[off:]) }
func (a *annotator) u64(off int64) uint64 { return binary.BigEndian.Uint64(a.data[off:]) }

// zeroWords says whether bytes are all zero.
func zeroWords(b []byte) Words {
	if allZero(b) {
		return say("files.v.zeroes")
	}
	return say("files.v.notZero")
}

// expiryWords is an expiry in µs since the epoch, 0 for none.
func expiryWords(us uint64) Words {
	if us == 0 {
		return say("files.v.noExpiry")
	}
	return say("files.v.expiry", unum(us))
}

// entry is an entry at off of n bytes with no seq, message or .qs offset.
func entry(off, n int64, label Words, state string) AnnotatedEntry {
	return AnnotatedEntry{Off: off, Len: n, Label: label, State: state, Seq: -1, QSOffset: -1}
}

// segmentHeader names the 64-byte header of a .qi or .qs file; it returns
// where the slots or entries start, or 0 when the header is not one.
func (a *annotator) segmentHeader(magic string) int64 {
	d := a.data
	if len(d) < HeaderSize {
		if len(d) > 0 {
			a.stop("files.s.shortHeader", num(int64(len(d))), num(HeaderSize))
		}
		return 0
	}
	if string(d[:4]) != magic {
		a.stop("files.s.wrongMagic", quoted(d[:4]))
		return 0
	}
	first, end := a.u64(5), a.u64(13)
	a.add(0, 4, "files.f.magic", "header", word(magic))
	a.add(4, 1, "files.f.version", "header", num(int64(d[4])))
	a.add(5, 8, "files.f.firstSeq", "header", unum(first))
	a.add(13, 8, "files.f.endSeq", "header", say("files.v.endSeq", unum(end), num(int64(end-first))))
	a.add(21, HeaderSize-21, "files.f.reserved", "pad", zeroWords(d[21:HeaderSize]))
	return HeaderSize
}

// indexSlots names the 32-byte slots of a .qi after its header.
func (a *annotator) indexSlots() int64 {
	d := a.data
	first := a.u64(5)
	off := int64(HeaderSize)
	for ; off+EntrySize <= a.Size; off += EntrySize {
		b := d[off : off+EntrySize]
		seq := first + uint64(off-HeaderSize)/EntrySize
		present := b[0] == 1
		e := entry(off, EntrySize, word("seq "+strconv.FormatUint(seq, 10)), StateAcked)
		e.Seq = int64(seq)
		if present {
			e.State = StateLive
			switch LocationKind(b[3]) {
			case LocMsgStore:
				e.MsgID = Hex(b[4:20])
			case LocQueueStore:
				e.QSOffset = int64(a.u64(off + 4))
			}
		}
		if !a.begin(e) {
			continue
		}
		if allZero(b) {
			a.add(off, EntrySize, "files.f.ackedSlot", "pad", say("files.v.ackedSlot"))
			continue
		}
		status, flags := say("files.v.noEntry"), say("files.v.transient")
		if present {
			status = say("files.v.entry")
		}
		if b[1]&1 == 1 {
			flags = say("files.v.persistent")
		}
		a.add(off, 1, "files.f.status", "status", status)
		a.add(off+1, 1, "files.f.flags", "flags", flags)
		a.add(off+2, 1, "files.f.unused", "pad", num(int64(b[2])))
		where := [...]string{"files.v.memoryOnly", "files.v.sharedStore", "files.v.queueStore", "files.v.unknownLocation"}[min(b[3], 3)]
		a.add(off+3, 1, "files.f.location", "location", say(where, num(int64(b[3]))))
		switch LocationKind(b[3]) {
		case LocMsgStore:
			a.add(off+4, 16, "files.f.msgId", "id", word(e.MsgID))
		case LocQueueStore:
			a.add(off+4, 8, "files.f.qsOffset", "location", unum(a.u64(off+4)))
			a.add(off+12, 4, "files.f.qsSize", "size", unum(uint64(a.u32(off+12))))
			a.add(off+16, 4, "files.f.padding", "pad", zeroWords(b[16:20]))
		default:
			a.add(off+4, 16, "files.f.locationBytes", "pad", zeroWords(b[4:20]))
		}
		a.add(off+20, 4, "files.f.bodySize", "size", unum(uint64(a.u32(off+20))))
		a.add(off+24, 8, "files.f.expiry", "expiry", expiryWords(a.u64(off+24)))
	}
	if off < a.Size {
		a.stop("files.s.shortSlot", num(a.Size-off), num(EntrySize))
	}
	return off
}

// queueStore names the entries of a .qs after its header.
func (a *annotator) queueStore() int64 {
	d := a.data
	off := int64(HeaderSize)
	for n := int64(0); off < a.Size; n++ {
		left := a.Size - off
		if left < QSEntryHeaderSize {
			a.stop("files.s.shortEntryHeader", num(left), num(QSEntryHeaderSize))
			return off
		}
		size := int64(a.u32(off))
		if size == 0 || size > left-QSEntryHeaderSize {
			a.stop("files.s.entryPastEnd", num(size))
			return off
		}
		total := QSEntryHeaderSize + size
		if a.begin(entry(off, total, say("files.l.entry", num(n)), StateLive)) {
			payload := d[off+QSEntryHeaderSize : off+total]
			crc := a.u16(off + 5)
			flags, crcWords := say("files.v.noCrc"), num(int64(crc))
			if d[off+4]&1 == 1 {
				flags, crcWords = say("files.v.crcPresent"), say("files.v.crcMatches", crcWords)
				if CRC16(payload) != crc {
					crcWords.Key = "files.v.crcDiffers"
				}
			}
			a.add(off, 4, "files.f.termSize", "size", num(size))
			a.add(off+4, 1, "files.f.flags", "flags", flags)
			a.add(off+5, 2, "files.f.crc16", "crc", crcWords)
			a.add(off+7, 1, "files.f.unused", "pad", num(int64(d[off+7])))
			a.term(off+QSEntryHeaderSize, payload)
		}
		off += total
	}
	return off
}

// msgFile names the entries of an .rdq.
func (a *annotator) msgFile() int64 {
	d := a.data
	off := int64(0)
	for n := int64(0); off < a.Size; n++ {
		left := a.Size - off
		if left < 8 {
			a.stop("files.s.sizeCut")
			return off
		}
		size := a.u64(off)
		if size == 0 {
			a.stop("files.s.zeroSize")
			return off
		}
		if size < 16 || size > uint64(left) || uint64(left)-size < MsgFileEntryOverhead {
			a.stop("files.s.sizePastEnd", unum(size))
			return off
		}
		total := int64(size) + MsgFileEntryOverhead
		marker := d[off+total-1]
		e := entry(off, total, say("files.l.entry", num(n)), StateInvalid)
		e.MsgID = Hex(d[off+8 : off+24])
		markerWords := say("files.v.notWritten", word("0x"+string([]byte{"0123456789ABCDEF"[marker>>4], "0123456789ABCDEF"[marker&15]})))
		if marker == WriteOKMarker {
			e.State, markerWords.Key = StateLive, "files.v.writeOK"
		}
		if a.begin(e) {
			a.add(off, 8, "files.f.size", "size", say("files.v.rdqSize", unum(size)))
			a.add(off+8, 16, "files.f.msgId", "id", word(e.MsgID))
			a.term(off+24, d[off+24:off+total-1])
			a.add(off+total-1, 1, "files.f.marker", "marker", markerWords)
		}
		off += total
	}
	return off
}

// pubLength is the length of a v1 publish record body at off, or -1 when
// it runs past the end of the file.
func (a *annotator) pubLength(off int64) int64 {
	if a.Size-off < pubRecordBodySize+4 {
		return -1
	}
	emb := int64(a.u32(off + 28))
	if emb > a.Size-off-pubRecordBodySize-4 {
		return -1
	}
	return pubRecordBodySize + 4 + emb
}

// pubRecord names a v1 publish record body at off.
func (a *annotator) pubRecord(off int64) {
	emb := int64(a.u32(off + 28))
	a.add(off, 16, "files.f.msgId", "id", word(Hex(a.data[off:off+16])))
	a.add(off+16, 8, "files.f.expiry", "expiry", expiryWords(a.u64(off+16)))
	a.add(off+24, 4, "files.f.bodySize", "size", unum(uint64(a.u32(off+24))))
	embedded := num(emb)
	if emb == 0 {
		embedded = say("files.v.inStore")
	}
	a.add(off+28, 4, "files.f.embeddedSize", "size", embedded)
	a.term(off+32, a.data[off+32:off+32+emb])
}

// persistence is the word of a v1 publish record's persistence.
func persistence(persistent bool) Words {
	if persistent {
		return say("files.w.persistent")
	}
	return say("files.w.transient")
}

// journal names the records of journal.jif.
func (a *annotator) journal() int64 {
	off := int64(0)
	for off < a.Size {
		if a.Size-off < 8 {
			a.stop("files.s.prefixCut")
			return off
		}
		word64 := a.u64(off)
		kind := JournalKind(word64 >> 62)
		seq := word64 & MaxSeqID
		n := int64(8)
		if kind.IsPublish() {
			if a.Size-off >= 40 && allZero(a.data[off:off+40]) {
				a.stop("files.s.zeroRecord")
				return off
			}
			m := a.pubLength(off + 8)
			if m < 0 {
				a.stop("files.s.publishPastEnd")
				return off
			}
			n += m
		}
		bits, seqWords := word(strconv.FormatUint(uint64(kind)>>1, 10)+strconv.FormatUint(uint64(kind)&1, 10)), unum(seq)
		e := entry(off, n, say("files.l.publish", seqWords), StateLive)
		e.Seq = int64(seq)
		prefix := say("files.v.publishSeq", bits, persistence(kind == JournalPublishPersistent), seqWords)
		switch kind {
		case JournalDeliver:
			e.Label, e.State, prefix = say("files.l.deliver", seqWords), StateDelivered, say("files.v.deliverSeq", bits, seqWords)
		case JournalAck:
			e.Label, e.State, prefix = say("files.l.ack", seqWords), StateAcked, say("files.v.ackSeq", bits, seqWords)
		default:
			e.MsgID = Hex(a.data[off+8 : off+24])
		}
		if a.begin(e) {
			a.add(off, 8, "files.f.kindSeq", "seq", prefix)
			if kind.IsPublish() {
				a.pubRecord(off + 8)
			}
		}
		off += n
	}
	return off
}

// idxSegment names the records of segment seg of a v1 queue index, of
// perSegment seq ids each (0 when not known: the records' seq ids are -1).
func (a *annotator) idxSegment(seg, perSegment int64) int64 {
	seen := map[int64]int{}
	off := int64(0)
	for off < a.Size {
		if a.Size-off < 2 {
			a.stop("files.s.prefixCut")
			return off
		}
		w := a.u16(off)
		rel := int64(w & MaxRelSeq)
		seq := int64(-1)
		if perSegment > 0 {
			seq = seg*perSegment + rel
		}
		n := int64(2)
		seqWords, relWords := num(seq), num(rel)
		e := entry(off, n, say("files.l.publish", seqWords), StateLive)
		e.Seq = seq
		var prefix Words
		switch {
		case w&(1<<15) != 0:
			p := a.pubLength(off + 2)
			if p < 0 {
				a.stop("files.s.publishPastEnd")
				return off
			}
			n += p
			e.MsgID = Hex(a.data[off+2 : off+18])
			bits := "10"
			if w&(1<<14) != 0 {
				bits = "11"
			}
			prefix = say("files.v.publishRel", word(bits), persistence(bits == "11"), relWords)
		case w&(1<<14) != 0:
			if seen[rel] == 0 {
				e.Label, e.State, prefix = say("files.l.deliver", seqWords), StateDelivered, say("files.v.deliverRel", relWords)
			} else {
				e.Label, e.State, prefix = say("files.l.ack", seqWords), StateAcked, say("files.v.ackRel", relWords)
			}
			seen[rel]++
		default:
			a.stop("files.s.prefix00")
			return off
		}
		e.Len = n
		if a.begin(e) {
			a.add(off, 2, "files.f.kindRelSeq", "seq", prefix)
			if n > 2 {
				a.pubRecord(off + 2)
			}
		}
		off += n
	}
	return off
}
