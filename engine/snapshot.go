package engine

import (
	"sort"

	"warren/engine/beam"
	"warren/engine/node"
)

// Snapshot is the whole node at one moment, as plain values: what the
// widget draws and the tests print.
type Snapshot struct {
	Time       int64           `json:"time"` // virtual µs
	Events     int64           `json:"events"`
	Furthest   int64           `json:"furthest"`
	Schedulers []SchedulerView `json:"schedulers"`
	Processes  []ProcessView   `json:"processes"`
	Credit     []CreditView    `json:"credit"`
	Queues     []QueueView     `json:"queues"`
	Memory     int64           `json:"memory"`
	Watermark  int64           `json:"watermark"`
	Alarms     []string        `json:"alarms"`
	Files      []FileView      `json:"files"`
	// Nodes has every node of a cluster (Memory, Watermark and Alarms
	// above are the first node's); it is empty for a single node.
	Nodes []NodeView `json:"nodes,omitempty"`
}

// NodeView is one node of a cluster: its memory against its watermark and
// the alarms it raised itself (an alarm on any node blocks publishers on
// every node, and the Alarms of the snapshot list it).
type NodeView struct {
	Name      string   `json:"name"`
	Memory    int64    `json:"memory"`
	Watermark int64    `json:"watermark"`
	Alarms    []string `json:"alarms"`
}

// FileView is one file on the node's disk.
type FileView = node.FileView

// SchedulerView is one scheduler: how busy it has been and what it runs.
type SchedulerView struct {
	Busy    int64   `json:"busy"` // virtual µs spent running processes
	Util    float64 `json:"util"` // Busy over elapsed virtual time
	Running int32   `json:"running"`
	Node    string  `json:"node,omitempty"` // in a cluster, the node it belongs to
}

// ProcessView is one live process and its mailbox.
type ProcessView struct {
	PID        int32    `json:"pid"`
	Name       string   `json:"name"`
	Kind       string   `json:"kind"`
	State      string   `json:"state"`
	Mailbox    int      `json:"mailbox"`
	Head       []string `json:"head"` // kinds of the first few messages waiting
	Socket     int      `json:"socket"`
	Reductions int64    `json:"reductions"`
	Handled    int64    `json:"handled"`
	Blocked    bool     `json:"blocked"`        // a reader not reading its socket
	Node       string   `json:"node,omitempty"` // in a cluster, the node it lives on
}

// CreditView is the credit a sender holds toward a receiver.
type CreditView struct {
	From    int32 `json:"from"`
	To      int32 `json:"to"`
	Credit  int   `json:"credit"`
	Initial int   `json:"initial"`
	Blocked bool  `json:"blocked"`
}

// QueueView is one queue: its priority levels and consumers.
type QueueView struct {
	Name      string         `json:"name"`
	PID       int32          `json:"pid"`
	Ready     int            `json:"ready"`
	Unacked   int            `json:"unacked"`
	Bytes     int64          `json:"bytes"`
	Levels    []int          `json:"levels"`    // ready messages per priority level, level 0 first
	Heads     []string       `json:"heads"`     // bodies at the head of the queue, next first
	HeadProps []string       `json:"headProps"` // for each head, its priority, persistence and properties (node.HeadProps)
	Consumers []ConsumerView `json:"consumers"`
	Durable   bool           `json:"durable"`
	Exclusive bool           `json:"exclusive"`
	Policy    string         `json:"policy"`
	// Utilisation is list_queues consumer_utilisation: the moving share of
	// time the queue could deliver to a consumer at once; 0 without one.
	Utilisation float64 `json:"utilisation"`
	Down        bool    `json:"down,omitempty"` // its node is stopped: only its record is known
}

// ConsumerView is one consumer with its prefetch and unacked deliveries.
type ConsumerView = node.ConsumerInfo

const mailboxHead = 8

// Snapshot captures the node now.
func (s *Sim) Snapshot() Snapshot {
	now := s.rt.Now()
	snap := Snapshot{Time: now, Events: s.rt.Events(), Furthest: s.Furthest(), Memory: s.node.Memory(),
		Watermark: s.node.Config.Watermark, Alarms: s.cluster.Alarms()}
	members := s.cluster.Members()
	for _, sc := range s.rt.Schedulers() {
		v := SchedulerView{Busy: sc.Busy}
		if len(members) > 1 {
			v.Node = members[sc.Group].Name
		}
		if now > 0 {
			v.Util = float64(sc.Busy) / float64(now)
		}
		if p := sc.Current(); p != nil {
			v.Running = int32(p.PID)
		}
		snap.Schedulers = append(snap.Schedulers, v)
	}
	for _, p := range s.rt.Processes() {
		if p.State() == beam.Exited {
			continue
		}
		v := ProcessView{PID: int32(p.PID), Name: p.Name, Kind: p.Kind, State: p.State().String(), Mailbox: p.MailboxLen(),
			Socket: p.InputLen(), Reductions: p.Reductions, Handled: p.Handled, Blocked: p.Kind == "reader" && !p.InputOpen}
		if len(members) > 1 {
			v.Node = members[p.Group].Name
		}
		p.Mailbox(func(m *beam.Msg) {
			if len(v.Head) < mailboxHead {
				v.Head = append(v.Head, node.KindName(m.Kind))
			}
		})
		snap.Processes = append(snap.Processes, v)
	}
	for _, l := range s.cluster.CreditLinks() {
		snap.Credit = append(snap.Credit, CreditView{From: int32(l.From), To: int32(l.To), Credit: l.Credit, Initial: l.Initial, Blocked: l.Blocked})
	}
	sort.SliceStable(snap.Credit, func(i, j int) bool {
		a, b := snap.Credit[i], snap.Credit[j]
		if a.From != b.From {
			return a.From < b.From
		}
		return a.To < b.To
	})
	for _, q := range s.cluster.QueueDetails(mailboxHead) {
		snap.Queues = append(snap.Queues, QueueView{Name: q.Name, PID: int32(q.PID), Ready: q.Ready, Unacked: q.Unack, Bytes: q.ReadyBytes,
			Levels: q.Levels, Heads: q.Heads, HeadProps: q.HeadProps, Consumers: q.Consumers, Durable: q.Durable, Exclusive: q.Exclusive, Policy: q.Policy, Utilisation: q.Utilisation, Down: q.Down})
	}
	snap.Files = s.node.FileViews()
	if len(members) > 1 {
		for _, m := range members {
			snap.Nodes = append(snap.Nodes, NodeView{Name: m.Name, Memory: m.Memory(), Watermark: m.Config.Watermark, Alarms: m.OwnAlarms()})
		}
	}
	return snap
}
