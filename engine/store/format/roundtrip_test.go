package format

import (
	"bytes"
	"fmt"
	"path"
	"path/filepath"
	"testing"
)

// TestRoundTripFixtures rebuilds every file of every fixture snapshot with
// this package's encoders, from the message table of CASE.md and the scenario
// it describes, taking only the message ids from disk, and requires the
// result to equal the fixture byte for byte.
func TestRoundTripFixtures(t *testing.T) {
	for _, c := range loadCases(t) {
		for _, sn := range c.Snapshots {
			if len(sn.Files) == 0 {
				continue
			}
			t.Run(c.Name+"/"+sn.Name, func(t *testing.T) {
				got := readSnapshot(t, filepath.Join(c.Dir, sn.Name))
				want, err := buildSnapshot(c, sn.Name, idsOnDisk(t, got))
				if err != nil {
					t.Fatal(err)
				}
				for _, p := range want.paths() {
					if g, ok := got[p]; !ok {
						t.Errorf("%s: built, but not in the fixture", p)
					} else if !bytes.Equal(g, want[p]) {
						t.Errorf("%s: built %d bytes differ from the fixture's %d (first difference at %d)", p, len(want[p]), len(g), firstDiff(g, want[p]))
					}
				}
				for _, p := range got.paths() {
					if _, ok := want[p]; !ok {
						t.Errorf("%s: in the fixture, not built", p)
					}
				}
			})
		}
	}
}

func firstDiff(a, b []byte) int {
	for i := range min(len(a), len(b)) {
		if a[i] != b[i] {
			return i
		}
	}
	return min(len(a), len(b))
}

// idsOnDisk maps "queue dir/seq" to the message id the snapshot's index holds,
// for messages whose id CASE.md does not give.
func idsOnDisk(t *testing.T, snap snapshot) map[string]MsgID {
	ids := map[string]MsgID{}
	for _, p := range snap.paths() {
		dir, base := path.Dir(p), path.Base(p)
		switch {
		case path.Ext(base) == ExtIndexV2:
			seg, err := DecodeIndexSegment(p, snap[p])
			if err != nil {
				t.Fatal(err)
			}
			for _, s := range seg.Slots {
				if s.Present() && s.Entry.Location.Kind == LocMsgStore {
					ids[fmt.Sprintf("%s/%d", dir, s.SeqID)] = s.Entry.Location.MsgID
				}
			}
		case base == JournalName:
			j, err := DecodeJournal(p, snap[p])
			if err != nil {
				t.Fatal(err)
			}
			for _, r := range j.Records {
				if r.Kind.IsPublish() {
					ids[fmt.Sprintf("%s/%d", dir, r.SeqID)] = r.Pub.MsgID
				}
			}
		case path.Ext(base) == ExtIndexV1:
			s, err := DecodeIdxSegment(p, snap[p])
			if err != nil {
				t.Fatal(err)
			}
			for _, r := range s.Records {
				if r.Kind == IdxPublish {
					ids[fmt.Sprintf("%s/%d", dir, r.RelSeq)] = r.Pub.MsgID
				}
			}
		}
	}
	return ids
}

// queued is one message as a queue holds it.
type queued struct {
	seq  uint64
	cm   caseMessage
	id   MsgID
	term []byte
}

// persistent reports delivery mode 2.
func (q queued) persistent() bool { return q.cm.DeliveryMode == 2 }

// embedded reports whether the body is below queue_index_embed_msgs_below.
func (q queued) embedded() bool { return len(q.cm.Body) < 4096 }

// buildSnapshot builds the vhost folder the scenario of a case leaves in the
// named snapshot.
func buildSnapshot(c *fixtureCase, name string, ids map[string]MsgID) (snapshot, error) {
	snap := snapshot{
		VHostConfig:                  EncodeVHostConfig(DefaultV1SegmentEntryCount),
		VHostFile:                    []byte("/"),
		"msg_store_persistent/0.rdq": nil,
		"msg_store_transient/0.rdq":  nil,
	}
	if len(c.Messages) == 0 {
		return nil, fmt.Errorf("no messages")
	}
	queue := c.Messages[0].RoutingKey
	levels := map[string][]caseMessage{}
	if c.Name == "v2-priority" {
		for _, m := range c.Messages {
			level := max(m.Priority, 0)
			q := PriorityQueueName(queue, uint8(min(level, 3)))
			levels[q] = append(levels[q], m)
		}
	} else {
		levels[queue] = c.Messages
	}
	for qname, msgs := range levels {
		dir := "queues/" + QueueDirName("/", qname)
		v2 := c.Name != "v1-basic" && c.Name != "transient-lazy"
		snap[dir+"/"+QueueNameFile] = QueueName{VHost: "/", Queue: qname, IndexV2: v2}.Encode()
		if c.Name == "transient" {
			delete(snap, dir+"/"+QueueNameFile)
			continue
		}
		if c.Name == "transient-v2" {
			continue
		}
		var qs []queued
		for i, m := range msgs {
			id, err := ParseMsgID(m.ID)
			if m.ID == "" {
				// Not in CASE.md: take it from the index. A snapshot whose
				// index does not hold it does not need it (a zero id would
				// show up as a byte difference).
				id = ids[fmt.Sprintf("%s/%d", dir, i)]
			} else if err != nil {
				return nil, err
			}
			props := Properties{}.WithDeliveryMode(uint8(m.DeliveryMode))
			if m.Priority >= 0 {
				props = props.WithPriority(uint8(m.Priority))
			}
			term, err := NewMessage(m.Exchange, m.RoutingKey, props, m.Body, id, m.DeliveryMode == 2).Encode()
			if err != nil {
				return nil, err
			}
			qs = append(qs, queued{seq: uint64(i), cm: m, id: id, term: term})
		}
		var err error
		if v2 {
			err = buildV2Queue(snap, dir, qs, c.Name, name)
		} else {
			err = buildV1Queue(snap, dir, qs, name)
		}
		if err != nil {
			return nil, err
		}
		for _, q := range qs {
			if q.persistent() && !q.embedded() {
				snap["msg_store_persistent/0.rdq"] = AppendMsgFileEntry(snap["msg_store_persistent/0.rdq"], q.id, q.term)
			}
		}
	}
	return snap, nil
}

// buildV2Queue writes 0.qi and 0.qs: small bodies in the queue store, large
// ones referenced by id; snapshot B of v2-basic has the first three acked.
func buildV2Queue(snap snapshot, dir string, qs []queued, caseName, snapName string) error {
	qi := NewSegmentHeader(MagicIndex, 0).Encode()
	qsFile := NewSegmentHeader(MagicQueueStore, 0).Encode()
	if caseName == "transient-lazy-v2" && snapName == "A0" {
		// Before the idle flush: the segment was created, nothing written.
		snap[dir+"/0.qi"] = qi
		snap[dir+"/0.qs"] = nil
		return nil
	}
	for _, q := range qs {
		loc := Location{Kind: LocMsgStore, MsgID: q.id}
		if q.embedded() {
			loc = Location{Kind: LocQueueStore, Offset: uint64(len(qsFile)), Size: uint32(len(q.term))}
			qsFile = AppendQSEntry(qsFile, q.term, true)
		}
		entry := NewIndexEntry(q.persistent(), loc, uint32(len(q.cm.Body)), 0)
		if caseName == "v2-basic" && snapName == "B" && q.seq < 3 {
			entry = IndexEntry{}
		}
		slot := entry.Encode()
		if off := SlotOffset(q.seq); off != int64(len(qi)) {
			return fmt.Errorf("seq %d: slot at %d, file is %d bytes", q.seq, off, len(qi))
		}
		qi = append(qi, slot[:]...)
	}
	snap[dir+"/0.qi"] = qi
	snap[dir+"/0.qs"] = qsFile
	return nil
}

// buildV1Queue writes journal.jif and 0.idx for the v1 snapshots: A0 has the
// publishes (each followed by its deliver) in the journal; A has them moved to
// 0.idx in descending seq order; B0 adds three acks to the journal; B moves
// them to 0.idx (descending).
func buildV1Queue(snap snapshot, dir string, qs []queued, snapName string) error {
	pub := func(q queued) PubRecord {
		p := PubRecord{MsgID: q.id, Size: uint32(len(q.cm.Body))}
		if q.embedded() {
			p.Embedded = q.term
		}
		return p
	}
	var journal, idx []byte
	var err error
	if snapName == "A0" {
		for _, q := range qs {
			kind := JournalPublishTransient
			if q.persistent() {
				kind = JournalPublishPersistent
			}
			if journal, err = AppendJournalRecord(journal, JournalRecord{Kind: kind, SeqID: q.seq, Pub: pub(q)}); err != nil {
				return err
			}
			if journal, err = AppendJournalRecord(journal, JournalRecord{Kind: JournalDeliver, SeqID: q.seq}); err != nil {
				return err
			}
		}
		snap[dir+"/"+JournalName] = journal
		return nil
	}
	for i := len(qs) - 1; i >= 0; i-- {
		q := qs[i]
		if idx, err = AppendIdxRecord(idx, IdxRecord{Kind: IdxPublish, Persistent: q.persistent(), RelSeq: uint16(q.seq), Pub: pub(q)}); err != nil {
			return err
		}
		if idx, err = AppendIdxRecord(idx, IdxRecord{Kind: IdxDeliver, RelSeq: uint16(q.seq)}); err != nil {
			return err
		}
	}
	switch snapName {
	case "B0":
		for seq := uint64(0); seq < 3; seq++ {
			if journal, err = AppendJournalRecord(journal, JournalRecord{Kind: JournalAck, SeqID: seq}); err != nil {
				return err
			}
		}
	case "B":
		for seq := 2; seq >= 0; seq-- {
			if idx, err = AppendIdxRecord(idx, IdxRecord{Kind: IdxAck, RelSeq: uint16(seq)}); err != nil {
				return err
			}
		}
	}
	snap[dir+"/"+JournalName] = journal
	snap[dir+"/0.idx"] = idx
	return nil
}
