package store

import (
	"errors"
	"fmt"
	"math/rand"
	"sort"
	"strings"
	"testing"

	"warren/engine/store/format"
	"warren/engine/vfs"
)

// crashScenario is a seeded sequence of queue and store operations.
type crashScenario struct {
	name      string
	p         Profile
	queues    []QueueRef // Terms unused
	seed      int64
	steps     int
	largePct  int  // share of 6 KB..12 KB bodies (shared store)
	transPct  int  // share of transient messages
	fanout    bool // publish some messages to two queues under one id
	randAcks  bool // ack any unacked message, not mostly the oldest
	restartAt []int
}

// msgKey is one message in one queue.
type msgKey struct {
	queue string
	id    format.MsgID
}

// runModel is what the publishers and consumers were told, and what the
// driver knows about where each message went.
type runModel struct {
	term       map[msgKey][]byte
	persistent map[msgKey]bool // persistent message in a durable queue
	shared     map[msgKey]bool // body in the persistent shared store
	confirmed  map[msgKey]bool
	durable    map[msgKey]bool // confirmed with an fsync behind index and body (v1, 3.10)
	ackTried   map[msgKey]bool
	ackDone    map[msgKey]bool
	ackSynced  map[msgKey]bool // the ack reached the OS (process crash keeps it)
	ackFsynced map[msgKey]bool // v1: a journal fsync followed the ack
	journalAck map[string][]msgKey
}

func newRunModel() *runModel {
	return &runModel{
		term: map[msgKey][]byte{}, persistent: map[msgKey]bool{}, shared: map[msgKey]bool{},
		confirmed: map[msgKey]bool{}, durable: map[msgKey]bool{},
		ackTried: map[msgKey]bool{}, ackDone: map[msgKey]bool{}, ackSynced: map[msgKey]bool{},
		ackFsynced: map[msgKey]bool{}, journalAck: map[string][]msgKey{},
	}
}

// driver runs a scenario on a crashFS over a MemFS.
type driver struct {
	t        testing.TB
	sc       crashScenario
	cfs      *crashFS
	mem      *vfs.MemFS
	v        *VHost
	qs       map[string]*QueueFiles
	live     map[string]map[uint64]format.MsgID // unacked seq -> id, by queue
	next     map[string]uint64
	place    map[msgKey]Placement
	inflight []StoreCall
	m        *runModel
	rng      *rand.Rand
	seq      map[msgKey]uint64 // where each message went in its queue
	// promised lists the promises of a clean shutdown the store broke:
	// live index entries it did not sync (see checkShutdownSynced).
	promised []string
	ids      int
	now      int64
	step     int
	gcOps    map[string]int    // GC steps run, by job kind and op
	moved    map[string][]Move // the messages each GC job running has moved, by its name
}

// errStop ends a run at the injected crash.
var errStop = errors.New("stopped at the crash point")

// newDriver runs sc with a crash before operation budget (inside it when
// torn > 0, after its first torn bytes), on a MemFS with the given faults.
func newDriver(t testing.TB, sc crashScenario, budget int, torn int, faults ...vfs.Fault) *driver {
	mem := vfs.NewMemFS()
	for _, f := range faults {
		if err := mem.SetFault(f.Kind, f.Pattern); err != nil {
			t.Fatal(err)
		}
	}
	return &driver{
		t: t, sc: sc, mem: mem, cfs: newCrashFS(mem, budget, torn),
		qs: map[string]*QueueFiles{}, live: map[string]map[uint64]format.MsgID{},
		next: map[string]uint64{}, place: map[msgKey]Placement{}, seq: map[msgKey]uint64{},
		m: newRunModel(), rng: rand.New(rand.NewSource(sc.seed)),
		gcOps: map[string]int{},
		moved: map[string][]Move{},
	}
}

// check turns an error into errStop at the crash point and fails the test
// for any other error.
func (d *driver) check(err error, what string) error {
	if err == nil {
		return nil
	}
	if d.cfs.crashed() {
		return errStop
	}
	d.t.Fatalf("%s step %d: %s: %v", d.sc.name, d.step, what, err)
	return err
}

func (d *driver) version(q string) int {
	for _, r := range d.sc.queues {
		if r.Name == q {
			return r.Options.Version
		}
	}
	return 0
}

func (d *driver) durableQueue(q string) bool {
	for _, r := range d.sc.queues {
		if r.Name == q {
			return r.Options.Durable
		}
	}
	return false
}

// run executes the scenario; it returns errStop when the crash point was
// reached.
func (d *driver) run() error {
	v, _, err := OpenVHost(d.cfs, ".", d.sc.p, nil)
	if err := d.check(err, "open vhost"); err != nil {
		return err
	}
	d.v = v
	for _, r := range d.sc.queues {
		q, _, err := v.OpenQueue(r.Name, r.Options)
		if err := d.check(err, "open queue"); err != nil {
			return err
		}
		d.qs[r.Name], d.live[r.Name] = q, map[uint64]format.MsgID{}
	}
	restarts := map[int]bool{}
	for _, s := range d.sc.restartAt {
		restarts[s] = true
	}
	for d.step = 0; d.step < d.sc.steps; d.step++ {
		var err error
		v, curP, curT := d.v, d.v.Store(true).current, d.v.Store(false).current
		switch r := d.rng.Intn(100); {
		case restarts[d.step]:
			err = d.restart()
		case r < 40 && d.sc.randAcks && d.rng.Intn(5) < 2:
			err = d.ack()
		case r < 40:
			err = d.publish()
		case r < 58:
			err = d.ack()
		case r < 66:
			err = d.queueSync()
		case r < 74:
			err = d.deliverInflight()
		case r < 80:
			err = d.storeSync()
		case r < 86:
			err = d.flush()
		case r < 94:
			err = d.gc()
		default:
			err = d.tick()
		}
		if err != nil {
			return err
		}
		if d.v == v { // not restarted
			d.checkRolled(v.Store(true), curP)
			d.checkRolled(v.Store(false), curT)
		}
	}
	return nil
}

func (d *driver) queueNames() []string {
	var names []string
	for _, r := range d.sc.queues {
		names = append(names, r.Name)
	}
	return names
}

func (d *driver) pick() string {
	names := d.queueNames()
	return names[d.rng.Intn(len(names))]
}

// confirm records publisher confirms.
func (d *driver) confirm(queue string, ids []format.MsgID) {
	for _, id := range ids {
		k := msgKey{queue, id}
		if !d.m.persistent[k] {
			continue
		}
		d.m.confirmed[k] = true
		if d.version(queue) == 1 && d.sc.p.fsyncBeforeConfirm() {
			d.m.durable[k] = true
		} else if d.version(queue) == 1 && d.place[k] == InQueueIndex {
			d.m.durable[k] = true
		}
	}
}

func (d *driver) confirmAll(byQueue map[string][]format.MsgID) {
	for q, ids := range byQueue {
		d.confirm(q, ids)
	}
}

func (d *driver) publish() error {
	persistent := d.rng.Intn(100) >= d.sc.transPct
	size := 50 + d.rng.Intn(200)
	if d.rng.Intn(100) < d.sc.largePct {
		size = 6000 + d.rng.Intn(6000)
	}
	d.ids++
	id := testID(d.ids)
	targets := []string{d.pick()}
	if d.sc.fanout && len(d.sc.queues) > 1 && d.rng.Intn(3) == 0 {
		targets = d.queueNames()[:2]
	}
	props := transientProps
	if persistent {
		props = persistentProps
	}
	pm := publishMsg(d.t, "x", props, body(fmt.Sprintf("m%d-", d.ids), 'z', size), id, true)
	for _, qn := range targets {
		q := d.qs[qn]
		seq := d.next[qn]
		if seq < q.nextSeq {
			seq = q.nextSeq
		}
		d.next[qn] = seq + 1
		k := msgKey{qn, id}
		d.seq[k] = seq
		d.m.term[k] = pm.Term
		d.m.persistent[k] = persistent && d.durableQueue(qn)
		res, err := q.Publish(seq, pm)
		if err := d.check(err, "publish"); err != nil {
			return err
		}
		d.live[qn][seq] = id
		d.place[k] = res.Placement
		d.m.shared[k] = res.Placement == InSharedStore && d.m.persistent[k]
		d.inflight = append(d.inflight, res.Calls...)
		d.confirm(qn, res.Confirmed)
	}
	return nil
}

func (d *driver) ack() error {
	qn := d.pick()
	seqs := sortedKeys(d.live[qn])
	if len(seqs) == 0 {
		return nil
	}
	n := 1 + d.rng.Intn(3)
	var chosen []uint64
	if d.sc.randAcks {
		d.rng.Shuffle(len(seqs), func(i, j int) { seqs[i], seqs[j] = seqs[j], seqs[i] })
	}
	for _, seq := range seqs {
		if len(chosen) == n {
			break
		}
		if d.rng.Intn(4) != 0 {
			chosen = append(chosen, seq)
		}
	}
	if len(chosen) == 0 {
		chosen = seqs[:1]
	}
	var keys []msgKey
	for _, seq := range chosen {
		k := msgKey{qn, d.live[qn][seq]}
		d.m.ackTried[k] = true
		keys = append(keys, k)
	}
	res, err := d.qs[qn].Ack(chosen)
	if err := d.check(err, "ack"); err != nil {
		return err
	}
	for _, seq := range chosen {
		delete(d.live[qn], seq)
	}
	for _, k := range keys {
		d.m.ackDone[k] = true
	}
	d.m.journalAck[qn] = append(d.m.journalAck[qn], keys...)
	d.inflight = append(d.inflight, res.Calls...)
	d.confirm(qn, res.Confirmed)
	return nil
}

// acksReachedOS marks the acks of a queue as written to the OS.
func (d *driver) acksReachedOS(qn string) {
	for k := range d.m.ackDone {
		if k.queue == qn {
			d.m.ackSynced[k] = true
		}
	}
}

func (d *driver) queueSync() error {
	qn := d.pick()
	res, err := d.qs[qn].Sync()
	if err := d.check(err, "queue sync"); err != nil {
		return err
	}
	d.confirm(qn, res.Confirmed)
	d.acksReachedOS(qn)
	if d.version(qn) == 1 {
		for _, k := range d.m.journalAck[qn] {
			d.m.ackFsynced[k] = true
		}
		d.m.journalAck[qn] = nil
	}
	return nil
}

func (d *driver) flush() error {
	qn := d.pick()
	res, err := d.qs[qn].Flush()
	if err := d.check(err, "flush"); err != nil {
		return err
	}
	d.confirm(qn, res.Confirmed)
	d.acksReachedOS(qn)
	d.m.journalAck[qn] = nil
	return nil
}

func (d *driver) deliverInflight() error {
	calls := d.inflight
	d.inflight = nil
	for i, c := range calls {
		confirms, _, err := d.v.Deliver([]StoreCall{c})
		if err := d.check(err, "store call"); err != nil {
			d.inflight = calls[i:]
			return err
		}
		d.confirmAll(confirms)
	}
	return nil
}

func (d *driver) storeSync() error {
	if err := d.deliverInflight(); err != nil {
		return err
	}
	confirms, _, err := d.v.SyncStores()
	if err := d.check(err, "store sync"); err != nil {
		return err
	}
	d.confirmAll(confirms)
	return nil
}

func (d *driver) gc() error {
	for _, persistent := range []bool{true, false} {
		st := d.v.Store(persistent)
		st.ScheduleCompaction()
		for i := 0; i < 1+d.rng.Intn(4); i++ {
			rep, err := st.GCStep()
			if err := d.check(err, "gc step"); err != nil {
				return err
			}
			if rep.Step != "idle" {
				d.gcOps[strings.Fields(rep.Job)[0]+" "+rep.Step]++
			}
			if rep.Start {
				d.moved[rep.Job] = nil
			}
			d.moved[rep.Job] = append(d.moved[rep.Job], rep.Moved...)
			d.checkCompacted(st, rep, d.moved[rep.Job])
			d.checkMerging(rep)
			d.checkMerged(st, rep)
		}
	}
	return nil
}

func (d *driver) tick() error {
	d.now += 4000
	for _, qn := range d.queueNames() {
		_, err := d.qs[qn].Tick(d.now)
		if err := d.check(err, "tick"); err != nil {
			return err
		}
	}
	return nil
}

// restart shuts the vhost down cleanly and recovers it from its terms; the
// recovered queues must hold exactly the persistent unacked messages.
func (d *driver) restart() error {
	if err := d.deliverInflight(); err != nil {
		return err
	}
	writing := d.v2Writing()
	terms, _, err := d.v.Shutdown()
	if err := d.check(err, "shutdown"); err != nil {
		return err
	}
	d.checkShutdownSynced()
	d.checkStoppedQS(writing)
	for _, qn := range d.queueNames() {
		d.acksReachedOS(qn)
		if d.version(qn) == 1 {
			for _, k := range d.m.journalAck[qn] {
				d.m.ackFsynced[k] = true
			}
			d.m.journalAck[qn] = nil
		}
	}
	var refs []QueueRef
	for _, r := range d.sc.queues {
		if r.Options.Durable {
			t := terms[r.Name]
			refs = append(refs, QueueRef{Name: r.Name, Options: r.Options, Terms: &t})
		}
	}
	v, _, err := OpenVHost(d.cfs, ".", d.sc.p, refs)
	if err := d.check(err, "reopen vhost"); err != nil {
		return err
	}
	d.v = v
	for _, r := range d.sc.queues {
		if !r.Options.Durable {
			q, _, err := v.OpenQueue(r.Name, r.Options)
			if err := d.check(err, "redeclare queue"); err != nil {
				return err
			}
			d.qs[r.Name], d.live[r.Name] = q, map[uint64]format.MsgID{}
			continue
		}
		q, rec, err := v.RecoverQueue(r.Name)
		if err := d.check(err, "recover queue"); err != nil {
			return err
		}
		if !rec.Clean || !v.Store(true).Clean() {
			d.t.Fatalf("%s step %d: clean restart of %s recovered dirty (index clean %v, store clean %v)", d.sc.name, d.step, r.Name, rec.Clean, v.Store(true).Clean())
		}
		got, err := recoveredBodies(q, rec)
		if err := d.check(err, "read recovered"); err != nil {
			return err
		}
		want := map[format.MsgID]bool{}
		for seq, id := range d.live[r.Name] {
			if d.m.persistent[msgKey{r.Name, id}] {
				want[id] = true
			} else {
				delete(d.live[r.Name], seq)
			}
		}
		if len(got) != len(want) {
			d.t.Fatalf("%s step %d: clean restart of %s recovered %d messages, want %d", d.sc.name, d.step, r.Name, len(got), len(want))
		}
		for seq, rm := range got {
			if id := d.live[r.Name][seq]; id != rm.id || string(d.m.term[msgKey{r.Name, id}]) != string(rm.term) {
				d.t.Fatalf("%s step %d: clean restart of %s: seq %d holds %s, want %s", d.sc.name, d.step, r.Name, seq, rm.id, id)
			}
		}
		d.qs[r.Name] = q
	}
	return nil
}

// recovered is a message found by a recovery, with its decoded id.
type recovered struct {
	id         format.MsgID
	term       []byte
	persistent bool
}

// recoveredBodies reads and decodes every recovered message, by seq.
func recoveredBodies(q *QueueFiles, rec QueueRecovery) (map[uint64]recovered, error) {
	out := map[uint64]recovered{}
	for _, m := range rec.Messages {
		if _, dup := out[m.Seq]; dup {
			return nil, fmt.Errorf("seq %d recovered twice", m.Seq)
		}
		term, _, err := q.Read(m.Seq)
		if err != nil {
			return nil, fmt.Errorf("seq %d: %w", m.Seq, err)
		}
		msg, err := format.DecodeMessage("recovered", 0, term)
		if err != nil {
			return nil, fmt.Errorf("seq %d: %w", m.Seq, err)
		}
		if m.ID != (format.MsgID{}) && m.ID != msg.ID {
			return nil, fmt.Errorf("seq %d: index id %s, term id %s", m.Seq, m.ID, msg.ID)
		}
		out[m.Seq] = recovered{id: msg.ID, term: term, persistent: msg.Persistent}
	}
	return out, nil
}

func sortedMsgKeys(m map[msgKey]bool) []msgKey {
	var out []msgKey
	for k, v := range m {
		if v {
			out = append(out, k)
		}
	}
	sort.Slice(out, func(i, j int) bool {
		if out[i].queue != out[j].queue {
			return out[i].queue < out[j].queue
		}
		return string(out[i].id[:]) < string(out[j].id[:])
	})
	return out
}
