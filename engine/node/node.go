package node

import (
	"warren/engine/internal/order"
	"warren/engine/say"
	"warren/engine/store"
	"warren/engine/vfs"

	"warren/engine/amqp"
	"warren/engine/beam"
)

// Message is a published message. It is immutable once published, so
// every queue it is routed to can share it.
type Message struct {
	ID       uint64
	Exchange string
	Key      string
	// Props is never nil and never changed once the message exists: the
	// messages of one publish command share their frame's properties (a
	// message that needs other properties, as a dead-lettered one does,
	// gets its own).
	Props *amqp.Properties
	Body  []byte
}

// Size is the body size, the unit of x-max-length-bytes.
func (m *Message) Size() int { return len(m.Body) }

// Config is the node's configuration.
type Config struct {
	// Version is the RabbitMQ release whose behaviour the node follows:
	// "3.10" (the default, checked against a real broker), "3.13" or "4.0".
	Version    string
	Schedulers int
	Costs      Costs
	Credit     CreditSpec
	// Watermark is the memory high watermark in bytes; 0 disables the alarm.
	Watermark int64
	// MemoryPerMessage is the simulated memory a queued message costs
	// beyond its body.
	MemoryPerMessage int64
	// BaseMemory is the node's memory use with nothing in it.
	BaseMemory int64
	// PagingRatio is vm_memory_high_watermark_paging_ratio: above this
	// share of the watermark, queues page messages out to disk (3.10).
	PagingRatio float64
	// PagedMessageMemory is what a paged-out message still costs in memory.
	PagedMessageMemory int64
	// Storage is the cost of file operations.
	Storage StorageCosts
	// FileSizeLimit is msg_store_file_size_limit (0: the default 16 MiB).
	FileSizeLimit int64
	// ConsumerTimeout is consumer_timeout in milliseconds (0: none): a
	// channel whose oldest unacked delivery is older is closed, at the
	// channel's next tick. A channel reads it when it opens.
	ConsumerTimeout int64
}

// DefaultConfig is a 3.10 node with one scheduler.
func DefaultConfig() Config {
	return Config{
		Version:            "3.10",
		Schedulers:         1,
		Costs:              DefaultCosts,
		Credit:             DefaultCredit,
		Watermark:          0,
		MemoryPerMessage:   720,
		BaseMemory:         20 << 20,
		PagingRatio:        0.5,
		PagedMessageMemory: 100,
		Storage:            DefaultStorageCosts,
		ConsumerTimeout:    DefaultConsumerTimeout,
	}
}

// DefaultConsumerTimeout is RabbitMQ 3.10.8's consumer_timeout: 30 minutes.
const DefaultConsumerTimeout = 1_800_000

// channelTick is channel_tick_interval: a channel checks its consumer
// timeout this often (µs), from when it opened.
const channelTick = 60_000_000

// QueueRecord is the queue's entry in the metadata store (mnesia's
// rabbit_queue table), readable by any process.
type QueueRecord struct {
	Name       string
	PID        beam.PID
	Durable    bool
	AutoDelete bool
	Exclusive  bool
	Owner      int // connection number of an exclusive queue's owner
	Args       amqp.Table
	Type       string // classic or quorum
	Policy     *Policy
	proc       *queue
	home       *Node   // the node its process lives on
	restarts   []int64 // when its supervisor restarted it (virtual µs)
	dead       bool    // its supervisor gave up: the record stays, no process runs
	down       bool    // its node is stopped: the record stays until it starts
}

// Stats are the cluster's cumulative counters (the management plugin's
// message_stats).
type Stats struct {
	Published int64 // publishes handled by channels
	Delivered int64 // messages handed to consumers or basic.get
	Acked     int64 // messages acknowledged by consumers
	Confirmed int64 // publisher confirms sent
}

// Node is one member of a Cluster: a RabbitMQ node with its own
// schedulers, connections, memory, disk and message stores. What every
// node shares (the metadata, the runtime, the alarms) it reaches through
// its cluster, by name: n.cluster.queues are the cluster's queues, not
// the node's.
type Node struct {
	cluster *Cluster

	Config Config

	conns map[int]*reader
	// Name is the node's Erlang name; group its scheduler group.
	Name  string
	group int
	// ram says the node keeps the metadata in memory only (a RAM node).
	ram     bool
	stopped bool
	// what a stopped node's durable queues left: recovery terms by file
	// name, delivered messages by queue
	terms     map[string]*store.QueueTerms
	delivered map[string]map[levelSeq]bool

	// Disk is the node's filesystem; vhost the RabbitMQ storage on it.
	Disk         *vfs.MemFS
	vhost        *store.VHost
	stores       [2]beam.PID // msg_store_transient, msg_store_persistent
	storeClients map[store.ClientRef]beam.PID
	// StorageErrors are failed file operations (injected faults).
	StorageErrors []string
	// Restarts are the node's restarts so far, oldest first.
	Restarts []Restart
	// GCLog is the message stores' latest GC steps; GCSaid is each line
	// as data.
	GCLog  []string
	GCSaid []say.Text
	// Reads are the queues' latest reads of the shared stores' files
	// (show reads), oldest first.
	Reads []StoreRead

	// paging is set while memory is above the paging threshold.
	paging bool
	// overWatermark is set while this node's memory is above its watermark.
	overWatermark bool
	// recovering is set while a durable queue restarts from its files.
	recovering bool
	// held totals what the node's live queues hold (see held.go).
	held *held
}

// Cluster is a simulated RabbitMQ cluster: its nodes, and what they
// share. A single node is a cluster of one. The metadata (mnesia's tables,
// replicated to every node) is shared by every member; so are the
// runtime that runs every process, the client, and the counters that name
// things.
type Cluster struct {
	// RT runs the processes of every node, each node on its own group of
	// schedulers.
	RT      *beam.Runtime
	client  Client
	members []*Node
	// connNode places each connection on a node (the first by default).
	connNode map[int]*Node

	exchanges map[string]*Exchange
	queues    map[string]*QueueRecord
	policies  []*Policy

	deliveryPool []*consumerDelivery
	ackPool      []*BasicAck
	// msgSlab is where newMessage takes the next messages from
	msgSlab []Message

	nextMsgID uint64
	nextCtag  int
	nextGen   int
	// nextReply counts the reply consumers made; replies maps each live
	// one's name to its channel (direct reply-to).
	nextReply int
	replies   map[string]beam.PID

	// clientWaits counts channels holding a client's method while they
	// wait for a dead queue.
	clientWaits int

	// gen counts topology changes (queues, exchanges, bindings), so that a
	// channel may cache a routing decision until the next change.
	gen uint64

	// Stats counts what the nodes did, for rates over virtual time.
	Stats Stats

	// Resource alarms block publishers on every node of the cluster.
	memAlarm  bool
	diskAlarm bool
	// locator is the queue_master_locator setting.
	locator string
	rand    uint64 // the random locator's generator state
	// notices are the moments told since the engine last took them
	// (notice.go).
	notices outbox
}

// New builds a cluster of one node, with the default exchanges.
func New(cfg Config, client Client) *Cluster {
	if cfg.Costs == (Costs{}) {
		cfg.Costs = DefaultCosts
	}
	if cfg.Credit == (CreditSpec{}) {
		cfg.Credit = DefaultCredit
	}
	c := &Cluster{RT: beam.New(cfg.Schedulers), client: client, exchanges: map[string]*Exchange{}, queues: map[string]*QueueRecord{},
		connNode: map[int]*Node{}, rand: 0x9E3779B97F4A7C15}
	c.RT.SetWeigher(weighMailbox)
	n := &Node{
		cluster: c,
		Config:  cfg,
		conns:   map[int]*reader{},
		Name:    NodeName(0),
	}
	c.members = []*Node{n}
	if err := n.openDisk(); err != nil {
		n.storageFault(err)
	}
	for _, x := range []struct{ name, typ string }{
		{"", "direct"}, {"amq.direct", "direct"}, {"amq.fanout", "fanout"},
		{"amq.topic", "topic"}, {"amq.headers", "headers"}, {"amq.match", "headers"},
	} {
		c.exchanges[x.name] = &Exchange{Name: x.name, Type: x.typ, Durable: true}
	}
	// rabbit_trace's exchange, declared with every vhost
	c.exchanges["amq.rabbitmq.trace"] = &Exchange{Name: "amq.rabbitmq.trace", Type: "topic", Durable: true, Internal: true}
	return c
}

// First is the cluster's first node: the only one of a single node, and
// the one a connection lives on unless connect places it elsewhere.
func (c *Cluster) First() *Node { return c.members[0] }

// QueueNames lists the queues, sorted by name.
func (c *Cluster) QueueNames() []string {
	names := make([]string, 0, len(c.queues))
	for name := range c.queues {
		names = append(names, name)
	}
	order.Strings(names)
	return names
}

// ExchangeNames lists the exchanges, sorted by name.
func (c *Cluster) ExchangeNames() []string {
	names := make([]string, 0, len(c.exchanges))
	for name := range c.exchanges {
		names = append(names, name)
	}
	order.Strings(names)
	return names
}

// Exchange returns an exchange.
func (c *Cluster) Exchange(name string) (*Exchange, bool) {
	x, ok := c.exchanges[name]
	return x, ok
}

// Free lists for the two objects every delivered message needs. The
// simulation is single-threaded, and each object has one owner at a time:
// a consumerDelivery goes queue → channel → writer, which frees it once
// the client has copied what it needs; a BasicAck goes client → reader →
// channel, which frees it once handled.

func (c *Cluster) newDelivery() *consumerDelivery {
	if k := len(c.deliveryPool); k > 0 {
		d := c.deliveryPool[k-1]
		c.deliveryPool = c.deliveryPool[:k-1]
		return d
	}
	return new(consumerDelivery)
}

func (c *Cluster) freeDelivery(d *consumerDelivery) {
	*d = consumerDelivery{}
	c.deliveryPool = append(c.deliveryPool, d)
}

// NewAck returns a basic.ack frame for a client to send.
func (c *Cluster) NewAck(tag uint64, multiple bool) *BasicAck {
	if k := len(c.ackPool); k > 0 {
		a := c.ackPool[k-1]
		c.ackPool = c.ackPool[:k-1]
		*a = BasicAck{Tag: tag, Multiple: multiple}
		return a
	}
	return &BasicAck{Tag: tag, Multiple: multiple}
}

func (c *Cluster) freeAck(a *BasicAck) { c.ackPool = append(c.ackPool, a) }

// changed records a topology change.
func (c *Cluster) changed() { c.gen++ }

func (c *Cluster) newMsgID() uint64 {
	c.nextMsgID++
	return c.nextMsgID
}

// msgSlabSize is how many messages newMessage allocates at a time.
const msgSlabSize = 64

// newMessage is a new message, zero but for its ID. Messages are
// allocated msgSlabSize at a time: a published message is the one object
// the publish-deliver-ack cycle allocates each time round, and in the
// browser build an allocation costs a few hundred ns (the runtime is not
// inlined there). A slab stays in memory while any of its messages does:
// at most 4.5 kB for one long-lived message among short-lived ones.
func (c *Cluster) newMessage() *Message {
	if len(c.msgSlab) == 0 {
		c.msgSlab = make([]Message, msgSlabSize)
	}
	m := &c.msgSlab[0]
	c.msgSlab = c.msgSlab[1:]
	m.ID = c.newMsgID()
	return m
}

// Message kinds. Each process's handler gives them meaning.
const (
	kFrame         uint16 = iota + 1 // socket data: P = frame
	kMethod                          // reader -> channel: P = method, N = 1 if under flow control
	kBump                            // credit grant: N = amount
	kWrite                           // channel -> writer: P = method to send
	kDeliver                         // channel -> queue: P = *delivery, N = 1 if under flow control
	kToConsumer                      // queue -> channel: P = *consumerDelivery
	kConfirm                         // queue -> channel: P = []uint64 seq numbers
	kReject                          // queue -> channel: P = []uint64 seq numbers (publish refused)
	kAck                             // channel -> queue: P = []uint64 ack tags
	kRequeue                         // channel -> queue: P = []uint64 ack tags
	kRejectDrop                      // channel -> queue: P = []uint64 ack tags, not requeued
	kNotifySent                      // writer -> queue: N = count, P = channel PID
	kResume                          // limiter -> queue: channel's global prefetch has room
	kChannelDown                     // channel -> queue: the channel exited
	kCall                            // channel -> queue: P = call request
	kReply                           // queue -> channel: P = call reply
	kQueueGone                       // queue -> channel: P = *queueGone (consumers to cancel)
	kTimerTTL                        // queue: head message expiry
	kTimerExpires                    // queue: x-expires
	kAlarm                           // node -> reader: N = 1 set, 0 clear; P = resource name
	kShutdown                        // reader -> channel, channel -> writer: the connection is closing
	kChannelExit                     // channel -> reader: the channel is gone
	kConnError                       // channel -> reader: P = *amqp.Error (hard error)
	kExclusiveDown                   // reader -> queue: owner connection closed
	kPolicyChanged                   // operator -> queue: re-read settings
	kPageOut                         // memory monitor -> queue (and queue -> itself): page a batch out
	kStoreCall                       // queue -> msg_store: P = *store.StoreCall, N = 1 under flow control
	kStoreConfirm                    // msg_store -> queue: P = *store.Confirm
	kTimerSync                       // queue: sync timer
	kTimerFlush                      // queue: idle flush
	kGCStep                          // msg_store -> msg_store_gc: run a step
	kQueueDown                       // node -> channel: P = *queueDown (a queue process was killed)
	kWaitDone                        // channel -> itself: a with/4 wait is over
	kMemoryCheck                     // vm_memory_monitor: its check timer
	kStoreSync                       // msg_store: its sync timer
	kStoreCompact                    // msg_store (3.13): its compaction timer
	kOperatorCall                    // rabbitmqctl -> queue: P = *callPurge or *callDelete, no reply
	kTick                            // channel: its tick timer (consumer_timeout)
	kDeliverReply                    // channel -> channel: P = *Message, a direct reply
	kInit                            // queue -> itself: the init of a queue that no channel declared (imported, recovered, restarted), where its expiry timer starts
	kindCount
)

// KindName names a message kind for event views.
func KindName(k uint16) string {
	if int(k) < len(kindNames) && kindNames[k] != "" {
		return kindNames[k]
	}
	return "?"
}

// kindNames are the Erlang messages or calls RabbitMQ 3.10.8 uses for
// each kind: what rabbit_channel, rabbit_amqqueue_process, rabbit_reader,
// rabbit_writer, rabbit_msg_store and vm_memory_monitor receive. A queue
// sees a channel or an exclusive owner go, and a channel sees a queue
// process go, as the monitor's 'DOWN'. Where RabbitMQ sends no message
// (the frame on the socket, the GC step, the end of a with/4 wait) the
// name says what happens.
var kindNames = [kindCount]string{
	kFrame:         "frame",
	kMethod:        "method",
	kBump:          "bump_credit",
	kWrite:         "send_command",
	kDeliver:       "deliver",
	kToConsumer:    "deliver",
	kConfirm:       "confirm",
	kReject:        "reject_publish",
	kAck:           "ack",
	kRequeue:       "requeue",
	kRejectDrop:    "reject",
	kNotifySent:    "notify_sent",
	kResume:        "resume",
	kChannelDown:   "DOWN",
	kCall:          "$gen_call",
	kReply:         "reply",
	kQueueGone:     "DOWN",
	kTimerTTL:      "drop_expired",
	kTimerExpires:  "maybe_expire",
	kAlarm:         "conserve_resources",
	kShutdown:      "terminate",
	kChannelExit:   "channel_exit",
	kConnError:     "channel_exit",
	kExclusiveDown: "DOWN",
	kPolicyChanged: "policy_changed",
	kPageOut:       "set_ram_duration_target",
	kStoreCall:     "msg_store_call",
	kStoreConfirm:  "run_backing_queue",
	kTimerSync:     "sync_timeout",
	kTimerFlush:    "timeout",
	kGCStep:        "gc_step",
	kQueueDown:     "DOWN",
	kWaitDone:      "wake",
	kMemoryCheck:   "update",
	kStoreSync:     "sync",
	kStoreCompact:  "maybe_gc",
	kOperatorCall:  "$gen_call",
	kTick:          "tick",
	kDeliverReply:  "deliver_reply",
	kInit:          "init",
}

var sim_msgPolicyChanged = beam.Msg{Kind: kPolicyChanged}
