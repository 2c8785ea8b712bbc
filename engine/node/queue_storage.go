package node

// A queue's files: what rabbit_variable_queue writes for a durable or lazy
// queue, one set of files per priority level (a priority queue's levels are
// queues of their own, named Q ++ <<0, P>>), the queue's sync timer, its
// idle flush, and publisher confirms that wait for the disk.

import (
	"sort"

	"warren/engine/amqp"
	"warren/engine/beam"
	"warren/engine/store"
	"warren/engine/store/format"
)

// queueSyncInterval is the queue's sync timer (200 ms) while publishers
// wait for confirms.
const queueSyncInterval = 200_000

// idleFlush is how long a queue waits, idle, before it flushes its index
// and store buffers (it hibernates).
const idleFlush = 1_000_000

type pubRef struct {
	ch  beam.PID
	seq uint64
}

type queueDisk struct {
	levels      []*store.QueueFiles
	next        []uint64   // next storage seq id per level
	acks        [][]uint64 // storage seq ids to ack at the end of this event
	lazy        bool
	confirmWait map[format.MsgID][]pubRef
	// unflushed are messages acked while their ack is still in a write
	// buffer: a crash of the process brings them back
	unflushed  []goneMsg
	syncArmed  bool
	flushArmed bool
	lastWork   int64
	// persistGone counts persistent messages of a durable queue that left
	// it in this event: each costs Costs.PersistAck at its end
	persistGone int
}

// queueVersion is the index version a queue uses: x-queue-version, else
// the policy's queue-version, else the profile's default.
func (n *Node) queueVersion(rec *QueueRecord) int {
	if v, ok := effective(rec.Args, rec.Policy, "queue-version"); ok && v.Kind.IsInt() && (v.Int == 1 || v.Int == 2) {
		return int(v.Int)
	}
	if n.Config.Version == "4.0" {
		return 2
	}
	return 1
}

// openFiles gives a durable or lazy queue its files; paging gives any
// queue its files.
func (q *queue) openFiles() { q.openFilesFor(false) }

func (q *queue) openFilesFor(paging bool) {
	n := q.n
	lazy := false
	if v, ok := effective(q.rec.Args, q.rec.Policy, "queue-mode"); ok && v.Kind == amqp.LongStr && v.Str == "lazy" {
		lazy = true
	}
	if n.vhost == nil || (!q.rec.Durable && !lazy && !paging) {
		return
	}
	n.startStores()
	d := &queueDisk{lazy: lazy, confirmWait: map[format.MsgID][]pubRef{}}
	opts := store.QueueOptions{Durable: q.rec.Durable, Version: n.queueVersion(q.rec), Lazy: lazy}
	_, isPriority := q.rec.Args.Get("x-max-priority")
	for lvl := range q.ready.levels {
		name := q.rec.Name
		if isPriority {
			name = format.PriorityQueueName(name, uint8(lvl))
		}
		files, _, err := n.vhost.OpenQueue(name, opts)
		if err != nil {
			n.storageFault(err)
			return
		}
		n.storeClients[files.ClientRef()] = q.pid
		d.levels = append(d.levels, files)
		d.next = append(d.next, 0)
		d.acks = append(d.acks, nil)
	}
	q.disk = d
}

// goneMsg is a message that left the queue, by its place on disk.
type goneMsg struct {
	lvl  int
	dseq uint64
	msg  *Message
}

// pagedEntry is a message being paged out, with its priority level.
type pagedEntry struct {
	lvl int
	e   *entry
}

// writePaged writes messages paged out under memory pressure to the
// queue's files, in seq order, opening them on the first page-out of a
// queue that had none. A message of a queue without files gets the seq id
// RabbitMQ gave it at publish (one sequence per priority level).
func (q *queue) writePaged(ctx *beam.Ctx, batch []pagedEntry) {
	if q.n.vhost == nil || len(batch) == 0 {
		return
	}
	if q.disk == nil {
		q.openFilesFor(true)
		if q.disk == nil {
			return
		}
	}
	d := q.disk
	sort.Slice(batch, func(i, j int) bool { return batch[i].e.seq < batch[j].e.seq })
	for _, p := range batch {
		e := p.e
		if !e.stored {
			if len(d.levels) == 1 {
				e.dseq = e.seq - 1
			} else {
				e.dseq = d.next[p.lvl]
			}
			e.stored = true
			d.next[p.lvl] = max(d.next[p.lvl], e.dseq+1)
		}
		pm, err := storedMessage(e.msg, e.expiry, false)
		if err != nil {
			q.fault(err)
			continue
		}
		res, err := d.levels[p.lvl].PageOut(e.dseq, pm)
		q.fault(err)
		q.storeResult(ctx, res)
	}
}

// store writes a published message to the queue's files, and says whether
// its publisher's confirm must wait for the disk.
func (q *queue) store(ctx *beam.Ctx, e *entry, seq uint64, from beam.PID) (waits bool) {
	d := q.disk
	lvl := q.ready.levelOf(e.msg)
	pm, err := storedMessage(e.msg, e.expiry, seq != 0)
	if err != nil {
		q.fault(err)
		return false
	}
	e.dseq, e.stored = d.next[lvl], true
	d.next[lvl]++
	res, err := d.levels[lvl].Publish(e.dseq, pm)
	q.fault(err)
	if q.rec.Durable && e.msg.Props.Persistent() {
		ctx.Charge(q.n.Config.Costs.PersistPublish)
	}
	if seq != 0 {
		d.confirmWait[pm.ID] = append(d.confirmWait[pm.ID], pubRef{from, seq})
		waits = true
	}
	q.storeResult(ctx, res)
	return waits
}

// storeResult charges a storage operation, sends its calls to the stores
// and its confirms to publishers.
func (q *queue) storeResult(ctx *beam.Ctx, res store.Result) {
	ctx.Charge(q.n.ioCost(res.IO))
	for i := range res.Calls {
		c := res.Calls[i]
		to := q.n.stores[0]
		if c.Persistent {
			to = q.n.stores[1]
		}
		flow := c.Kind == store.CallWrite
		n := int64(0)
		if flow {
			n = 1
			if q.credit.sendSpec(to, MsgStoreCredit, ctx.Now) {
				q.n.cluster.creditTold(q.pid, to, true)
			}
		}
		ctx.Send(to, beam.Msg{Kind: kStoreCall, N: n, P: &c})
	}
	q.confirmIDs(ctx, res.Confirmed)
	q.disk.lastWork = ctx.End()
}

func (q *queue) confirmIDs(ctx *beam.Ctx, ids []format.MsgID) {
	for _, id := range ids {
		refs := q.disk.confirmWait[id]
		if len(refs) == 0 {
			continue
		}
		r := refs[0]
		if len(refs) == 1 {
			delete(q.disk.confirmWait, id)
		} else {
			q.disk.confirmWait[id] = refs[1:]
		}
		ctx.Send(r.ch, beam.Msg{Kind: kConfirm, N: int64(r.seq)})
	}
}

// gone records that a stored message left the queue for good; its ack is
// written at the end of the event.
func (q *queue) gone(e *entry) {
	if q.disk == nil || !e.stored {
		return
	}
	lvl := q.ready.levelOf(e.msg)
	if q.rec.Durable && e.msg.Props.Persistent() {
		q.disk.persistGone++
	}
	q.disk.acks[lvl] = append(q.disk.acks[lvl], e.dseq)
	q.disk.unflushed = append(q.disk.unflushed, goneMsg{lvl, e.dseq, e.msg})
}

// afterEvent settles the queue's files after it handled a message: acks,
// the sync when publishers wait (at once when idle, else on the 200 ms
// timer) and the idle flush.
func (q *queue) afterEvent(ctx *beam.Ctx) {
	d := q.disk
	if d == nil || q.deleted {
		return
	}
	if d.persistGone > 0 {
		ctx.Charge(int64(d.persistGone) * q.n.Config.Costs.PersistAck)
		d.persistGone = 0
	}
	for lvl, acks := range d.acks {
		if len(acks) == 0 {
			continue
		}
		res, err := d.levels[lvl].Ack(acks)
		q.fault(err)
		d.acks[lvl] = acks[:0]
		q.storeResult(ctx, res)
	}
	idle := ctx.MailboxEmpty()
	for _, f := range d.levels {
		switch f.NeedsSync() {
		case store.SyncConfirms:
			if idle {
				q.syncFiles(ctx, f)
			} else if !d.syncArmed {
				d.syncArmed = true
				ctx.SendAfter(q.pid, queueSyncInterval, beam.Msg{Kind: kTimerSync})
			}
		case store.SyncIdle:
			if idle {
				q.syncFiles(ctx, f)
			}
		}
	}
	if !d.flushArmed && d.lastWork > 0 {
		d.flushArmed = true
		ctx.SendAfter(q.pid, idleFlush, beam.Msg{Kind: kTimerFlush})
	}
	if len(d.unflushed) > 0 && !d.buffered() {
		d.unflushed = d.unflushed[:0]
	}
}

// buffered says whether any level holds writes not yet given to the OS.
func (d *queueDisk) buffered() bool {
	for _, f := range d.levels {
		if f.Buffered() {
			return true
		}
	}
	return false
}

func (q *queue) syncFiles(ctx *beam.Ctx, f *store.QueueFiles) {
	res, err := f.Sync()
	q.fault(err)
	q.storeResult(ctx, res)
}

// diskTimer handles the sync and idle flush timers.
func (q *queue) diskTimer(ctx *beam.Ctx, kind uint16) {
	d := q.disk
	if d == nil {
		return
	}
	switch kind {
	case kTimerSync:
		d.syncArmed = false
		for _, f := range d.levels {
			if f.NeedsSync() != store.NoSync {
				q.syncFiles(ctx, f)
			}
		}
	case kTimerFlush:
		d.flushArmed = false
		if quiet := ctx.Now - d.lastWork; quiet < idleFlush {
			d.flushArmed = true
			ctx.SendAfter(q.pid, idleFlush-quiet, beam.Msg{Kind: kTimerFlush})
			return
		}
		for _, f := range d.levels {
			res, err := f.Flush()
			q.fault(err)
			ctx.Charge(q.n.ioCost(res.IO))
			q.confirmIDs(ctx, res.Confirmed)
			for i := range res.Calls {
				c := res.Calls[i]
				to := q.n.stores[0]
				if c.Persistent {
					to = q.n.stores[1]
				}
				ctx.Send(to, beam.Msg{Kind: kStoreCall, P: &c})
			}
		}
		d.lastWork = 0
	}
}

// storeConfirmed handles a store's confirm of writes on disk.
func (q *queue) storeConfirmed(ctx *beam.Ctx, c *store.Confirm) {
	if q.disk == nil {
		return
	}
	for _, f := range q.disk.levels {
		if f.ClientRef() == c.Client {
			q.confirmIDs(ctx, f.StoreConfirmed(*c))
		}
	}
}

// deleteFiles removes the queue's files with the queue.
func (q *queue) deleteFiles(ctx *beam.Ctx) {
	if q.disk == nil {
		return
	}
	for _, f := range q.disk.levels {
		res, err := f.Delete()
		q.fault(err)
		delete(q.n.storeClients, f.ClientRef())
		q.storeResult(ctx, res)
	}
}

// levelNames are the names a queue's files go by: one per priority level.
func levelNames(rec *QueueRecord) []string {
	v, ok := rec.Args.Get("x-max-priority")
	if !ok {
		return []string{rec.Name}
	}
	out := make([]string, v.Int+1)
	for lvl := range out {
		out[lvl] = format.PriorityQueueName(rec.Name, uint8(lvl))
	}
	return out
}

func (n *Node) queueOptions(rec *QueueRecord) store.QueueOptions {
	lazy := false
	if v, ok := effective(rec.Args, rec.Policy, "queue-mode"); ok && v.Kind == amqp.LongStr && v.Str == "lazy" {
		lazy = true
	}
	return store.QueueOptions{Durable: rec.Durable, Version: n.queueVersion(rec), Lazy: lazy}
}
