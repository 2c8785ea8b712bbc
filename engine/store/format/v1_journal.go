package format

import (
	"encoding/binary"
	"fmt"
)

// Models the journal of rabbit_queue_index (publish/7, deliver_or_ack/3,
// parse_journal_entries/2).

// JournalKind is the 2-bit prefix of a journal record.
type JournalKind uint8

// Journal record kinds.
const (
	JournalPublishPersistent JournalKind = 0 // 00
	JournalPublishTransient  JournalKind = 1 // 01
	JournalDeliver           JournalKind = 2 // 10
	JournalAck               JournalKind = 3 // 11
)

// String names the kind.
func (k JournalKind) String() string {
	switch k {
	case JournalPublishPersistent:
		return "publish(persistent)"
	case JournalPublishTransient:
		return "publish(transient)"
	case JournalDeliver:
		return "deliver"
	case JournalAck:
		return "ack"
	}
	return fmt.Sprintf("journal(%d)", uint8(k))
}

// IsPublish reports whether the kind is one of the two publish kinds.
func (k JournalKind) IsPublish() bool { return k <= JournalPublishTransient }

// MaxSeqID is the largest seq id a 62-bit journal field holds.
const MaxSeqID = 1<<62 - 1

// PubRecord is the body shared by v1 journal and segment publish records.
type PubRecord struct {
	MsgID  MsgID
	Expiry uint64 // absolute expiry in microseconds since the epoch; 0 = none
	Size   uint32 // body size in bytes
	// Embedded is the message term when the body is embedded in the index
	// (bodies under queue_index_embed_msgs_below); empty when it lives in the
	// shared store. Decoders return a slice of the decoded data.
	Embedded []byte
}

// pubRecordBodySize is id + expiry + size; the embedded length follows.
const pubRecordBodySize = 16 + 8 + 4

func (p PubRecord) appendTo(dst []byte) []byte {
	dst = append(dst, p.MsgID[:]...)
	dst = binary.BigEndian.AppendUint64(dst, p.Expiry)
	dst = binary.BigEndian.AppendUint32(dst, p.Size)
	dst = binary.BigEndian.AppendUint32(dst, uint32(len(p.Embedded)))
	return append(dst, p.Embedded...)
}

// decodePubRecord parses a publish record body; ok is false when the data
// ends inside it.
func decodePubRecord(b []byte) (p PubRecord, n int, ok bool) {
	if len(b) < pubRecordBodySize+4 {
		return p, 0, false
	}
	copy(p.MsgID[:], b[:16])
	p.Expiry = binary.BigEndian.Uint64(b[16:])
	p.Size = binary.BigEndian.Uint32(b[24:])
	embedded := binary.BigEndian.Uint32(b[28:])
	if uint64(embedded) > uint64(len(b)-pubRecordBodySize-4) {
		return p, 0, false
	}
	n = pubRecordBodySize + 4 + int(embedded)
	p.Embedded = b[pubRecordBodySize+4 : n]
	return p, n, true
}

// JournalRecord is one record of journal.jif.
type JournalRecord struct {
	Offset int64 // byte offset in the file
	Kind   JournalKind
	SeqID  uint64
	Pub    PubRecord // publish records only
}

// AppendJournalRecord appends the encoding of r to dst.
func AppendJournalRecord(dst []byte, r JournalRecord) ([]byte, error) {
	if r.SeqID > MaxSeqID {
		return dst, fmt.Errorf("journal record: seq id %d does not fit in 62 bits", r.SeqID)
	}
	if r.Kind > JournalAck {
		return dst, fmt.Errorf("journal record: unknown kind %d", r.Kind)
	}
	dst = binary.BigEndian.AppendUint64(dst, uint64(r.Kind)<<62|r.SeqID)
	if r.Kind.IsPublish() {
		dst = r.Pub.appendTo(dst)
	}
	return dst, nil
}

// JournalStop says why decoding a journal ended.
type JournalStop uint8

// Reasons a journal scan stops.
const (
	JournalEOF       JournalStop = iota // reached the end of the file
	JournalZeroEntry                    // an all-zero publish record (a dirty shutdown's leftovers)
	JournalTruncated                    // the last record runs past the end of the file
)

// Journal is a decoded journal.jif.
type Journal struct {
	Records []JournalRecord
	End     int64 // offset after the last record read
	Stop    JournalStop
}

// DecodeJournal decodes journal.jif like parse_journal_entries: it stops at
// an all-zero publish record. A last record that runs past the end of the file
// is reported as an ErrTruncated error, with the records before it.
func DecodeJournal(file string, data []byte) (*Journal, error) {
	j := &Journal{}
	off := int64(0)
	for {
		rest := data[off:]
		if len(rest) == 0 {
			j.End, j.Stop = off, JournalEOF
			return j, nil
		}
		if len(rest) < 8 {
			j.End, j.Stop = off, JournalTruncated
			return j, decodeErr(file, off, ErrTruncated, "record prefix is %d bytes, want 8", len(rest))
		}
		word := binary.BigEndian.Uint64(rest)
		r := JournalRecord{Offset: off, Kind: JournalKind(word >> 62), SeqID: word & MaxSeqID}
		if !r.Kind.IsPublish() {
			j.Records = append(j.Records, r)
			off += 8
			continue
		}
		if word == 0 && len(rest) >= 8+pubRecordBodySize+4 && allZero(rest[8:8+pubRecordBodySize+4]) {
			j.End, j.Stop = off, JournalZeroEntry
			return j, nil
		}
		pub, n, ok := decodePubRecord(rest[8:])
		if !ok {
			j.End, j.Stop = off, JournalTruncated
			return j, decodeErr(file, off, ErrTruncated, "%s record of seq %d runs past the end of the file (%d bytes left)", r.Kind, r.SeqID, len(rest))
		}
		r.Pub = pub
		j.Records = append(j.Records, r)
		off += 8 + int64(n)
	}
}
