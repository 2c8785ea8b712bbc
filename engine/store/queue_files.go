package store

import (
	"fmt"
	"path"
	"sort"

	"warren/engine/clone"
	"warren/engine/store/format"
)

// Models the storage half of rabbit_variable_queue: where each message is
// written (maybe_write_to_disk/4), acks, syncs, the idle flush
// (handle_pre_hibernate/1) and the bookkeeping of publisher confirms
// (msgs_on_disk and msg_indices_on_disk).

// QueueOptions says how a queue stores its messages.
type QueueOptions struct {
	Durable bool
	// Version is the index version: 1 (the 3.10 default) or 2
	// (x-queue-version=2).
	Version int
	// Lazy is x-queue-mode=lazy: every message is written at once, even a
	// transient one.
	Lazy bool
}

func (o QueueOptions) check() error {
	if o.Version != 1 && o.Version != 2 {
		return fmt.Errorf("unsupported queue version %d (want 1 or 2)", o.Version)
	}
	return nil
}

// Result is what a queue storage operation did.
type Result struct {
	IO IO
	// Placement is where Publish put the body.
	Placement Placement
	// Confirmed lists the ids whose publisher confirms are now due.
	Confirmed []format.MsgID
	// Calls are requests the queue sent to the shared stores; the caller
	// delivers them to the store processes (MsgStore.Handle).
	Calls []StoreCall
}

// liveMsg is an unacked message of the queue.
type liveMsg struct {
	id         format.MsgID
	place      Placement
	persistent bool // written to the persistent store/flagged persistent
	indexed    bool
	loc        format.Location
}

// pendingConfirm tracks what a message waits for before its confirm: its
// index entry synced, and its body on disk.
type pendingConfirm struct {
	place Placement
	index bool
	body  bool
	n     int // copies published and not confirmed
}

// done says its index entry and its body are on disk.
func (p *pendingConfirm) done() bool { return p.index && p.body }

// QueueFiles is the storage of one classic queue: its index (v1 or v2), its
// per-queue store (v2) and its clients of the shared stores.
type QueueFiles struct {
	v    *VHost
	name string
	dir  string
	opts QueueOptions
	ref  ClientRef

	x1 *indexV1
	x2 *indexV2
	qs *storeV2

	live    map[uint64]*liveMsg
	pending map[format.MsgID]*pendingConfirm
	// How many pending confirms wait for their index entry's sync, and
	// how many wait for nothing now: a publish, an ack or the queue's look
	// at whether it must sync, which find none, need not go through every
	// confirm still waiting (thousands, between two syncs).
	unindexed, due int
	nextSeq        uint64
	closed         bool
}

// Name returns the queue name.
func (q *QueueFiles) Name() string { return q.name }

// Dir returns the queue directory.
func (q *QueueFiles) Dir() string { return q.dir }

// ClientRef returns the queue's client ref on the shared stores.
func (q *QueueFiles) ClientRef() ClientRef { return q.ref }

// Options returns how the queue stores messages.
func (q *QueueFiles) Options() QueueOptions { return q.opts }

func (q *QueueFiles) mark() IO { return q.v.d.io }

func (q *QueueFiles) since(base IO) IO { return q.v.d.io.sub(base) }

func (q *QueueFiles) usable() error {
	if q.closed {
		return fmt.Errorf("queue %q: storage already terminated", q.name)
	}
	return nil
}

// Publish stores message m under seq (seq ids only grow). Where the body
// goes follows determine_persist_to; a body for a shared store is written
// by the store process when it handles the returned call.
func (q *QueueFiles) Publish(seq uint64, m PublishedMsg) (Result, error) {
	base := q.mark()
	var res Result
	if err := q.usable(); err != nil {
		return res, err
	}
	if _, dup := q.live[seq]; dup {
		return res, fmt.Errorf("queue %q: seq %d is already published", q.name, seq)
	}
	if seq >= q.nextSeq {
		q.nextSeq = seq + 1
	}
	place, persistent := placementOf(q.opts, m, q.v.p.EmbedBelow)
	lm := &liveMsg{id: m.ID, place: place, persistent: persistent}
	q.live[seq] = lm
	res.Placement = place
	if place == InMemory || !persistent {
		if m.NeedsConfirm {
			res.Confirmed = []format.MsgID{m.ID}
		}
	} else if m.NeedsConfirm {
		p := q.pending[m.ID]
		if p == nil {
			p = &pendingConfirm{place: place}
			q.pending[m.ID] = p
			q.unindexed++
		}
		p.n++
	}
	if place == InMemory {
		res.IO = q.since(base)
		return res, nil
	}
	err := q.write(seq, m, lm, &res)
	res.Confirmed = append(res.Confirmed, q.takeConfirmed()...)
	res.IO = q.since(base)
	return res, err
}

// PageOut writes a message that was kept only in memory to disk, as 3.10
// does under memory pressure (rabbit_variable_queue's
// push_alphas_to_betas): the body goes where a persisted message of its
// size goes (embedded in the v1 index, the v2 queue store or the shared
// transient store) with its index entry. A message the queue never told
// the files about (a non-durable queue's) is published at seq first; one
// already on disk stays as it is.
func (q *QueueFiles) PageOut(seq uint64, m PublishedMsg) (Result, error) {
	base := q.mark()
	var res Result
	if err := q.usable(); err != nil {
		return res, err
	}
	lm, ok := q.live[seq]
	if ok && lm.place != InMemory {
		return res, nil
	}
	if !ok {
		lm = &liveMsg{id: m.ID}
		q.live[seq] = lm
		if seq >= q.nextSeq {
			q.nextSeq = seq + 1
		}
	}
	lm.place = PersistTo(q.opts.Version, m.BodySize, m.PropsSize, q.v.p.EmbedBelow)
	res.Placement = lm.place
	err := q.write(seq, m, lm, &res)
	res.IO = q.since(base)
	return res, err
}

// write puts the body where it goes, then the index entry.
func (q *QueueFiles) write(seq uint64, m PublishedMsg, lm *liveMsg, res *Result) error {
	switch lm.place {
	case InSharedStore:
		q.v.Store(lm.persistent).ClientWrite(q.ref, m.ID, m.Term)
		res.Calls = append(res.Calls, StoreCall{Kind: CallWrite, Persistent: lm.persistent, Client: q.ref, IDs: []format.MsgID{m.ID}})
		lm.loc = format.Location{Kind: format.LocMsgStore, MsgID: m.ID}
	case InQueueStore:
		loc, err := q.qs.write(seq, m.Term)
		if err != nil {
			return err
		}
		lm.loc = loc
	}
	if q.x2 != nil {
		e := format.NewIndexEntry(lm.persistent, lm.loc, uint32(m.BodySize), m.Expiry)
		if err := q.x2.publish(seq, e); err != nil {
			return err
		}
	} else {
		rec := format.PubRecord{MsgID: m.ID, Expiry: m.Expiry, Size: uint32(m.BodySize)}
		var body clone.Shared
		if lm.place == InQueueIndex {
			body = clone.SharedOf(m.Term) // as ClientWrite keeps it
		}
		flushed, err := q.x1.publish(seq, newV1Pub(rec, body, lm.persistent))
		if flushed {
			q.indexSynced()
		}
		if err != nil {
			return err
		}
	}
	lm.indexed = true
	return nil
}

// indexSynced records that every pending index entry reached the disk
// (v1 embedded bodies with it).
func (q *QueueFiles) indexSynced() {
	if q.unindexed == 0 {
		return
	}
	for _, p := range q.pending {
		was := p.done()
		if !p.index {
			p.index = true
			q.unindexed--
		}
		if p.place == InQueueIndex {
			p.body = true
		}
		q.countDone(p, was)
	}
}

// queueStoreSynced records that the .qs bodies reached the OS.
func (q *QueueFiles) queueStoreSynced() {
	for _, p := range q.pending {
		if p.place == InQueueStore {
			was := p.done()
			p.body = true
			q.countDone(p, was)
		}
	}
}

// countDone counts p among the due confirms if it is done now and was not
// (was).
func (q *QueueFiles) countDone(p *pendingConfirm, was bool) {
	if !was && p.done() {
		q.due++
	}
}

// takeConfirmed removes and returns the ids whose index and body are done,
// in the order of their bytes.
func (q *QueueFiles) takeConfirmed() []format.MsgID {
	if q.due == 0 {
		return nil
	}
	var out []format.MsgID
	for id, p := range q.pending {
		if p.done() {
			out = append(out, id)
			delete(q.pending, id)
		}
	}
	q.due = 0
	sort.Slice(out, func(i, j int) bool { return string(out[i][:]) < string(out[j][:]) })
	return out
}

// StoreConfirmed hands the queue a confirm from a shared store and returns
// the ids whose publisher confirms are now due.
func (q *QueueFiles) StoreConfirmed(c Confirm) []format.MsgID {
	var out []format.MsgID
	for _, id := range c.IDs {
		p := q.pending[id]
		if p == nil {
			continue
		}
		if !c.Written {
			out = append(out, id)
			delete(q.pending, id)
			if !p.index {
				q.unindexed--
			}
			if p.done() {
				q.due--
			}
			continue
		}
		was := p.done()
		p.body = true
		q.countDone(p, was)
	}
	return append(out, q.takeConfirmed()...)
}

// Ack acknowledges seqs: their index entries are acked (v2 deletes a
// segment's files once its last entry is acked) and their shared store
// bodies released.
func (q *QueueFiles) Ack(seqs []uint64) (Result, error) {
	base := q.mark()
	var res Result
	if err := q.usable(); err != nil {
		return res, err
	}
	var indexed []uint64
	removes := map[bool][]format.MsgID{}
	for _, seq := range seqs {
		lm, ok := q.live[seq]
		if !ok {
			return res, fmt.Errorf("queue %q: ack of seq %d, which is not an unacked message", q.name, seq)
		}
		if lm.indexed {
			indexed = append(indexed, seq)
		}
		switch lm.place {
		case InSharedStore:
			removes[lm.persistent] = append(removes[lm.persistent], lm.id)
		case InQueueStore:
			q.qs.remove(seq)
		}
		delete(q.live, seq)
	}
	var err error
	if q.x2 != nil {
		var deleted []uint64
		deleted, err = q.x2.ack(indexed)
		if err == nil {
			err = q.qs.deleteSegments(deleted)
		}
	} else {
		var flushed bool
		flushed, err = q.x1.ack(indexed)
		if flushed {
			q.indexSynced()
		}
	}
	for _, persistent := range []bool{true, false} {
		if ids := removes[persistent]; len(ids) > 0 {
			q.v.Store(persistent).ClientRemove(q.ref, ids)
			res.Calls = append(res.Calls, StoreCall{Kind: CallRemove, Persistent: persistent, Client: q.ref, IDs: ids})
		}
	}
	res.Confirmed = q.takeConfirmed()
	res.IO = q.since(base)
	return res, err
}

// SyncNeed says whether a queue wants its sync timer.
type SyncNeed uint8

// Sync needs, as needs_sync/1 reports them.
const (
	NoSync       SyncNeed = iota // nothing to sync
	SyncIdle                     // v1: the journal holds data not fsynced
	SyncConfirms                 // publishers wait for confirms
)

// NeedsSync says whether the queue must sync: on its 200 ms timer when
// confirms wait, when idle otherwise.
func (q *QueueFiles) NeedsSync() SyncNeed {
	if q.unindexed > 0 {
		return SyncConfirms
	}
	if q.x1 != nil && q.x1.needsSync() {
		return SyncIdle
	}
	return NoSync
}

// Sync is the queue's sync timer: v2 writes the .qs buffer and the index
// buffer to the OS (no fsync); v1 writes and fsyncs the journal.
func (q *QueueFiles) Sync() (Result, error) {
	base := q.mark()
	var res Result
	if err := q.usable(); err != nil {
		return res, err
	}
	var err error
	if q.x2 != nil {
		if err = q.qs.sync(); err == nil {
			q.queueStoreSynced()
			if err = q.x2.flush(flushFull); err == nil {
				q.indexSynced()
			}
		}
	} else {
		var synced bool
		synced, err = q.x1.sync()
		if synced {
			q.indexSynced()
		}
	}
	res.Confirmed = q.takeConfirmed()
	res.IO = q.since(base)
	return res, err
}

// Flush is the flush before the queue hibernates when idle: v2 writes its
// index buffer (acks become zeroed slots) and the .qs buffer; v1 moves the
// journal into the segment files.
func (q *QueueFiles) Flush() (Result, error) {
	base := q.mark()
	var res Result
	if err := q.usable(); err != nil {
		return res, err
	}
	var err error
	if q.x2 != nil {
		if err = q.x2.flush(flushFull); err == nil {
			q.indexSynced()
			if err = q.qs.sync(); err == nil {
				q.queueStoreSynced()
			}
		}
	} else {
		var flushed bool
		flushed, err = q.x1.flush()
		if flushed {
			q.indexSynced()
		}
	}
	res.Confirmed = q.takeConfirmed()
	res.IO = q.since(base)
	return res, err
}

// Tick tells the queue the virtual time in milliseconds; the .qs delayed
// write buffer goes to the OS once its oldest byte is 10 s old.
func (q *QueueFiles) Tick(now int64) (IO, error) {
	base := q.mark()
	if q.qs == nil || q.closed {
		return IO{}, nil
	}
	err := q.qs.tick(now)
	return q.since(base), err
}

// Deadline returns when (virtual ms) the .qs buffer must be written if
// nothing writes it before; ok is false when nothing is buffered.
func (q *QueueFiles) Deadline() (int64, bool) {
	if q.qs == nil || q.closed {
		return 0, false
	}
	return q.qs.deadline()
}

// Read returns the stored message term of an unacked message from disk
// (or the store caches), for a message the queue no longer holds in
// memory.
func (q *QueueFiles) Read(seq uint64) ([]byte, IO, error) {
	base := q.mark()
	lm, ok := q.live[seq]
	if !ok {
		return nil, IO{}, fmt.Errorf("queue %q: read of seq %d, which is not an unacked message", q.name, seq)
	}
	switch lm.place {
	case InQueueStore:
		t, err := q.qs.read(seq, lm.loc)
		return t, q.since(base), err
	case InSharedStore:
		t, ops, err := q.v.Store(lm.persistent).Read(lm.id)
		return t, ops, err
	case InQueueIndex:
		pub, err := q.x1.read(seq)
		if err == nil && pub == nil {
			err = fmt.Errorf("queue %q: seq %d is not in the index", q.name, seq)
		}
		if err != nil {
			return nil, q.since(base), err
		}
		return []byte(pub.embedded), q.since(base), nil
	}
	return nil, IO{}, fmt.Errorf("queue %q: seq %d was never written to disk", q.name, seq)
}

// Unacked returns the seq ids of the unacked messages, in order.
func (q *QueueFiles) Unacked() []uint64 { return sortedKeys(q.live) }

// QueueTerms are the recovery terms a queue leaves on a clean shutdown (in
// RabbitMQ, its entry in recovery.dets); the caller keeps them and passes
// them back to OpenVHost.
type QueueTerms struct {
	PersistentRef ClientRef
	Version       int
	NextSeq       uint64
	// V1Segments is {segments, [{Seg, Unacked}]} of the v1 index.
	V1Segments map[uint64]int
	// V2Segments is {v2_index_state, {2, #{Seg => Unacked}}}.
	V2Segments map[uint64]int
}

// Terminate stops the queue's storage cleanly: v2 flushes its index and
// fsyncs its files; v1 writes and fsyncs the journal. It returns the
// recovery terms.
func (q *QueueFiles) Terminate() (QueueTerms, IO, error) {
	base := q.mark()
	if err := q.usable(); err != nil {
		return QueueTerms{}, IO{}, err
	}
	terms := QueueTerms{PersistentRef: q.ref, Version: q.opts.Version, NextSeq: q.nextSeq}
	var err error
	if q.x2 != nil {
		if err = q.x2.terminate(); err == nil {
			err = q.qs.terminate()
		}
		terms.V2Segments = copyCounts(q.x2.segments)
	} else {
		terms.V1Segments, err = q.x1.terminate()
	}
	q.v.Store(false).DeleteClient(q.ref)
	q.closed = true
	delete(q.v.queues, q.name)
	return terms, q.since(base), err
}

func copyCounts(m map[uint64]int) map[uint64]int {
	out := make(map[uint64]int, len(m))
	for k, v := range m {
		out[k] = v
	}
	return out
}

// Delete deletes the queue: its directory goes, and its shared store
// bodies are released (the returned calls).
func (q *QueueFiles) Delete() (Result, error) {
	base := q.mark()
	var res Result
	if err := q.usable(); err != nil {
		return res, err
	}
	removes := map[bool][]format.MsgID{}
	for _, seq := range sortedKeys(q.live) {
		if lm := q.live[seq]; lm.place == InSharedStore {
			removes[lm.persistent] = append(removes[lm.persistent], lm.id)
		}
	}
	var err error
	if q.x1 != nil {
		_, err = q.x1.sync()
	}
	if err == nil {
		err = q.v.d.removeAll(q.dir)
	}
	for _, persistent := range []bool{true, false} {
		st := q.v.Store(persistent)
		if ids := removes[persistent]; len(ids) > 0 {
			st.ClientRemove(q.ref, ids)
			res.Calls = append(res.Calls, StoreCall{Kind: CallRemove, Persistent: persistent, Client: q.ref, IDs: ids})
		}
		res.Calls = append(res.Calls, StoreCall{Kind: CallDeleteClient, Persistent: persistent, Client: q.ref})
	}
	q.live, q.pending, q.closed = nil, nil, true
	q.unindexed, q.due = 0, 0
	delete(q.v.queues, q.name)
	res.IO = q.since(base)
	return res, err
}

// newQueueFiles builds the storage state of a queue, without touching disk.
func (v *VHost) newQueueFiles(name string, opts QueueOptions) *QueueFiles {
	dirName := format.QueueDirName(v.p.VHost, name)
	dir := path.Join(v.dir, queuesDir, dirName)
	q := &QueueFiles{
		v: v, name: name, dir: dir, opts: opts, ref: ClientRef(dirName),
		live: map[uint64]*liveMsg{}, pending: map[format.MsgID]*pendingConfirm{},
	}
	stub := format.QueueName{VHost: v.p.VHost, Queue: name, IndexV2: opts.Version == 2}
	if opts.Version == 2 {
		q.x2 = newIndexV2(v.d, dir, v.p.V2SegmentEntryCount)
		q.qs = newStoreV2(v.d, dir, v.p)
	} else {
		q.x1 = newIndexV1(v.d, dir, stub, v.v1Segments, v.p.MaxJournalEntries)
	}
	return q
}

// Buffered says whether the queue holds writes (index entries, acks,
// bodies) that have not reached the OS: a crash of its process would lose
// them.
func (q *QueueFiles) Buffered() bool {
	if q.closed {
		return false
	}
	if q.x1 != nil && q.x1.jbuf.len() > 0 {
		return true
	}
	if q.x2 != nil && len(q.x2.buffer) > 0 {
		return true
	}
	return q.qs != nil && len(q.qs.buf) > 0
}

// SharedEntry says where the body of seq's message is when the queue keeps
// it in a shared store (Placement InSharedStore): what MsgStore.Entry says
// of it. ok is false when the body is in the queue's own files, or seq is
// not on disk.
func (q *QueueFiles) SharedEntry(seq uint64) (path string, off, size int64, cached, ok bool) {
	lm, found := q.live[seq]
	if !found || lm.place != InSharedStore {
		return "", 0, 0, false, false
	}
	return q.v.Store(lm.persistent).Entry(lm.id)
}
