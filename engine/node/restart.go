package node

// Stopping and starting the node: a clean restart (rabbitmqctl stop_app /
// start_app: queues terminate and leave recovery terms), a crash of the VM
// (what reached the OS survives) and a power loss (only what was fsynced
// survives). On the way back up durable exchanges, queues, bindings and
// policies come back (they are in mnesia on disk), the message stores and
// queue indexes recover as rabbit_msg_store and the queue indexes do, and
// each durable queue is refilled with its persistent messages. Transient
// messages and non-durable entities are gone.

import (
	"encoding/binary"
	"strconv"

	"warren/engine/amqp"
	"warren/engine/beam"
	"warren/engine/say"
	"warren/engine/store"
	"warren/engine/store/format"
)

// RestartKinds are the ways the node can go down and come back.
var RestartKinds = []string{"clean", "crash", "power-loss"}

// forcedClose is what a client hears when the broker shuts down cleanly.
const forcedClose = "CONNECTION_FORCED - broker forced connection closure with reason 'shutdown'"

// durableQueue is what survives of a durable queue across a restart.
type durableQueue struct {
	rec       QueueRecord
	delivered map[levelSeq]bool // messages delivered before a clean stop
}

// CheckRestart says whether the node can be restarted, without touching it.
func (n *Node) CheckRestart() error {
	if n.vhost == nil {
		return say.E("con.restartNoDisk")
	}
	if len(n.cluster.members) > 1 {
		return say.E("con.restartCluster")
	}
	return nil
}

// Restart is one restart of the node: how it stopped, and the number of
// events that had run when it did.
type Restart struct {
	Kind  string
	Event int64
}

// Restart stops the node the given way and starts it again.
func (n *Node) Restart(kind string) error {
	if err := n.CheckRestart(); err != nil {
		return err
	}
	// what mnesia keeps: durable queues (and their exchanges and bindings)
	var keep []durableQueue
	for _, name := range n.cluster.QueueNames() {
		rec := n.cluster.queues[name]
		if !rec.Durable || rec.Exclusive {
			continue
		}
		keep = append(keep, durableQueue{rec: *rec, delivered: deliveredOf(rec)})
	}
	// the clients see their connections go
	for _, c := range n.connNumbers() {
		if r := n.conns[c]; !r.closed {
			if kind == "clean" {
				n.cluster.client.Frame(c, 0, Closed{Code: 320, Text: forcedClose}, n.cluster.RT.Now())
			} else {
				n.cluster.client.Frame(c, 0, Lost{}, n.cluster.RT.Now())
			}
		}
	}
	var terms map[string]*store.QueueTerms
	switch kind {
	case "clean":
		var err error
		if terms, err = n.shutdownFiles(); err != nil {
			return say.Wrap("con.named", err, "restart")
		}
	case "crash":
		n.Disk.CrashProcess()
	case "power-loss":
		n.Disk.PowerLoss()
	default:
		return say.E("con.restartKind", strconv.Quote(kind))
	}
	n.Restarts = append(n.Restarts, Restart{Kind: kind, Event: n.cluster.RT.Events()})
	n.cluster.RT.KillAll()
	n.cluster.clientWaits = 0
	n.conns = map[int]*reader{}
	n.stores = [2]beam.PID{}
	if n.cluster.memAlarm {
		n.cluster.alarmTold("memory", false)
	}
	if n.cluster.diskAlarm {
		n.cluster.alarmTold("disk", false)
	}
	n.cluster.memAlarm, n.cluster.diskAlarm, n.paging = false, false, false
	n.cluster.deliveryPool, n.cluster.ackPool = nil, nil
	// durable exchanges and the bindings between durable things stay
	for name, x := range n.cluster.exchanges {
		if !x.Durable {
			delete(n.cluster.exchanges, name)
		}
	}
	durable := map[string]bool{}
	for _, dq := range keep {
		durable[dq.rec.Name] = true
	}
	for _, x := range n.cluster.exchanges {
		kept := x.Bindings[:0]
		for _, b := range x.Bindings {
			if d, ok := n.cluster.exchanges[b.Exchange]; durable[b.Queue] || (b.Exchange != "" && ok && d.Durable && x.Durable) {
				kept = append(kept, b)
			}
		}
		x.Bindings = kept
	}
	names := n.cluster.QueueNames()
	was := make([]QueueLife, len(names))
	for i, name := range names {
		was[i] = n.cluster.lifeOf(name)
	}
	n.cluster.queues = map[string]*QueueRecord{}
	for i, name := range names {
		n.cluster.lifeTold(name, was[i])
	}
	n.held = nil // the queues are gone with their processes
	n.cluster.changed()
	// the vhost recovers, then each durable queue
	var refs []store.QueueRef
	for _, dq := range keep {
		refs = append(refs, n.queueRefs(&dq.rec, terms)...)
	}
	v, _, err := store.OpenVHost(n.Disk, DataDir, storeProfile(n.Config.Version, n.Config.FileSizeLimit), refs)
	if err != nil {
		return say.Wrap("con.named", err, "restart")
	}
	n.vhost = v
	n.storeClients = map[store.ClientRef]beam.PID{}
	for _, dq := range keep {
		rec := dq.rec
		rec.proc, rec.PID = nil, 0
		rec.restarts, rec.dead = nil, false
		n.recoverQueue(&rec, dq.delivered, kind == "clean", nil, 0)
	}
	if n.Config.Watermark > 0 {
		n.StartMemoryMonitor()
	}
	return nil
}

// shutdownFiles stops the node's storage cleanly and returns the recovery
// terms its durable queues left, by file name.
func (n *Node) shutdownFiles() (map[string]*store.QueueTerms, error) {
	t, _, err := n.vhost.Shutdown()
	terms := make(map[string]*store.QueueTerms, len(t))
	for name, qt := range t {
		qt := qt
		terms[name] = &qt
	}
	return terms, err
}

// queueRefs names a durable queue's files to recover, one per priority
// level, with the terms a clean stop left them (none after a crash).
func (n *Node) queueRefs(rec *QueueRecord, terms map[string]*store.QueueTerms) []store.QueueRef {
	var refs []store.QueueRef
	for _, name := range levelNames(rec) {
		refs = append(refs, store.QueueRef{Name: name, Options: n.queueOptions(rec), Terms: terms[name]})
	}
	return refs
}

// deliveredOf lists a durable queue's messages on disk that were delivered:
// a clean stop writes that down, and they come back redelivered.
func deliveredOf(rec *QueueRecord) map[levelSeq]bool {
	out := map[levelSeq]bool{}
	q := rec.proc
	if q == nil || q.disk == nil {
		return out
	}
	q.pending.each(func(e *entry) { out[levelSeq{q.ready.levelOf(e.msg), e.dseq}] = true })
	for lvl := range q.ready.levels {
		q.ready.levels[lvl].each(func(e *entry) {
			if e.delivered {
				out[levelSeq{lvl, e.dseq}] = true
			}
		})
	}
	return out
}

// StopApp stops one node of a cluster as rabbitmqctl stop_app does: its
// connections are closed, its durable queues shut down cleanly and stay in
// the metadata, down, until the node starts again; its other queues are
// deleted. Channels elsewhere lose their consumers on its queues.
func (c *Cluster) StopApp(m *Node) error {
	if err := c.CheckApp("stop_app"); err != nil {
		return err
	}
	if m.stopped {
		return nil
	}
	now := c.RT.Now()
	m.delivered = map[string]map[levelSeq]bool{}
	var gone []*QueueRecord
	for _, name := range c.QueueNames() {
		if rec := c.queues[name]; rec.home == m {
			gone = append(gone, rec)
			if rec.Durable && !rec.Exclusive {
				m.delivered[name] = deliveredOf(rec)
			}
		}
	}
	// the clients of the node see their connections closed
	for _, r := range c.readers() {
		if r.n == m {
			c.client.Frame(r.conn, 0, Closed{Code: 320, Text: forcedClose}, now)
			r.closed = true
		}
	}
	terms, err := m.shutdownFiles()
	if err != nil {
		return say.Wrap("con.named", err, "stop_app")
	}
	m.terms = terms
	// what its channels held on other nodes' queues goes back (the queues
	// see the channels go), and exclusive queues of its connections go
	for _, p := range c.RT.Processes() {
		if p.Group != m.group {
			continue
		}
		if ch, ok := p.Handler.(*channel); ok && !ch.closed {
			for _, q := range ch.touched {
				c.RT.Send(q, beam.Msg{Kind: kChannelDown, From: ch.pid})
			}
		}
		c.RT.Kill(p.PID)
	}
	m.conns = map[int]*reader{}
	m.stores = [2]beam.PID{}
	m.storeClients = map[store.ClientRef]beam.PID{}
	m.paging, m.overWatermark = false, false
	m.stopped = true
	for _, rec := range gone {
		old, was := rec.PID, c.lifeOf(rec.Name)
		if q := rec.proc; q != nil {
			q.deleted = true
			q.detach()
		}
		rec.proc = nil
		if rec.Durable && !rec.Exclusive {
			rec.down = true
		} else {
			c.unbindQueue(rec.Name)
			delete(c.queues, rec.Name)
		}
		c.lifeTold(rec.Name, was)
		c.queueWentDown(&queueDown{name: rec.Name, old: old, cur: beam.None, stopped: true})
	}
	for _, name := range c.QueueNames() {
		if rec := c.queues[name]; rec.Exclusive && rec.proc != nil && c.homeOf(rec.Owner) == m {
			c.RT.Send(rec.PID, beam.Msg{Kind: kExclusiveDown})
		}
	}
	c.changed()
	return nil
}

// StartApp starts a stopped node again: its durable queues recover from
// their files, cleanly, from the terms the stop left.
func (c *Cluster) StartApp(m *Node) error {
	if err := c.CheckApp("start_app"); err != nil {
		return err
	}
	if !m.stopped {
		return nil
	}
	var down []*QueueRecord
	var refs []store.QueueRef
	for _, name := range c.QueueNames() {
		if rec := c.queues[name]; rec.home == m && rec.down {
			down = append(down, rec)
			refs = append(refs, m.queueRefs(rec, m.terms)...)
		}
	}
	v, _, err := store.OpenVHost(m.Disk, DataDir, storeProfile(m.Config.Version, m.Config.FileSizeLimit), refs)
	if err != nil {
		return say.Wrap("con.named", err, "start_app")
	}
	m.vhost = v
	m.stopped = false
	for _, rec := range down {
		was := c.lifeOf(rec.Name)
		rec.down = false
		rec.proc, rec.PID = nil, 0
		rec.restarts = nil
		c.lifeTold(rec.Name, was)
		m.recoverQueue(rec, m.delivered[rec.Name], true, nil, 0)
	}
	m.terms, m.delivered = nil, nil
	if m.Config.Watermark > 0 {
		m.StartMemoryMonitor()
	}
	c.changed()
	return nil
}

// readStored reads a recovered message's term from the queue's files (or
// the index entry that embeds it) and decodes it.
func (n *Node) readStored(files *store.QueueFiles, m store.RecoveredMsg) (*Message, error) {
	term := m.Term
	if term == nil {
		var err error
		if term, _, err = files.Read(m.Seq); err != nil {
			return nil, err
		}
	}
	return n.decodeStored(files.Name(), term)
}

// decodeStored turns a stored term back into a message.
func (n *Node) decodeStored(file string, term []byte) (*Message, error) {
	fm, err := format.DecodeMessage(file, 0, term)
	if err != nil {
		return nil, err
	}
	m := &Message{Exchange: fm.Exchange, Body: fm.Payload(), Props: &amqp.Properties{}}
	if len(fm.RoutingKeys) > 0 {
		m.Key = fm.RoutingKeys[0]
	}
	m.ID = binary.BigEndian.Uint64(fm.ID[8:])
	if m.ID > n.cluster.nextMsgID {
		n.cluster.nextMsgID = m.ID
	}
	p := fm.Properties
	if p.Has(format.FlagDeliveryMode) {
		m.Props.DeliveryMode = p.DeliveryMode
	}
	if p.Has(format.FlagPriority) {
		m.Props.Priority, m.Props.HasPriority = p.Priority, true
	}
	if p.Has(format.FlagExpiration) {
		m.Props.Expiration, m.Props.HasExpiration = p.Expiration, true
	}
	if p.Has(format.FlagHeaders) {
		m.Props.Headers = p.Headers
	}
	m.Props.ContentType, m.Props.ContentEncoding, m.Props.CorrelationID = p.ContentType, p.ContentEncoding, p.CorrelationID
	m.Props.ReplyTo, m.Props.MessageID, m.Props.Type = p.ReplyTo, p.MessageID, p.Type
	m.Props.UserID, m.Props.AppID = p.UserID, p.AppID
	if p.Has(format.FlagTimestamp) {
		m.Props.Timestamp, m.Props.HasTimestamp = p.Timestamp, true
	}
	return m, nil
}

// Lost is what a client sees when the broker dies under it: the socket
// closes with no AMQP close.
type Lost struct{}
