package store

import (
	"sort"

	"warren/engine/clone"
	"warren/engine/store/format"
)

// Models the reading and recovery half of rabbit_queue_index: load_segment/2,
// load_journal/1, recover_journal/1, journal_minus_segment/3,
// segment_plus_journal/2, init_clean/2, init_dirty/4 and the walker.

// loadSegment reads a segment file into entries by rel seq, with the number
// of unacked publishes. With keepAcked an acked entry stays as
// {pub, del, ack}; otherwise it is dropped. A file of only zero bytes is
// deleted, as RabbitMQ does.
func (x *indexV1) loadSegment(seg uint64, keepAcked bool) (map[uint16]*v1Entry, int, error) {
	entries := map[uint16]*v1Entry{}
	name := x.segFile(seg)
	data, ok, err := x.d.readFile(name)
	if err != nil || !ok || len(data) == 0 {
		return entries, 0, err
	}
	if allZero(data) {
		return entries, 0, x.d.remove(name)
	}
	// A torn or malformed tail stops the parse; what came before is kept.
	parsed, _ := format.DecodeIdxSegment(name, data)
	unacked := 0
	for _, r := range parsed.Records {
		if r.Kind == format.IdxPublish {
			entries[r.RelSeq] = &v1Entry{pub: newV1Pub(r.Pub, clone.Shared(r.Pub.Embedded), r.Persistent)}
			unacked++
			continue
		}
		e := entries[r.RelSeq]
		switch {
		case e == nil || e.ack:
		case !e.del:
			e.del = true
		case keepAcked:
			e.ack = true
			unacked--
		default:
			delete(entries, r.RelSeq)
			unacked--
		}
	}
	return entries, unacked, nil
}

// loadJournal opens journal.jif for writing and replays what it holds into
// the in-memory journal.
func (x *indexV1) loadJournal() error {
	data, ok, err := x.d.readFile(x.journalFile())
	if err != nil || !ok {
		return err
	}
	if err := x.openJournal(); err != nil {
		return err
	}
	x.replayJournal(data)
	return nil
}

// replayJournal adds journal.jif's records (data) to the in-memory
// journal. Decoding stops at an all-zero publish record or a torn record;
// a record the journal cannot apply is skipped.
func (x *indexV1) replayJournal(data []byte) {
	j, _ := format.DecodeJournal(x.journalFile(), data)
	for _, r := range j.Records {
		switch r.Kind {
		case format.JournalDeliver:
			_ = x.addToJournal(r.SeqID, v1Del, nil)
		case format.JournalAck:
			_ = x.addToJournal(r.SeqID, v1Ack, nil)
		default:
			pub := newV1Pub(r.Pub, clone.Shared(r.Pub.Embedded), r.Kind == format.JournalPublishPersistent)
			_ = x.addToJournal(r.SeqID, v1Publish, pub)
		}
	}
}

// recoverJournal loads the journal and removes from it what its segments
// already hold, fixing the unacked counts.
func (x *indexV1) recoverJournal() error {
	if err := x.loadJournal(); err != nil {
		return err
	}
	for _, seg := range sortedKeys(x.segments) {
		s := x.segments[seg]
		segEntries, segUnacked, err := x.loadSegment(seg, true)
		if err != nil {
			return err
		}
		removed := 0
		for rel, j := range s.journal {
			obj, keep, delta := journalMinusSegment(j, segEntries[rel])
			removed += delta
			switch {
			case keep:
			case obj == nil:
				delete(s.journal, rel)
			default:
				s.journal[rel] = obj
			}
		}
		s.unacked = s.unacked + segUnacked - removed
	}
	return nil
}

// journalMinusSegment is journal_minus_segment1/2: what stays in the
// journal given the segment's entry (keep, or obj, nil meaning drop) and
// how many unacked messages were counted twice.
func journalMinusSegment(j, s *v1Entry) (obj *v1Entry, keep bool, removed int) {
	switch {
	case s != nil && j.pub != nil && s.pub != nil && j.del == s.del && j.ack == s.ack:
		if j.ack {
			return nil, false, 0
		}
		return nil, false, 1
	case s == nil && j.pub != nil:
		return nil, true, 0
	case s == nil:
		return nil, false, 0
	case j.pub != nil && s.pub != nil && j.del && !j.ack && !s.del && !s.ack:
		return &v1Entry{del: true}, false, 1
	case j.pub != nil && s.pub != nil && j.del && j.ack && !s.del && !s.ack:
		return &v1Entry{del: true, ack: true}, false, 1
	case j.pub != nil && s.pub != nil && j.del && j.ack && s.del && !s.ack:
		return &v1Entry{ack: true}, false, 1
	case j.pub == nil && s.pub != nil && j.del && !j.ack && !s.del && !s.ack:
		return nil, true, 0
	case j.pub == nil && s.pub != nil && j.del && !j.ack && s.del && !s.ack:
		return nil, false, 0
	case j.pub == nil && s.pub != nil && !j.del && j.ack && s.del && !s.ack:
		return nil, true, 0
	case j.pub == nil && s.pub != nil && !j.del && j.ack && s.del && s.ack:
		return nil, false, -1
	case j.pub == nil && s.pub != nil && j.del && j.ack && !s.del && !s.ack:
		return nil, true, 0
	case j.pub == nil && s.pub != nil && j.del && j.ack && s.del && !s.ack:
		return &v1Entry{ack: true}, false, 0
	case j.pub == nil && s.pub != nil && j.del && j.ack && s.del && s.ack:
		return nil, false, -1
	}
	// A combination RabbitMQ does not expect: trust the segment.
	return nil, false, 0
}

// segmentPlusJournal combines a segment's entries (loaded without acked
// ones) with its journal, as segment_plus_journal/2: the result and the
// change in unacked count.
func segmentPlusJournal(seg, journal map[uint16]*v1Entry) (map[uint16]*v1Entry, int) {
	out := make(map[uint16]*v1Entry, len(seg)+len(journal))
	for rel, e := range seg {
		c := *e
		out[rel] = &c
	}
	delta := 0
	for rel, j := range journal {
		s := out[rel]
		switch {
		case s == nil && j.pub != nil && !j.ack:
			c := *j
			out[rel] = &c
			delta++
		case s == nil:
		case s.pub != nil && !s.del && !s.ack && j.pub == nil && j.del && !j.ack:
			s.del = true
		case s.pub != nil && !s.del && !s.ack && j.pub == nil && j.del && j.ack:
			delete(out, rel)
			delta--
		case s.pub != nil && s.del && !s.ack && j.pub == nil && !j.del && j.ack:
			delete(out, rel)
			delta--
		}
	}
	return out, delta
}

// allSegments returns the segment numbers of the files and the journal.
func (x *indexV1) allSegments() ([]uint64, error) {
	nums, err := x.d.segmentFiles(x.dir, format.ExtIndexV1)
	if err != nil {
		return nil, err
	}
	seen := map[uint64]bool{}
	for _, n := range nums {
		seen[n] = true
	}
	for n := range x.segments {
		if !seen[n] {
			nums = append(nums, n)
		}
	}
	sort.Slice(nums, func(i, j int) bool { return nums[i] < nums[j] })
	return nums, nil
}

// segmentEntries returns the combined entries of one segment.
func (x *indexV1) segmentEntries(seg uint64) (map[uint16]*v1Entry, int, error) {
	entries, unacked, err := x.loadSegment(seg, false)
	if err != nil {
		return nil, 0, err
	}
	var journal map[uint16]*v1Entry
	if s, ok := x.segments[seg]; ok {
		journal = s.journal
	}
	combined, delta := segmentPlusJournal(entries, journal)
	return combined, unacked + delta, nil
}

// recoverClean is init_clean/2: the journal is loaded and the unacked
// counts come from the recovery terms.
func (x *indexV1) recoverClean(counts map[uint64]int) ([]RecoveredMsg, error) {
	if err := x.loadJournal(); err != nil {
		return nil, err
	}
	for seg, c := range counts {
		x.segment(seg).unacked = c
	}
	return x.unackedEntries()
}

// recoverDirty is init_dirty/4: every segment is combined with the
// journal; a message whose body is gone is acked, one never delivered is
// marked delivered; then the journal is flushed into the segments.
func (x *indexV1) recoverDirty(cleanTerms bool, contains func(*v1Pub) bool) ([]RecoveredMsg, error) {
	if err := x.recoverJournal(); err != nil {
		return nil, err
	}
	segs, err := x.allSegments()
	if err != nil {
		return nil, err
	}
	for _, seg := range segs {
		entries, unacked, err := x.segmentEntries(seg)
		if err != nil {
			return nil, err
		}
		s := x.segment(seg)
		s.unacked = unacked
		for _, rel := range sortedRels(entries) {
			e := entries[rel]
			if e.pub == nil || e.ack {
				continue
			}
			have := contains(e.pub)
			switch {
			case have && (cleanTerms || e.del):
			case have:
				_ = s.apply(rel, v1Del, nil)
			case e.del:
				_ = s.apply(rel, v1Ack, nil)
				x.dirty++
			default:
				_ = s.apply(rel, v1Del, nil)
				_ = s.apply(rel, v1Ack, nil)
				x.dirty += 2
			}
		}
	}
	// init_dirty flushes the journal whatever the entries were.
	if err := x.flushJournal(); err != nil {
		return nil, err
	}
	return x.unackedEntries()
}

// unackedEntries lists every unacked publish of every segment, by seq.
func (x *indexV1) unackedEntries() ([]RecoveredMsg, error) {
	segs, err := x.allSegments()
	if err != nil {
		return nil, err
	}
	var out []RecoveredMsg
	for _, seg := range segs {
		entries, _, err := x.segmentEntries(seg)
		if err != nil {
			return nil, err
		}
		for _, rel := range sortedRels(entries) {
			e := entries[rel]
			if e.pub == nil || e.ack {
				continue
			}
			m := RecoveredMsg{Seq: seg*x.n + uint64(rel), ID: e.pub.rec.MsgID, Persistent: e.pub.persistent, Size: e.pub.rec.Size, Expiry: e.pub.rec.Expiry}
			if len(e.pub.embedded) > 0 {
				m.Placement, m.Term = InQueueIndex, []byte(e.pub.embedded)
			} else {
				m.Placement = InSharedStore
			}
			out = append(out, m)
		}
	}
	return out, nil
}

// read returns the publish record of seq when it is unacked.
func (x *indexV1) read(seq uint64) (*v1Pub, error) {
	seg, rel := seq/x.n, uint16(seq%x.n)
	if s, ok := x.segments[seg]; ok {
		if e := s.journal[rel]; e != nil && e.pub != nil {
			if e.ack {
				return nil, nil
			}
			return e.pub, nil
		}
	}
	entries, _, err := x.segmentEntries(seg)
	if err != nil {
		return nil, err
	}
	if e := entries[rel]; e != nil && e.pub != nil && !e.ack {
		return e.pub, nil
	}
	return nil, nil
}

func sortedRels(m map[uint16]*v1Entry) []uint16 {
	rels := make([]uint16, 0, len(m))
	for r := range m {
		rels = append(rels, r)
	}
	sort.Slice(rels, func(i, j int) bool { return rels[i] < rels[j] })
	return rels
}

// walkV1 adds to counts one reference for every unacked persistent entry
// of dir whose body is in the shared store (not embedded), as the v1
// queue_index_walker does.
func walkV1(d *disk, dir string, n int, counts map[format.MsgID]int) error {
	x := &indexV1{d: d, dir: dir, n: uint64(n), segments: map[uint64]*v1Segment{}}
	// The walker reads; it must not open the journal for writing.
	data, ok, err := d.readFile(x.journalFile())
	if err != nil {
		return err
	}
	if ok {
		x.replayJournal(data)
		for _, seg := range sortedKeys(x.segments) {
			segEntries, _, err := x.readOnlySegment(seg, true)
			if err != nil {
				return err
			}
			s := x.segments[seg]
			for rel, je := range s.journal {
				obj, keep, _ := journalMinusSegment(je, segEntries[rel])
				if !keep {
					if obj == nil {
						delete(s.journal, rel)
					} else {
						s.journal[rel] = obj
					}
				}
			}
		}
	}
	segs, err := x.allSegments()
	if err != nil {
		return err
	}
	for _, seg := range segs {
		entries, _, err := x.readOnlySegment(seg, false)
		if err != nil {
			return err
		}
		var journal map[uint16]*v1Entry
		if s, ok := x.segments[seg]; ok {
			journal = s.journal
		}
		combined, _ := segmentPlusJournal(entries, journal)
		for _, e := range combined {
			if e.pub != nil && !e.ack && e.pub.persistent && len(e.pub.embedded) == 0 {
				counts[e.pub.rec.MsgID]++
			}
		}
	}
	return nil
}

// readOnlySegment is loadSegment without deleting an all-zero file.
func (x *indexV1) readOnlySegment(seg uint64, keepAcked bool) (map[uint16]*v1Entry, int, error) {
	name := x.segFile(seg)
	data, ok, err := x.d.readFile(name)
	if err != nil || !ok || allZero(data) {
		return map[uint16]*v1Entry{}, 0, err
	}
	return x.loadSegment(seg, keepAcked)
}
