package node

// The supervision tree as RabbitMQ 3.10 builds it, for `show supervisors`:
// rabbit_sup holds the memory monitor, the vhost supervisor (the two
// message stores and rabbit_amqqueue_sup_sup, which holds one
// rabbit_amqqueue_sup per classic queue) and, through the listener, one
// rabbit_connection_sup per connection (its reader and a rabbit_channel_sup
// per channel with the channel and its writer). Supervisors are not
// simulated processes: nothing they do costs time except the restart of a
// crashed queue.

import (
	"fmt"
	"strconv"

	"warren/engine/beam"
	"warren/engine/internal/order"
	"warren/engine/say"
)

// SupNode is a supervisor or a worker in the tree; a worker has a PID.
// Note, when it has a key, is what its line says after the name: its
// sentence takes the line before it as its first argument.
type SupNode struct {
	Name     string
	PID      beam.PID
	Note     say.Text
	Children []SupNode
}

// Supervision returns each node's supervision tree.
func (c *Cluster) Supervision() []SupNode {
	var out []SupNode
	for _, m := range c.members {
		t := m.supervision()
		if len(c.members) > 1 {
			t.Name += " on " + m.Name
		}
		out = append(out, t)
	}
	return out
}

func (n *Node) supervision() SupNode {
	root := SupNode{Name: "rabbit_sup"}
	for _, p := range n.cluster.RT.Processes() {
		if p.Kind == "monitor" && p.Group == n.group && p.State() != beam.Exited {
			root.Children = append(root.Children, SupNode{Name: p.Name, PID: p.PID})
		}
	}
	vhost := SupNode{Name: "rabbit_vhost_sup /"}
	for i := len(n.stores) - 1; i >= 0; i-- {
		pid := n.stores[i]
		if pid == beam.None {
			continue
		}
		st := n.cluster.RT.Process(pid)
		vhost.Children = append(vhost.Children, SupNode{Name: st.Name, PID: pid})
		for _, p := range n.cluster.RT.Processes() {
			if p.Kind == "msg_store_gc" && p.Group == n.group && p.Name == st.Name+"_gc" && p.State() != beam.Exited {
				vhost.Children = append(vhost.Children, SupNode{Name: p.Name, PID: p.PID})
			}
		}
	}
	queues := SupNode{Name: "rabbit_amqqueue_sup_sup"}
	for _, name := range n.cluster.QueueNames() {
		rec := n.cluster.queues[name]
		if rec.Type == "quorum" || rec.home != n {
			continue
		}
		sup := SupNode{Name: "rabbit_amqqueue_sup " + name}
		now := n.cluster.RT.Now()
		recent := 0
		for _, t := range rec.restarts {
			if now-t < restartPeriod {
				recent++
			}
		}
		switch {
		case rec.dead:
			sup.Note = say.T("con.show.gaveUp")
		case recent > 0:
			sup.Note = say.S("con.show.restarts", strconv.Itoa(recent), strconv.Itoa(restartIntensity+1))
		}
		if !rec.dead && rec.PID != beam.None {
			sup.Children = append(sup.Children, SupNode{Name: "queue " + name, PID: rec.PID})
		}
		queues.Children = append(queues.Children, sup)
	}
	vhost.Children = append(vhost.Children, queues)
	root.Children = append(root.Children, vhost)
	for _, r := range n.cluster.readers() {
		if r.n != n {
			continue
		}
		c := r.conn
		conn := SupNode{Name: fmt.Sprintf("rabbit_connection_sup c%d", c)}
		conn.Children = append(conn.Children, SupNode{Name: r.proc.Name, PID: r.proc.PID})
		nums := make([]int, 0, len(r.chans))
		for num := range r.chans {
			nums = append(nums, num)
		}
		order.Ints(nums)
		chans := SupNode{Name: "rabbit_channel_sup_sup"}
		for _, num := range nums {
			ref := r.chans[num]
			p := n.cluster.RT.Process(ref.pid)
			if p == nil || p.State() == beam.Exited {
				continue
			}
			sup := SupNode{Name: fmt.Sprintf("rabbit_channel_sup c%d.%d", c, num)}
			sup.Children = append(sup.Children, SupNode{Name: p.Name, PID: ref.pid})
			if w := n.cluster.RT.Process(ref.writer); w != nil && w.State() != beam.Exited {
				sup.Children = append(sup.Children, SupNode{Name: w.Name, PID: ref.writer})
			}
			chans.Children = append(chans.Children, sup)
		}
		conn.Children = append(conn.Children, chans)
		root.Children = append(root.Children, conn)
	}
	return root
}

// Lines prints the tree, two spaces a level; workers show their pid. A
// line with a note is its sentence, the others words.
func (s SupNode) Lines() []say.Text {
	var out []say.Text
	var walk func(s SupNode, depth int)
	walk = func(s SupNode, depth int) {
		line := ""
		for i := 0; i < depth; i++ {
			line += "  "
		}
		line += s.Name
		if s.PID != beam.None {
			line += " pid=" + strconv.Itoa(int(s.PID))
		}
		if s.Note.Key != "" {
			out = append(out, say.T(s.Note.Key, append([]any{line + " "}, s.Note.Args...)...))
		} else {
			out = append(out, say.Words(line))
		}
		for _, c := range s.Children {
			walk(c, depth+1)
		}
	}
	walk(s, 0)
	return out
}
