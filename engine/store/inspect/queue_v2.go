package inspect

import (
	"fmt"
	"path"

	"warren/engine/store/format"
)

// Reads a queue directory written by rabbit_classic_queue_index_v2 and
// rabbit_classic_queue_store_v2.

// readV2 reads the .qs files, then every slot of the .qi files.
func (in *inspector) readV2(q *Queue, qiNames, qsNames []string) {
	stores := map[string]*format.QueueStoreFile{}
	for _, n := range qsNames {
		rel := path.Join(q.Dir, n)
		data, ok := in.read(rel)
		if !ok {
			continue
		}
		qs, err := format.DecodeQueueStore(rel, data)
		if err != nil {
			in.problem(rel, err)
		}
		stores[n] = qs
		summary := "empty (no header yet)"
		if qs.HasHeader {
			bad := 0
			for _, e := range qs.Entries {
				if !e.CRCOK {
					bad++
				}
			}
			summary = fmt.Sprintf("seq %d..%d, %s", qs.Header.FirstSeq, qs.Header.EndSeq-1, plural(len(qs.Entries), "entry"))
			if bad > 0 {
				summary += fmt.Sprintf(", %d with a bad CRC", bad)
			}
		}
		q.Files = append(q.Files, FileInfo{File{rel, int64(len(data))}, summary})
	}
	for _, n := range qiNames {
		rel := path.Join(q.Dir, n)
		data, ok := in.read(rel)
		if !ok {
			continue
		}
		seg, err := format.DecodeIndexSegment(rel, data)
		if err != nil {
			in.problem(rel, err)
		}
		summary := "empty (no header)"
		if seg.HasHeader {
			summary = fmt.Sprintf("seq %d..%d, %s", seg.Header.FirstSeq, seg.Header.EndSeq-1, plural(len(seg.Slots), "slot"))
		}
		q.Files = append(q.Files, FileInfo{File{rel, int64(len(data))}, summary})
		for _, s := range seg.Slots {
			q.Entries = append(q.Entries, in.v2Entry(q, n, s, stores))
		}
	}
}

// v2Entry describes one .qi slot and finds its body.
func (in *inspector) v2Entry(q *Queue, qiName string, s format.IndexSlot, stores map[string]*format.QueueStoreFile) Entry {
	e := Entry{
		SeqID:      s.SeqID,
		Source:     fmt.Sprintf("%s@%d", qiName, s.Offset),
		Persistent: s.Entry.Persistent(),
		Size:       s.Entry.Size,
		Expiry:     s.Entry.Expiry,
	}
	switch {
	case s.Zero:
		e.State = Empty
		return e
	case !s.Present():
		e.State = Acked
		e.Note = "status byte zeroed (acked by recovery)"
	default:
		e.State = Present
	}
	loc := s.Entry.Location
	switch loc.Kind {
	case format.LocMemory:
		e.Where = InMemory
	case format.LocMsgStore:
		e.Where, e.MsgID, e.HasMsgID = InMsgStore, loc.MsgID, true
		in.lookup(&e)
	case format.LocQueueStore:
		e.Where, e.QSOffset = InQueueStore, loc.Offset
		e.QSFile = format.SegmentFileName(s.SeqID/format.SegmentEntryCount, format.ExtQueueStore)
		in.queueStoreBody(q, &e, loc, stores[e.QSFile])
	default:
		e.Where = InMemory
		e.Note = fmt.Sprintf("unknown location kind %d", loc.Kind)
	}
	return e
}

func (in *inspector) queueStoreBody(q *Queue, e *Entry, loc format.Location, qs *format.QueueStoreFile) {
	if qs == nil {
		e.Note = e.QSFile + " is missing"
		return
	}
	qe, ok := qs.EntryAt(loc.Offset)
	if !ok {
		e.Note = fmt.Sprintf("no entry starts at %s@%d", e.QSFile, loc.Offset)
		return
	}
	if qe.Size != loc.Size {
		e.Note = fmt.Sprintf("the index says %d bytes, the %s entry has %d", loc.Size, e.QSFile, qe.Size)
	}
	if !qe.CRCOK {
		e.Note = "bad CRC: recovery drops this message"
	}
	body, m := in.bodyOf(path.Join(q.Dir, e.QSFile), qe.Offset+format.QSEntryHeaderSize, qe.Payload)
	e.Body = body
	if m != nil {
		e.MsgID, e.HasMsgID = m.ID, true
	}
}
