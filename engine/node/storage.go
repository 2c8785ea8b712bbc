package node

// The node's disk: an in-memory filesystem holding RabbitMQ 3.10's vhost
// layout, the shared message stores as processes, and the costs of file
// operations. Models rabbit_msg_store's process side (the store itself is
// engine/store).

import (
	"encoding/binary"
	"fmt"
	"strings"

	"warren/engine/beam"
	"warren/engine/say"
	"warren/engine/store"
	"warren/engine/store/format"
	"warren/engine/vfs"
)

// DataDir is where the node keeps its files on its filesystem.
const DataDir = "mnesia/rabbit@localhost"

// StorageCosts are virtual µs per file operation.
type StorageCosts struct {
	Call     int64 // one write, read or truncate call
	PerKB    int64 // per KiB written or read
	Fsync    int64 // fsync of a file (the process waits for the disk)
	Metadata int64 // create, remove, rename, mkdir, directory sync
}

// DefaultStorageCosts are the 3.10 profile's storage costs.
var DefaultStorageCosts = StorageCosts{Call: 3, PerKB: 1, Fsync: 250, Metadata: 20}

func (n *Node) ioCost(o store.IO) int64 {
	c := &n.Config.Storage
	return int64(o.Writes+o.Reads+o.Truncates)*c.Call +
		(o.BytesWritten+o.BytesRead)/1024*c.PerKB +
		int64(o.Syncs)*c.Fsync +
		int64(o.Creates+o.Removes+o.Renames+o.Mkdirs+o.DirSyncs)*c.Metadata
}

// storeProfile is the store profile of a version profile.
func storeProfile(version string, fileSizeLimit int64) store.Profile {
	p := store.Profile310()
	if version != "3.10" {
		p = store.Profile313()
	}
	if fileSizeLimit > 0 {
		p.FileSizeLimit = fileSizeLimit
	}
	return p
}

// openDisk lays out the vhost on a fresh in-memory filesystem and starts
// the two shared stores as processes.
func (n *Node) openDisk() error {
	n.Disk = vfs.NewMemFS()
	n.Disk.SetTracing(false) // nothing reads it, and it would grow with every write
	n.Disk.KeepRecent(true)  // show disk: a ring of the last operations
	v, _, err := store.CreateVHost(n.Disk, DataDir, storeProfile(n.Config.Version, n.Config.FileSizeLimit))
	if err != nil {
		return err
	}
	n.vhost = v
	n.storeClients = map[store.ClientRef]beam.PID{}
	return nil
}

// HasFiles reports whether any queue has opened files on the disk.
func (n *Node) HasFiles() bool { return n.stores[0] != beam.None }

// ReopenDisk lays the disk out again for a changed version profile or file
// size limit; only before any queue has files (see HasFiles).
func (n *Node) ReopenDisk() {
	if n.HasFiles() {
		return
	}
	if err := n.openDisk(); err != nil {
		n.storageFault(err)
	}
}

// startStores starts the two shared store processes, when the first queue
// with files needs them.
func (n *Node) startStores() {
	if n.stores[0] != beam.None {
		return
	}
	for i, persistent := range []bool{false, true} {
		name := "msg_store_transient"
		if persistent {
			name = "msg_store_persistent"
		}
		st := n.vhost.Store(persistent)
		gc := n.spawn(name+"_gc", "msg_store_gc", &msgStoreGC{n: n, st: st}).PID
		h := &msgStoreProc{n: n, st: st, credit: newCreditFlow(MsgStoreCredit), gc: gc}
		proc := n.spawn(name, "msg_store", h)
		proc.Prio = msgStorePriority
		n.stores[i] = proc.PID
	}
}

// msgStorePriority is rabbit_msg_store's prioritise_info: its sync timer
// jumps ahead of the writes waiting in its mailbox, so that a store that
// never empties its mailbox still syncs, and confirms, every
// SYNC_INTERVAL.
func msgStorePriority(kind uint16, _ any) int {
	if kind == kStoreSync {
		return 8
	}
	return 0
}

// Files lists every file on the node's disk with its size, for `show files`
// and the widget's file view.
func (n *Node) Files() []FileInfo {
	var out []FileInfo
	var walk func(dir string)
	walk = func(dir string) {
		names, err := n.Disk.List(dir)
		if err != nil {
			return
		}
		for _, name := range names {
			p := dir + "/" + name
			if vfs.IsDir(n.Disk, p) {
				walk(p)
				continue
			}
			size, _ := n.Disk.Stat(p)
			synced, _ := n.Disk.DurableSize(p)
			out = append(out, FileInfo{Path: p, Size: size, Synced: synced})
		}
	}
	walk(DataDir)
	return out
}

// FileInfo is one file on the node's disk.
type FileInfo struct {
	Path   string
	Size   int64
	Synced int64 // bytes that would survive a power loss
}

// msgID turns a message's sequence number into the 16-byte id the stores
// key it by (RabbitMQ uses a GUID; warren's are deterministic).
func msgID(id uint64) format.MsgID {
	var m format.MsgID
	binary.BigEndian.PutUint64(m[:8], 0x77617272656e0000) // "warren"
	binary.BigEndian.PutUint64(m[8:], id)
	return m
}

// storedMessage encodes a message as the stores keep it.
func storedMessage(m *Message, expiry int64, confirm bool) (store.PublishedMsg, error) {
	props := format.Properties{}
	if m.Props.DeliveryMode != 0 {
		props = props.WithDeliveryMode(m.Props.DeliveryMode)
	}
	if m.Props.HasPriority || m.Props.Priority > 0 {
		props.Priority, props.Present = m.Props.Priority, props.Present|format.FlagPriority
	}
	if m.Props.HasExpiration {
		props.Expiration, props.Present = m.Props.Expiration, props.Present|format.FlagExpiration
	}
	if len(m.Props.Headers) > 0 {
		props.Headers, props.Present = m.Props.Headers, props.Present|format.FlagHeaders
	}
	for _, s := range [...]struct {
		flag uint16
		v    string
	}{
		{format.FlagContentType, m.Props.ContentType},
		{format.FlagContentEncoding, m.Props.ContentEncoding},
		{format.FlagCorrelationID, m.Props.CorrelationID},
		{format.FlagReplyTo, m.Props.ReplyTo},
		{format.FlagMessageID, m.Props.MessageID},
		{format.FlagType, m.Props.Type},
		{format.FlagUserID, m.Props.UserID},
		{format.FlagAppID, m.Props.AppID},
	} {
		if s.v != "" {
			props = props.WithString(s.flag, s.v)
		}
	}
	if m.Props.HasTimestamp {
		props.Timestamp, props.Present = m.Props.Timestamp, props.Present|format.FlagTimestamp
	}
	fm := format.NewMessage(m.Exchange, m.Key, props, m.Body, msgID(m.ID), m.Props.Persistent())
	var exp uint64
	if expiry > 0 {
		exp = uint64(expiry)
	}
	return store.NewPublishedMsg(fm, exp, confirm)
}

// msgStoreProc is one shared store (msg_store_persistent or
// msg_store_transient) as a process.
type msgStoreProc struct {
	n       *Node
	st      *store.MsgStore
	credit  creditFlow
	timer   bool         // the sync timer is armed
	timerID beam.TimerID // and this is it
	gc      beam.PID
	compact bool // the 3.13 compaction timer is armed
	// file is the file it last told it writes to (fileKnown: after its
	// first event)
	file      uint64
	fileKnown bool
}

// compactionDelay is how long 3.13 waits before it compacts the files that
// saw removes (15 s).
const compactionDelay = 15_000_000

// msgStoreGC is rabbit_msg_store_gc: it runs the store's GC jobs (file
// deletion, merging, compaction) one file operation per event.
type msgStoreGC struct {
	n       *Node
	st      *store.MsgStore
	running bool
	jobs    map[string]gcJobLog // the jobs under way, by name (gc_log.go)
	// told is the job it last told started (telling: until it tells it
	// ended)
	told    string
	telling bool
}

func (g *msgStoreGC) Handle(ctx *beam.Ctx, m beam.Msg) {
	g.step(ctx)
	g.tellJob(ctx.Self)
}

// tellJob tells a job starting or ending after a step: the job is the
// one of the GC log's latest line.
func (g *msgStoreGC) tellJob(self beam.PID) {
	job := g.n.lastGCJob()
	switch {
	case g.running && (!g.telling || g.told != job):
		if g.telling {
			g.n.cluster.tell(Notice{Kind: GCEnded, PID: self, Word: g.told})
		}
		g.told, g.telling = job, true
		g.n.cluster.tell(Notice{Kind: GCStarted, PID: self, Word: job})
	case !g.running && g.telling:
		g.n.cluster.tell(Notice{Kind: GCEnded, PID: self, Word: g.told})
		g.told, g.telling = "", false
	}
}

// step runs one file operation of the GC job under way.
func (g *msgStoreGC) step(ctx *beam.Ctx) {
	before := g.st.Files()
	rep, err := g.st.GCStep()
	g.n.storageFault(err)
	ctx.Charge(g.n.Config.Costs.Timer + g.n.ioCost(rep.IO))
	if rep.Step == "idle" {
		g.running = false
		return
	}
	g.logJob(rep, before)
	ctx.Send(ctx.Self, beam.Msg{Kind: kGCStep})
}

// logGC keeps the latest GC steps for show gc and the widget; it returns
// the step's line as data.
func (n *Node) logGC(r store.GCReport) say.Text {
	file := r.File
	if i := strings.Index(file, "/msg_store_"); i >= 0 {
		file = file[i+1:]
	}
	line := say.T("con.gc.stepBare", r.JobSaid, r.Step, file)
	if r.Detail != "" {
		line = say.T("con.gc.step", r.JobSaid, r.Step, file, r.Said)
	}
	n.addGCLine(line)
	return line
}

// syncInterval is the store's SYNC_INTERVAL in the 3.10 profile (µs).
const syncInterval = 25_000

func (h *msgStoreProc) Handle(ctx *beam.Ctx, m beam.Msg) {
	h.handle(ctx, m)
	if f := h.st.CurrentFile(); !h.fileKnown {
		h.file, h.fileKnown = f, true
	} else if f != h.file {
		h.n.cluster.tell(Notice{Kind: FileRolled, PID: ctx.Self, From: h.file, To: f})
		h.file = f
	}
}

func (h *msgStoreProc) handle(ctx *beam.Ctx, m beam.Msg) {
	n := h.n
	switch m.Kind {
	case kStoreCall:
		if m.N == 1 {
			if to := h.credit.ack(m.From); to != beam.None {
				ctx.Send(to, beam.Msg{Kind: kBump, N: int64(h.credit.spec.MoreAfter)})
			}
		}
		call := m.P.(*store.StoreCall)
		ctx.Charge(n.Config.Costs.QueueAck)
		res, err := h.st.Handle(*call)
		ctx.Charge(n.ioCost(res.IO))
		n.storageFault(err)
		h.route(ctx, res.Confirms)
	case kStoreSync:
		h.timer = false
	case kStoreCompact:
		h.compact = false
		h.st.ScheduleCompaction()
	}
	if h.st.GCPending() {
		if g := h.n.cluster.RT.Process(h.gc).Handler.(*msgStoreGC); !g.running {
			g.running = true
			ctx.Send(h.gc, beam.Msg{Kind: kGCStep})
		}
	}
	if h.n.Config.Version != "3.10" && !h.compact && m.Kind == kStoreCall {
		h.compact = true
		ctx.SendAfter(ctx.Self, compactionDelay, beam.Msg{Kind: kStoreCompact})
	}
	// Sync when clients wait for confirms: at once when nothing else is
	// waiting in the mailbox, else on the sync timer. A sync stops the
	// timer, and so does a store with nothing left to confirm
	// (internal_sync and next_state call stop_sync_timer).
	if h.st.NeedsSync() {
		if ctx.MailboxEmpty() || m.Kind == kStoreSync {
			h.stopTimer(ctx)
			res, err := h.st.Sync()
			ctx.Charge(n.ioCost(res.IO))
			n.storageFault(err)
			h.route(ctx, res.Confirms)
		} else if !h.timer {
			h.timer = true
			h.timerID = ctx.SendAfter(ctx.Self, syncInterval, beam.Msg{Kind: kStoreSync})
		}
	} else {
		h.stopTimer(ctx)
	}
}

// stopTimer cancels the sync timer if it is armed.
func (h *msgStoreProc) stopTimer(ctx *beam.Ctx) {
	if h.timer {
		ctx.CancelTimer(h.timerID)
		h.timer = false
	}
}

// route hands confirms to the queues that wait for them.
func (h *msgStoreProc) route(ctx *beam.Ctx, confirms []store.Confirm) {
	for i := range confirms {
		if pid, ok := h.n.storeClients[confirms[i].Client]; ok {
			c := confirms[i]
			ctx.Send(pid, beam.Msg{Kind: kStoreConfirm, P: &c})
		}
	}
}

// storageFault records a failed file operation; the simulation goes on (a
// fault injected on purpose shows in the file operation trace).
func (n *Node) storageFault(err error) {
	if err != nil {
		n.StorageErrors = append(n.StorageErrors, err.Error())
	}
}

// ShowFiles prints the files on the node's disk; in a cluster, every
// node's, the other nodes' under their names.
func (n *Node) ShowFiles() []string {
	var out []string
	for _, m := range n.cluster.members {
		out = append(out, m.showFiles(m != n.cluster.members[0])...)
	}
	return out
}

func (n *Node) showFiles(named bool) []string {
	var out []string
	for _, f := range n.Files() {
		p := f.Path[len(DataDir)+1:]
		if named {
			p = n.Name + ":" + p
		}
		line := fmt.Sprintf("file %s size=%d", p, f.Size)
		if f.Synced != f.Size {
			line += fmt.Sprintf(" synced=%d", f.Synced)
		}
		out = append(out, line)
	}
	return out
}
