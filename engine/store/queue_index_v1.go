package store

import (
	"fmt"
	"path"
	"sort"

	"warren/engine/clone"
	"warren/engine/store/format"
)

// Models rabbit_queue_index, the v1 index of 3.10: a journal (journal.jif)
// behind a file_handle_cache handle with an unbounded write buffer, and
// segment files (<seg>.idx) the journal is flushed into.

// v1Pub is the publish part of a v1 index entry. Its embedded body is a
// string, as it never changes once made: a copy of the index (a
// checkpoint's) shares the bodies instead of copying each.
type v1Pub struct {
	rec        format.PubRecord // its Embedded is always nil: see embedded
	embedded   clone.Shared
	persistent bool
}

// newV1Pub is the publish part of an entry, with rec's embedded body in
// body.
//
// NB: body is the embedded body: clone.SharedOf of a message's term as
// queued (a term never changes once encoded), or a copy of the bytes
// read back from a file.
func newV1Pub(rec format.PubRecord, body clone.Shared, persistent bool) *v1Pub {
	rec.Embedded = nil
	return &v1Pub{rec: rec, embedded: body, persistent: persistent}
}

// record is the publish record with its embedded body, for an encoder.
//
// NB: its Embedded is the string's own memory, to be read only (the
// encoders append it), never written or kept.
func (p *v1Pub) record() format.PubRecord {
	r := p.rec
	r.Embedded = p.embedded.Bytes()
	return r
}

// v1Entry is what the journal (or a segment) knows of one rel seq:
// {Pub | no_pub, del | no_del, ack | no_ack}.
type v1Entry struct {
	pub *v1Pub
	del bool
	ack bool
}

// v1Segment is one segment as the index tracks it: the journal entries not
// yet flushed into its file, and its count of unacked messages (file and
// journal together).
type v1Segment struct {
	journal map[uint16]*v1Entry
	unacked int
}

// indexV1 is the v1 index of one queue.
type indexV1 struct {
	d          *disk
	dir        string
	stub       []byte // .queue_name content
	n          uint64 // seq ids per segment, from the vhost's .config
	maxJournal int

	// The journal handle: open once anything was appended; jbuf holds the
	// appends not yet written; jdirty says written bytes wait for an fsync.
	jopen  bool
	jbuf   journalBuf
	jdirty bool

	segments map[uint64]*v1Segment
	dirty    int // journal entries since the last flush into segments
}

func newIndexV1(d *disk, dir string, q format.QueueName, n, maxJournal int) *indexV1 {
	return &indexV1{d: d, dir: dir, stub: q.Encode(), n: uint64(n), maxJournal: maxJournal, segments: map[uint64]*v1Segment{}}
}

func (x *indexV1) journalFile() string { return path.Join(x.dir, format.JournalName) }

func (x *indexV1) segFile(seg uint64) string {
	return path.Join(x.dir, segmentName(seg, format.ExtIndexV1))
}

// openJournal opens the journal handle on first use: it creates the queue
// directory, writes the .queue_name stub and opens (creates) journal.jif.
func (x *indexV1) openJournal() error {
	if x.jopen {
		return nil
	}
	if err := x.d.mkdirAll(x.dir); err != nil {
		return err
	}
	if err := x.d.writeFile(path.Join(x.dir, format.QueueNameFile), x.stub); err != nil {
		return err
	}
	f, _, err := x.d.openOrCreate(x.journalFile())
	if err != nil {
		return err
	}
	f.close()
	x.jopen = true
	return nil
}

func (x *indexV1) segment(seg uint64) *v1Segment {
	s, ok := x.segments[seg]
	if !ok {
		s = &v1Segment{journal: map[uint16]*v1Entry{}}
		x.segments[seg] = s
	}
	return s
}

// v1Action is a journal action.
type v1Action uint8

const (
	v1Publish v1Action = iota
	v1Del
	v1Ack
)

// addToJournal applies one action to the in-memory journal, as
// add_to_journal/3 and action_to_entry/3 do.
func (x *indexV1) addToJournal(seq uint64, act v1Action, pub *v1Pub) error {
	seg, rel := seq/x.n, uint16(seq%x.n)
	s := x.segment(seg)
	if err := s.apply(rel, act, pub); err != nil {
		return fmt.Errorf("%s: seq %d: %w", x.journalFile(), seq, err)
	}
	x.dirty++
	return nil
}

// apply changes one journal entry; it fails on a transition the index does
// not allow (a second publish, a deliver after an ack, ...).
func (s *v1Segment) apply(rel uint16, act v1Action, pub *v1Pub) error {
	e := s.journal[rel]
	switch {
	case e == nil:
		e = &v1Entry{}
		switch act {
		case v1Publish:
			e.pub = pub
		case v1Del:
			e.del = true
		case v1Ack:
			e.ack = true
		}
		s.journal[rel] = e
	case act == v1Del && e.pub != nil && !e.del && !e.ack:
		e.del = true
	case act == v1Ack && e.pub == nil && e.del && !e.ack:
		e.ack = true
	case act == v1Ack && e.pub != nil && e.del && !e.ack:
		delete(s.journal, rel)
	default:
		return fmt.Errorf("%s not allowed after %s", act, e)
	}
	switch act {
	case v1Publish:
		s.unacked++
	case v1Ack:
		s.unacked--
	}
	return nil
}

// String names the action.
func (a v1Action) String() string {
	switch a {
	case v1Publish:
		return "publish"
	case v1Del:
		return "deliver"
	}
	return "ack"
}

// String shows the entry as RabbitMQ writes it: {pub, del, no_ack}.
func (e *v1Entry) String() string {
	p, d, a := "no_pub", "no_del", "no_ack"
	if e.pub != nil {
		p = "pub"
	}
	if e.del {
		d = "del"
	}
	if e.ack {
		a = "ack"
	}
	return "{" + p + ", " + d + ", " + a + "}"
}

// publish appends a publish record and, as 3.10 always does, a deliver
// record for seq. It reports whether a journal flush ran (which confirms).
func (x *indexV1) publish(seq uint64, pub *v1Pub) (bool, error) {
	if err := x.openJournal(); err != nil {
		return false, err
	}
	kind := format.JournalPublishTransient
	if pub.persistent {
		kind = format.JournalPublishPersistent
	}
	if err := x.jbuf.add(format.JournalRecord{Kind: kind, SeqID: seq, Pub: pub.record()}); err != nil {
		return false, fmt.Errorf("%s: %w", x.journalFile(), err)
	}
	if err := x.addToJournal(seq, v1Publish, pub); err != nil {
		return false, err
	}
	flushed, err := x.maybeFlush()
	if err != nil {
		return flushed, err
	}
	f2, err := x.deliverOrAck(v1Del, []uint64{seq})
	return flushed || f2, err
}

// ack appends one ack record per seq.
func (x *indexV1) ack(seqs []uint64) (bool, error) {
	return x.deliverOrAck(v1Ack, seqs)
}

func (x *indexV1) deliverOrAck(act v1Action, seqs []uint64) (bool, error) {
	if len(seqs) == 0 {
		return false, nil
	}
	if err := x.openJournal(); err != nil {
		return false, err
	}
	kind := format.JournalDeliver
	if act == v1Ack {
		kind = format.JournalAck
	}
	for _, seq := range seqs {
		if err := x.jbuf.add(format.JournalRecord{Kind: kind, SeqID: seq}); err != nil {
			return false, fmt.Errorf("%s: %w", x.journalFile(), err)
		}
	}
	for _, seq := range seqs {
		if err := x.addToJournal(seq, act, nil); err != nil {
			return false, err
		}
	}
	return x.maybeFlush()
}

func (x *indexV1) maybeFlush() (bool, error) {
	if x.dirty > x.maxJournal {
		return true, x.flushJournal()
	}
	return false, nil
}

// writeJournal writes the journal's buffered appends at its end.
func (x *indexV1) writeJournal() error {
	if x.jbuf.len() == 0 {
		return nil
	}
	f, err := x.d.open(x.journalFile())
	if err != nil {
		return err
	}
	defer f.close()
	buf := borrow(x.jbuf.len())
	b := x.jbuf.appendTo(*buf)
	_, err = f.write(b)
	giveBack(buf, b)
	if err != nil {
		return err
	}
	x.jbuf.reset()
	x.jdirty = true
	return nil
}

// sync writes and fsyncs the journal. It reports whether the index
// confirms (it does whenever the journal is open).
func (x *indexV1) sync() (bool, error) {
	if !x.jopen {
		return false, nil
	}
	if err := x.writeJournal(); err != nil {
		return false, err
	}
	if x.jdirty {
		f, err := x.d.open(x.journalFile())
		if err != nil {
			return false, err
		}
		err = f.sync()
		f.close()
		if err != nil {
			return false, err
		}
		x.jdirty = false
	}
	return true, nil
}

// needsSync reports whether the journal holds data not yet fsynced.
func (x *indexV1) needsSync() bool { return x.jopen && (x.jbuf.len() > 0 || x.jdirty) }

// flush is the idle flush: the journal into the segments, when dirty.
func (x *indexV1) flush() (bool, error) {
	if x.dirty == 0 {
		return false, nil
	}
	return true, x.flushJournal()
}

// flushJournal moves the journal into the segment files: a segment without
// unacked messages is deleted; the others get their journal entries
// appended (descending rel seq, each publish followed by its deliver and
// ack records) and are fsynced when closed; then the journal is emptied:
// its unwritten appends are dropped and the file truncated to 0.
func (x *indexV1) flushJournal() error {
	for _, seg := range sortedKeys(x.segments) {
		s := x.segments[seg]
		if s.unacked == 0 {
			if err := x.d.removeIfExists(x.segFile(seg)); err != nil {
				return err
			}
			delete(x.segments, seg)
			continue
		}
		if len(s.journal) == 0 {
			continue
		}
		if err := x.appendToSegment(seg, s); err != nil {
			return err
		}
		s.journal = map[uint16]*v1Entry{}
	}
	if err := x.openJournal(); err != nil {
		return err
	}
	if err := x.clearJournal(); err != nil {
		return err
	}
	x.dirty = 0
	return nil
}

// appendToSegment writes a segment's journal entries at the end of its
// file (creating it) and closes it, which fsyncs it.
func (x *indexV1) appendToSegment(seg uint64, s *v1Segment) error {
	rels := make([]int, 0, len(s.journal))
	for rel := range s.journal {
		rels = append(rels, int(rel))
	}
	// highest first (sort.Slice: sort.Sort would link a second sort into
	// the browser's build)
	sort.Slice(rels, func(i, j int) bool { return rels[i] > rels[j] })
	size := 0 // made once: an entry's record carries its embedded body
	for _, e := range s.journal {
		size += 40
		if e.pub != nil {
			size += len(e.pub.embedded)
		}
	}
	lent := borrow(size)
	buf := *lent
	defer func() { giveBack(lent, buf) }()
	for _, rel := range rels {
		var err error
		if buf, err = appendSegmentEntry(buf, uint16(rel), s.journal[uint16(rel)]); err != nil {
			return fmt.Errorf("%s: %w", x.segFile(seg), err)
		}
	}
	if len(buf) == 0 {
		return nil
	}
	f, _, err := x.d.openOrCreate(x.segFile(seg))
	if err != nil {
		return err
	}
	defer f.close()
	if _, err := f.write(buf); err != nil {
		return err
	}
	return f.sync()
}

// appendSegmentEntry appends entry_to_segment/3 of one entry: nothing for
// a complete publish+deliver+ack, else the publish record, then one
// rel-seq record per deliver and ack.
func appendSegmentEntry(dst []byte, rel uint16, e *v1Entry) ([]byte, error) {
	if e.pub != nil && e.del && e.ack {
		return dst, nil
	}
	var err error
	if e.pub != nil {
		dst, err = format.AppendIdxRecord(dst, format.IdxRecord{Kind: format.IdxPublish, Persistent: e.pub.persistent, RelSeq: rel, Pub: e.pub.record()})
		if err != nil {
			return dst, err
		}
	}
	for _, b := range []bool{e.del, e.ack} {
		if b {
			if dst, err = format.AppendIdxRecord(dst, format.IdxRecord{Kind: format.IdxDeliver, RelSeq: rel}); err != nil {
				return dst, err
			}
		}
	}
	return dst, nil
}

// clearJournal drops the unwritten appends and truncates journal.jif to 0,
// unless it is already empty with nothing buffered.
func (x *indexV1) clearJournal() error {
	size, err := x.d.size(x.journalFile())
	if err != nil {
		return err
	}
	buffered := x.jbuf.len() > 0
	x.jbuf.reset()
	if size == 0 && !buffered {
		return nil
	}
	f, err := x.d.open(x.journalFile())
	if err != nil {
		return err
	}
	defer f.close()
	return f.truncate(0)
}

// terminate closes the journal as file_handle_cache does: buffered appends
// are written and, when anything was written, fsynced. It returns the
// unacked count of each segment for the recovery terms.
func (x *indexV1) terminate() (map[uint64]int, error) {
	if _, err := x.sync(); err != nil {
		return nil, err
	}
	counts := map[uint64]int{}
	for seg, s := range x.segments {
		counts[seg] = s.unacked
	}
	return counts, nil
}
