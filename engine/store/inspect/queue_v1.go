package inspect

import (
	"fmt"
	"path"

	"warren/engine/store/format"
)

// Reads a queue directory written by rabbit_queue_index: the .idx segments,
// then the journal on top of them (segment_plus_journal/2).

// readV1 builds the entries from the segments and the journal.
func (in *inspector) readV1(q *Queue, idxNames []string, journal bool) {
	entries := map[uint64]*Entry{}
	var order []uint64
	get := func(seq uint64, source string) *Entry {
		if e, ok := entries[seq]; ok {
			return e
		}
		e := &Entry{SeqID: seq, Source: source, State: Acked, Note: "deliver or ack without a publish record"}
		entries[seq] = e
		order = append(order, seq)
		return e
	}
	count := uint64(in.report.SegmentEntryCount)
	for _, n := range idxNames {
		rel := path.Join(q.Dir, n)
		data, ok := in.read(rel)
		if !ok {
			continue
		}
		seg, err := format.DecodeIdxSegment(rel, data)
		if err != nil {
			in.problem(rel, err)
		}
		num, nerr := format.ParseSegmentFileName(n, format.ExtIndexV1)
		summary := fmt.Sprintf("seq %d..%d, %s", num*count, num*count+count-1, plural(len(seg.Records), "record"))
		if nerr != nil {
			in.problem(rel, fmt.Errorf("%s: %v", rel, nerr))
			summary = plural(len(seg.Records), "record")
		}
		q.Files = append(q.Files, FileInfo{File{rel, int64(len(data))}, summary})
		if nerr != nil {
			continue
		}
		for _, r := range seg.Records {
			seq := num*count + uint64(r.RelSeq)
			source := fmt.Sprintf("%s@%d", n, r.Offset)
			switch r.Kind {
			case format.IdxPublish:
				in.v1Publish(q, get(seq, source), rel, r.Offset+2, r.Persistent, r.Pub, source)
			case format.IdxDeliver:
				markDelivered(get(seq, source))
			case format.IdxAck:
				get(seq, source).State = Acked
			}
		}
	}
	if journal {
		rel := path.Join(q.Dir, format.JournalName)
		if data, ok := in.read(rel); ok {
			j, err := format.DecodeJournal(rel, data)
			if err != nil {
				in.problem(rel, err)
			}
			summary := plural(len(j.Records), "record")
			if j.Stop == format.JournalZeroEntry {
				summary += fmt.Sprintf(", zero record at %d ends it", j.End)
			}
			q.Files = append(q.Files, FileInfo{File{rel, int64(len(data))}, summary})
			for _, r := range j.Records {
				source := fmt.Sprintf("%s@%d", format.JournalName, r.Offset)
				switch r.Kind {
				case format.JournalPublishPersistent, format.JournalPublishTransient:
					in.v1Publish(q, get(r.SeqID, source), rel, r.Offset+8, r.Kind == format.JournalPublishPersistent, r.Pub, source)
				case format.JournalDeliver:
					markDelivered(get(r.SeqID, source))
				case format.JournalAck:
					get(r.SeqID, source).State = Acked
				}
			}
		}
	}
	for _, seq := range order {
		q.Entries = append(q.Entries, *entries[seq])
	}
}

func markDelivered(e *Entry) {
	if e.State == Published {
		e.State = Delivered
	}
}

// v1Publish fills an entry from a publish record found at off (the start of
// the record body: id, expiry, size, embedded length, term).
func (in *inspector) v1Publish(q *Queue, e *Entry, rel string, off int64, persistent bool, pub format.PubRecord, source string) {
	*e = Entry{
		SeqID:      e.SeqID,
		Source:     source,
		State:      Published,
		Persistent: persistent,
		MsgID:      pub.MsgID,
		HasMsgID:   true,
		Size:       pub.Size,
		Expiry:     pub.Expiry,
	}
	if len(pub.Embedded) == 0 {
		e.Where = InMsgStore
		in.lookup(e)
		return
	}
	e.Where = Embedded
	body, m := in.bodyOf(rel, off+32, pub.Embedded)
	e.Body = body
	if m != nil && m.ID != pub.MsgID {
		e.Note = fmt.Sprintf("the embedded term has id %s", m.ID)
	}
}
