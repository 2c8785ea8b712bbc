package node

// A cluster of nodes in one simulation. Each node has its own schedulers
// (a group in the runtime), memory, disk and message stores; connections
// live on one node; a classic queue lives on the node its master locator
// chose. The metadata (exchanges, queues, bindings, policies: mnesia's
// tables) is replicated to every node, which the simulation models by
// sharing it, and a change to it is a transaction that commits on every
// node, RAM nodes included, before the client hears back. A message
// between processes on different nodes crosses the distribution link: it
// costs the sender and the receiver the encoding and decoding, and it
// arrives a link delay later.

import (
	"fmt"
	"sort"
	"strconv"
	"strings"

	"warren/engine/amqp"
	"warren/engine/beam"
	"warren/engine/say"
)

// DefaultLinkDelay is a message's trip between two nodes on one host's
// loopback, in virtual µs.
const DefaultLinkDelay = 100

// Locators are the queue_master_locator values of 3.10.
var Locators = []string{"client-local", "min-masters", "random"}

// spawn starts a process on this node's schedulers.
func (n *Node) spawn(name, kind string, h beam.Handler) *beam.Process {
	return n.cluster.RT.SpawnIn(n.group, name, kind, h)
}

// NodeName is the Erlang name of the i-th node (0-based) of a cluster, as
// scripts/broker.sh names a real cluster's nodes.
func NodeName(i int) string {
	if i == 0 {
		return "rabbit@localhost"
	}
	return "rabbit-" + strconv.Itoa(i+1) + "@localhost"
}

// AddNodes joins more nodes to the cluster, each with as many schedulers
// as the first; the last ram of all the nodes keep the metadata in memory
// only. It must run before anything else happens.
func (c *Cluster) AddNodes(more, ram int, linkDelay int64) error {
	if err := c.CheckCluster(more+1, ram); err != nil {
		return err
	}
	per := len(c.RT.Schedulers())
	for i := 0; i < more; i++ {
		m := &Node{cluster: c, Config: c.First().Config, conns: map[int]*reader{}}
		m.group = c.RT.AddGroup(per)
		m.Name = NodeName(len(c.members))
		if err := m.openDisk(); err != nil {
			return err
		}
		c.members = append(c.members, m)
	}
	for i := len(c.members) - ram; i < len(c.members); i++ {
		c.members[i].ram = true
	}
	c.RT.LinkDelay = linkDelay
	return nil
}

// CheckCluster says whether a cluster of nodes nodes, ram of them RAM
// nodes, can be formed from this cluster of one.
func (c *Cluster) CheckCluster(nodes, ram int) error {
	if len(c.members) > 1 {
		return say.E("con.clusterFormed", strconv.Itoa(len(c.members)))
	}
	if nodes < 2 {
		return say.E("con.clusterTwo")
	}
	if ram >= nodes {
		return say.E("con.clusterRam", strconv.Itoa(ram), strconv.Itoa(nodes))
	}
	return nil
}

// Members lists the nodes of the cluster, in the order they joined.
func (c *Cluster) Members() []*Node { return c.members }

// NodeIndex reads a node=N|NAME value as a 0-based index among count
// nodes named by NodeName: its number (1-based) or its name.
func NodeIndex(id string, count int) (int, bool) {
	for i := 0; i < count; i++ {
		if id == strconv.Itoa(i+1) || id == NodeName(i) {
			return i, true
		}
	}
	return 0, false
}

// Member finds a node by its number (1-based) or its name.
func (c *Cluster) Member(id string) (*Node, error) {
	if i, ok := NodeIndex(id, len(c.members)); ok {
		return c.members[i], nil
	}
	names := make([]string, len(c.members))
	for i, m := range c.members {
		names[i] = strconv.Itoa(i+1) + " (" + m.Name + ")"
	}
	return nil, say.E("con.noNode", strconv.Quote(id), fmt.Sprint(names))
}

// CheckConnectTo says whether connection conn can be placed on node m.
func (c *Cluster) CheckConnectTo(conn int, m *Node) error {
	if cur := c.homeOf(conn); cur.cluster.Open(conn) && cur != m {
		return say.E("con.connectOpen", strconv.Itoa(conn), cur.Name)
	}
	if m.stopped {
		return say.E("con.connectStopped", m.Name)
	}
	return nil
}

// ConnectTo places connection conn on node m; it opens there on first use.
func (c *Cluster) ConnectTo(conn int, m *Node) error {
	if err := c.CheckConnectTo(conn, m); err != nil {
		return err
	}
	c.connNode[conn] = m
	return nil
}

// CheckConnOpen says whether a client can use connection conn: not when
// the node it is placed on is stopped (the client's connect is refused).
func (c *Cluster) CheckConnOpen(conn int) error {
	if m := c.homeOf(conn); m.stopped {
		return say.E("con.connOnStopped", strconv.Itoa(conn), m.Name, m.Name, strconv.Itoa(conn))
	}
	return nil
}

// homeOf is the node a connection lives on.
func (c *Cluster) homeOf(conn int) *Node {
	if m, ok := c.connNode[conn]; ok {
		return m
	}
	return c.members[0]
}

// readers lists every open connection's reader in the cluster, by number.
func (c *Cluster) readers() []*reader {
	var out []*reader
	for _, m := range c.members {
		for _, r := range m.conns {
			if !r.closed {
				out = append(out, r)
			}
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i].conn < out[j].conn })
	return out
}

// remote says whether pid lives on another node than this one.
func (n *Node) remote(pid beam.PID) bool {
	if len(n.cluster.members) == 1 {
		return false
	}
	p := n.cluster.RT.Process(pid)
	return p != nil && p.Group != n.group
}

// hop charges the sending of a message to another node (or its
// receiving there): the same whatever the size of its body (Costs.DistHop).
func (n *Node) hop(ctx *beam.Ctx) {
	ctx.Charge(n.Config.Costs.DistHop)
}

// peers counts the running nodes other than this one. A metadata change
// is an mnesia sync_transaction, and mnesia_tm commits it on every node
// holding a copy of the tables it writes: disc nodes and RAM nodes alike
// (a RAM node holds them as ram_copies), so it waits for each of them.
func (n *Node) peers() int {
	k := 0
	for _, m := range n.cluster.members {
		if m != n && !m.stopped {
			k++
		}
	}
	return k
}

// commitDelay is how long a metadata change takes to commit on the other
// nodes: a round trip over the link, the peers answering in parallel.
func (n *Node) commitDelay() int64 {
	if n.peers() == 0 {
		return 0
	}
	return 2 * n.cluster.RT.LinkDelay
}

// masters counts the classic queues each node holds.
func (c *Cluster) masters() map[*Node]int {
	out := map[*Node]int{}
	for _, rec := range c.queues {
		if rec.home != nil && rec.Type != "quorum" {
			out[rec.home]++
		}
	}
	return out
}

// placeQueue picks the node a new classic queue lives on
// (rabbit_queue_master_location_misc): x-queue-master-locator, then the
// queue-master-locator policy, then the node's setting; client-local
// without any.
func (n *Node) placeQueue(rec *QueueRecord) *Node {
	if len(n.cluster.members) == 1 || rec.Type == "quorum" {
		return n
	}
	loc := n.cluster.locator
	if v, ok := effective(rec.Args, rec.Policy, "queue-master-locator"); ok && v.Kind == amqp.LongStr {
		loc = v.Str
	}
	var up []*Node
	for _, m := range n.cluster.members {
		if !m.stopped {
			up = append(up, m)
		}
	}
	if len(up) == 0 {
		return n
	}
	switch loc {
	case "min-masters":
		// rabbit_queue_location_min_masters folds over a map keyed by node
		// name, so a tie goes to the name that sorts first
		count := n.cluster.masters()
		byName := append([]*Node(nil), up...)
		sort.Slice(byName, func(i, j int) bool { return byName[i].Name < byName[j].Name })
		best := byName[0]
		for _, m := range byName[1:] {
			if count[m] < count[best] {
				best = m
			}
		}
		return best
	case "random":
		// xorshift: a fixed seed keeps scenarios reproducible
		x := n.cluster.rand
		x ^= x << 13
		x ^= x >> 7
		x ^= x << 17
		n.cluster.rand = x
		return up[x%uint64(len(up))]
	}
	return n
}

// ClusterLines describes each node: its kind, whether it runs, its
// schedulers, connections, classic queues and memory.
func (c *Cluster) ClusterLines() []say.Text {
	count := c.masters()
	conns := map[*Node]int{}
	for _, r := range c.readers() {
		conns[r.n]++
	}
	sched := map[int]int{}
	for _, s := range c.RT.Schedulers() {
		sched[s.Group]++
	}
	var out []say.Text
	for _, m := range c.members {
		kind, state := "disc", "running"
		if m.ram {
			kind = "ram"
		}
		if m.stopped {
			state = "stopped"
		}
		line := fmt.Sprintf("node %s type=%s %s schedulers=%d connections=%d queues=%d memory=%d",
			m.Name, kind, state, sched[m.group], conns[m], count[m], m.Memory())
		if a := m.OwnAlarms(); len(a) > 0 {
			line += " alarms=" + strings.Join(a, ",")
		}
		out = append(out, say.Words(line))
	}
	delay := fmt.Sprintf(" link-delay=%dµs", c.RT.LinkDelay)
	if c.locator == "" {
		return append(out, say.S("con.show.noneSet", "queue_master_locator=client-local", delay))
	}
	return append(out, say.Words("queue_master_locator="+c.locator+delay))
}

// CheckApp refuses stop_app and start_app on a single node.
func (c *Cluster) CheckApp(cmd string) error {
	if len(c.members) == 1 {
		return say.E("con.singleNode", cmd)
	}
	return nil
}

// homeDown is the error for a durable queue whose node is stopped.
func homeDown(rec *QueueRecord) *amqp.Error {
	return amqp.Errorf(amqp.NotFound, "home node '"+rec.home.Name+"' of durable "+rs(rec.Name)+" is down or inaccessible")
}

// SetLocator sets the nodes' queue_master_locator.
func (c *Cluster) SetLocator(loc string) { c.locator = loc }

// Stopped says whether the node's RabbitMQ application is stopped
// (stop_app).
func (n *Node) Stopped() bool { return n.stopped }
