package store

import (
	"fmt"
	"path"

	"warren/engine/store/format"
	"warren/engine/vfs"
)

// Models the storage side of rabbit_vhost:recover/1: the vhost directory,
// its .vhost and .config files, the deletion of queue directories no
// durable queue owns (rabbit_queue_index:start/2), and the start of the
// two shared stores (rabbit_variable_queue:start_msg_store/3).

// VHost is the storage of one vhost on an FS: the shared stores and the
// queues' files under <root>/msg_stores/vhosts/<VHostDirName>/.
type VHost struct {
	d          *disk
	root       string
	dir        string
	p          Profile
	v1Segments int // v1 segment entry count read from .config

	persistent *MsgStore
	transient  *MsgStore
	queues     map[string]*QueueFiles
	durable    map[string]QueueRef // what OpenVHost was told to recover
}

// QueueRef names a durable queue to recover, with the recovery terms it
// left on a clean shutdown (nil after a crash).
type QueueRef struct {
	Name    string
	Options QueueOptions
	Terms   *QueueTerms
}

// OpenVHost lays out the vhost under root (creating it on first use) and
// starts its stores: the transient store is wiped; the persistent store
// recovers, cleanly when every durable queue left terms naming the clients
// its clean.dot names, else by walking the durable queues' indexes and
// scanning its files. Queue directories of queues not in durable are
// deleted. Queues are then opened with OpenQueue or RecoverQueue.
func OpenVHost(fsys vfs.FS, root string, p Profile, durable []QueueRef) (*VHost, IO, error) {
	if err := p.check(); err != nil {
		return nil, IO{}, err
	}
	d := newDisk(fsys)
	v := &VHost{d: d, root: root, dir: VHostDir(root, p.VHost), p: p, queues: map[string]*QueueFiles{}, durable: map[string]QueueRef{}}
	for _, r := range durable {
		if err := r.Options.check(); err != nil {
			return nil, d.io, fmt.Errorf("queue %q: %w", r.Name, err)
		}
		if !r.Options.Durable {
			return nil, d.io, fmt.Errorf("queue %q: only durable queues are recovered", r.Name)
		}
		v.durable[r.Name] = r
	}
	fresh := !d.exists(v.dir)
	if err := v.layout(fresh); err != nil {
		return nil, d.io, err
	}
	if err := v.deleteStrayQueues(); err != nil {
		return nil, d.io, err
	}
	var err error
	v.transient, err = openMsgStore(d, path.Join(v.dir, transientStoreDir), p, false, true, nil, nil)
	if err != nil {
		return nil, d.io, err
	}
	var refs []ClientRef
	for _, r := range durable {
		if r.Terms != nil {
			refs = append(refs, r.Terms.PersistentRef)
		}
	}
	v.persistent, err = openMsgStore(d, path.Join(v.dir, persistentStoreDir), p, true, false, refs, v.walk)
	if err != nil {
		return nil, d.io, err
	}
	return v, d.io, nil
}

// layout writes .vhost (at every start) and .config (when missing: the
// configured segment entry count, or the legacy 16384 when queues already
// exist), then reads the v1 segment entry count back.
//
// NB: a fresh vhost's .vhost and .config are fsynced. RabbitMQ writes them
// once, long before any lesson's power loss, and the kernel writes them
// back within seconds; without the fsync a power loss in the first seconds
// of a lesson would take the whole vhost with it.
func (v *VHost) layout(fresh bool) error {
	d := v.d
	if err := d.mkdirAll(v.dir); err != nil {
		return err
	}
	vhostFile := path.Join(v.dir, format.VHostFile)
	if err := d.writeFile(vhostFile, []byte(v.p.VHost)); err != nil {
		return err
	}
	config := path.Join(v.dir, format.VHostConfig)
	if !d.exists(config) {
		n := v.p.V1SegmentEntryCount
		if qs, _ := d.list(path.Join(v.dir, queuesDir)); len(qs) > 0 {
			n = format.LegacyV1SegmentEntryCount
		}
		if err := d.writeFile(config, format.EncodeVHostConfig(n)); err != nil {
			return err
		}
	}
	if fresh {
		for _, name := range []string{vhostFile, config} {
			f, err := d.open(name)
			if err != nil {
				return err
			}
			err = f.sync()
			f.close()
			if err != nil {
				return err
			}
		}
	}
	v.v1Segments = format.LegacyV1SegmentEntryCount
	if data, ok, err := d.readFile(config); err != nil {
		return err
	} else if ok {
		if n, err := format.DecodeVHostConfig(config, data); err == nil {
			v.v1Segments = n
		}
	}
	return nil
}

// deleteStrayQueues deletes the queue directories of queues not recovered.
func (v *VHost) deleteStrayQueues() error {
	keep := map[string]bool{}
	for name := range v.durable {
		keep[format.QueueDirName(v.p.VHost, name)] = true
	}
	dirs, err := v.d.list(path.Join(v.dir, queuesDir))
	if err != nil {
		return err
	}
	for _, dir := range dirs {
		if !keep[dir] {
			if err := v.d.removeAll(path.Join(v.dir, queuesDir, dir)); err != nil {
				return err
			}
		}
	}
	return nil
}

// walk counts, over every durable queue's index files, the references to
// the persistent store (queue_index_walker).
func (v *VHost) walk() (map[format.MsgID]int, error) {
	counts := map[format.MsgID]int{}
	for _, name := range sortedNames(v.durable) {
		dir := path.Join(v.dir, queuesDir, format.QueueDirName(v.p.VHost, name))
		if err := walkV2(v.d, dir, counts); err != nil {
			return nil, err
		}
		if err := walkV1(v.d, dir, v.v1Segments, counts); err != nil {
			return nil, err
		}
	}
	return counts, nil
}

// Dir returns the vhost directory.
func (v *VHost) Dir() string { return v.dir }

// Profile returns the profile the vhost runs.
func (v *VHost) Profile() Profile { return v.p }

// V1SegmentEntryCount returns the v1 segment size from .config.
func (v *VHost) V1SegmentEntryCount() int { return v.v1Segments }

// Store returns the persistent or the transient shared store.
func (v *VHost) Store(persistent bool) *MsgStore {
	if persistent {
		return v.persistent
	}
	return v.transient
}

// Queue returns an open queue's storage.
func (v *VHost) Queue(name string) *QueueFiles { return v.queues[name] }

// Deliver hands calls to the store processes at once and routes their
// confirms back to the queues; it returns the confirms due to publishers,
// by queue name, for callers that do not model the stores as processes.
func (v *VHost) Deliver(calls []StoreCall) (map[string][]format.MsgID, IO, error) {
	var ops IO
	out := map[string][]format.MsgID{}
	for _, c := range calls {
		res, err := v.Store(c.Persistent).Handle(c)
		ops.Add(res.IO)
		v.routeConfirms(res.Confirms, out)
		if err != nil {
			return out, ops, err
		}
	}
	return out, ops, nil
}

// routeConfirms hands store confirms to their queues.
func (v *VHost) routeConfirms(confirms []Confirm, out map[string][]format.MsgID) {
	for _, c := range confirms {
		for name, q := range v.queues {
			if q.ref == c.Client {
				if ids := q.StoreConfirmed(c); len(ids) > 0 {
					out[name] = append(out[name], ids...)
				}
			}
		}
	}
}

// SyncStores runs the persistent and transient stores' sync timers and
// routes their confirms; see Deliver.
func (v *VHost) SyncStores() (map[string][]format.MsgID, IO, error) {
	var ops IO
	out := map[string][]format.MsgID{}
	for _, st := range []*MsgStore{v.persistent, v.transient} {
		res, err := st.Sync()
		ops.Add(res.IO)
		v.routeConfirms(res.Confirms, out)
		if err != nil {
			return out, ops, err
		}
	}
	return out, ops, nil
}

// OpenQueue declares a new queue. A v2 queue writes its directory and
// .queue_name at once; a v1 queue only when its journal is first used.
func (v *VHost) OpenQueue(name string, opts QueueOptions) (*QueueFiles, IO, error) {
	base := v.d.io
	if err := opts.check(); err != nil {
		return nil, IO{}, fmt.Errorf("queue %q: %w", name, err)
	}
	if _, ok := v.queues[name]; ok {
		return nil, IO{}, fmt.Errorf("queue %q is already open", name)
	}
	q := v.newQueueFiles(name, opts)
	if q.x2 != nil && v.d.exists(q.dir) {
		return nil, IO{}, fmt.Errorf("queue %q: directory %s already exists", name, q.dir)
	}
	if err := q.writeStub(); err != nil {
		return nil, v.d.io.sub(base), err
	}
	v.register(q)
	return q, v.d.io.sub(base), nil
}

// writeStub writes the v2 .queue_name stub (ensure_queue_name_stub_file).
func (q *QueueFiles) writeStub() error {
	if q.x2 == nil {
		return nil
	}
	if err := q.v.d.mkdirAll(q.dir); err != nil {
		return err
	}
	stub := format.QueueName{VHost: q.v.p.VHost, Queue: q.name, IndexV2: true}
	return q.v.d.writeFile(path.Join(q.dir, format.QueueNameFile), stub.Encode())
}

func (v *VHost) register(q *QueueFiles) {
	v.queues[q.name] = q
	if q.opts.Durable {
		v.persistent.RegisterClient(q.ref, true)
	}
	v.transient.RegisterClient(q.ref, false)
}

// QueueRecovery is what a queue recovery found.
type QueueRecovery struct {
	// Clean says the index recovered from its terms without a scan.
	Clean bool
	// Messages are the persistent unacked messages, by seq. The id of a
	// message in a .qs file is inside its term (QueueFiles.Read).
	Messages []RecoveredMsg
	// Dropped are the v2 index's counts of dropped messages (dirty only).
	Dropped DroppedCounts
	// NextSeq is the first seq id the queue may use.
	NextSeq uint64
	// IO are the file operations of the recovery.
	IO IO
}

// RecoverQueue recovers a durable queue named to OpenVHost: from its terms
// when it shut down cleanly and the persistent store recovered cleanly,
// else by checking every index entry (see the v1 and v2 indexes).
// Transient messages found on disk are acked.
func (v *VHost) RecoverQueue(name string) (*QueueFiles, QueueRecovery, error) {
	base := v.d.io
	var rec QueueRecovery
	ref, ok := v.durable[name]
	if !ok {
		return nil, rec, fmt.Errorf("queue %q was not named to OpenVHost as a durable queue", name)
	}
	if _, open := v.queues[name]; open {
		return nil, rec, fmt.Errorf("queue %q is already open", name)
	}
	q := v.newQueueFiles(name, ref.Options)
	terms := ref.Terms
	clean := terms != nil && v.persistent.Clean() && terms.Version == ref.Options.Version
	var msgs []RecoveredMsg
	var err error
	if q.x2 != nil {
		if err = q.writeStub(); err != nil {
			return nil, rec, err
		}
		if clean && terms.V2Segments != nil {
			msgs, err = q.x2.recoverClean(terms.V2Segments)
		} else {
			clean = false
			msgs, rec.Dropped, err = q.x2.recoverDirty(q.qs, v.persistent.Contains)
		}
	} else {
		contains := func(p *v1Pub) bool {
			if len(p.embedded) > 0 {
				return p.persistent
			}
			return v.persistent.Contains(p.rec.MsgID)
		}
		if clean && terms.V1Segments != nil {
			msgs, err = q.x1.recoverClean(terms.V1Segments)
		} else {
			clean = false
			msgs, err = q.x1.recoverDirty(terms != nil, contains)
		}
	}
	if err != nil {
		return nil, rec, err
	}
	rec.Clean = clean
	v.register(q)
	var transient []uint64
	for _, m := range msgs {
		if !m.Persistent {
			transient = append(transient, m.Seq)
		}
		q.live[m.Seq] = &liveMsg{id: m.ID, place: m.Placement, persistent: m.Persistent, indexed: true, loc: m.Location}
		if m.Persistent {
			rec.Messages = append(rec.Messages, m)
		}
	}
	q.nextSeq = q.bounds()
	if terms != nil && terms.NextSeq > q.nextSeq {
		q.nextSeq = terms.NextSeq
	}
	rec.NextSeq = q.nextSeq
	if len(transient) > 0 {
		for _, seq := range transient {
			if lm := q.live[seq]; lm.place == InSharedStore {
				// The transient store was wiped: there is nothing to remove.
				lm.place = InMemory
			}
		}
		if _, err := q.Ack(transient); err != nil {
			rec.IO = v.d.io.sub(base)
			return q, rec, err
		}
	}
	rec.IO = v.d.io.sub(base)
	return q, rec, nil
}

// bounds is the index's upper bound: the start of the segment after the
// newest one.
func (q *QueueFiles) bounds() uint64 {
	if q.x2 != nil {
		if len(q.x2.segments) == 0 {
			return 0
		}
		keys := sortedKeys(q.x2.segments)
		return (keys[len(keys)-1] + 1) * q.x2.n
	}
	segs, _ := q.x1.allSegments()
	if len(segs) == 0 {
		return 0
	}
	return (segs[len(segs)-1] + 1) * q.x1.n
}

// Shutdown stops the vhost cleanly: durable queues terminate (their terms
// are returned by name), other queues are deleted, then the stores stop.
func (v *VHost) Shutdown() (map[string]QueueTerms, IO, error) {
	base := v.d.io
	terms := map[string]QueueTerms{}
	for _, name := range sortedNames(v.queues) {
		q := v.queues[name]
		if q.opts.Durable {
			t, _, err := q.Terminate()
			if err != nil {
				return terms, v.d.io.sub(base), err
			}
			terms[name] = t
			continue
		}
		res, err := q.Delete()
		if err == nil {
			_, _, err = v.Deliver(res.Calls)
		}
		if err != nil {
			return terms, v.d.io.sub(base), err
		}
	}
	if _, err := v.transient.Terminate(); err != nil {
		return terms, v.d.io.sub(base), err
	}
	_, err := v.persistent.Terminate()
	return terms, v.d.io.sub(base), err
}

func sortedNames[V any](m map[string]V) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sortStrings(out)
	return out
}

// CrashQueue forgets an open queue whose process was killed: what it held
// in its write buffers is lost, what it wrote stays on disk for
// RecoverQueue, which recovers it as after a crash (no terms).
func (v *VHost) CrashQueue(name string) {
	q, ok := v.queues[name]
	if !ok {
		return
	}
	delete(v.queues, name)
	q.closed = true
	v.durable[name] = QueueRef{Name: name, Options: q.opts}
}

// EraseQueue deletes the files of a queue that is not open (a crashed queue
// deleted without a process to clean up: rabbit_variable_queue's
// delete_crashed). Its references in the shared stores stay until the
// next start.
func (v *VHost) EraseQueue(name string, opts QueueOptions) (IO, error) {
	base := v.d.io
	if _, open := v.queues[name]; open {
		return IO{}, fmt.Errorf("queue %q is open", name)
	}
	delete(v.durable, name)
	q := v.newQueueFiles(name, opts)
	err := v.d.removeAll(q.dir)
	return v.d.io.sub(base), err
}
