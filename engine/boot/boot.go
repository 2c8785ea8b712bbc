package boot

import (
	"fmt"
	"path"
	"sort"

	"warren/engine/amqp"
	"warren/engine/definitions"
	"warren/engine/store"
	"warren/engine/store/format"
	"warren/engine/store/inspect"
	"warren/engine/vfs"
)

// Node is what a node recovers of one vhost folder.
type Node struct {
	VHost string
	// Named says where the queues' names came from: "definitions" or
	// "folder" (each directory's .queue_name, else the directory).
	Named  string
	Queues []Queue // the queues that come back, by name
	Gone   []Gone  // the queue directories that do not come back
}

// Queue is a durable queue that comes back, with its messages.
type Queue struct {
	Name string
	Dirs []string // its directories, "queues/<id>" (one a priority level)
	Args amqp.Table
	// Assumed says the queue's durability and arguments are guessed from
	// its files: no definitions named it.
	Assumed  bool
	Messages []Message // in the order the queue delivers them
	Lost     []Lost    // messages its index held that do not come back
}

// Message is a message that comes back.
type Message struct {
	Seq         uint64 // its seq id in its level's index
	Level       int    // its priority level (0 without priorities)
	Exchange    string
	Key         string
	Body        []byte
	Props       format.Properties
	Expiry      uint64 // microseconds since the epoch; 0 = none
	Redelivered bool
}

// Lost is a message in a queue's index that does not come back.
type Lost struct {
	Dir  string
	Seq  uint64
	Size uint32
	Why  string
}

// Gone is a queue directory that does not come back.
type Gone struct {
	Dir      string
	Name     string // "" when nothing names it
	Messages int    // the live entries of its index
	Why      string
}

// Why a message or a queue does not come back.
const (
	WhyTransient  = "transient: a restart keeps persistent messages only (recovery acks the others)"
	WhyNoBody     = "persistent, but its body is in no message store file: recovery acks it"
	WhyInMemory   = "its index says it was only in memory"
	WhyNotDurable = "the definitions say the queue is not durable: RabbitMQ deletes its directory on boot"
	WhyUnknown    = "no durable queue of the definitions owns this directory: RabbitMQ deletes it on boot"
	// WhyRedelivered is why every message comes back redelivered.
	WhyRedelivered = "warren reads no recovery terms (recovery.dets), so the node recovers as after a crash and marks every message redelivered"
)

// level is one directory of a queue.
type level struct {
	q     *inspect.Queue
	level int
	name  string // the name its files are under (name ++ <<0, P>> for a level)
}

// Recover starts the vhost of fo as RabbitMQ 3.10.8 would on boot. defs,
// when not nil, are the node's definitions (an export): they say which
// queues are durable, name them, and give their arguments.
func Recover(fo *inspect.Folder, defs *definitions.Defs) (*Node, error) {
	rep := fo.Report
	vhost := rep.VHost
	if !rep.HasVHost {
		vhost = "/"
	}
	n := &Node{VHost: vhost, Named: "folder"}
	if defs != nil {
		n.Named = "definitions"
	}
	byName := map[string][]level{}
	var order []string
	add := func(name string, l level) {
		if _, ok := byName[name]; !ok {
			order = append(order, name)
		}
		byName[name] = append(byName[name], l)
	}
	var defQueues map[string]definitions.Queue
	if defs != nil {
		defQueues = map[string]definitions.Queue{}
		for _, q := range defs.Queues {
			defQueues[q.Name] = q
		}
	}
	for i := range rep.Queues {
		q := &rep.Queues[i]
		id := path.Base(q.Dir)
		name, lvl, lname, known := nameOf(q, id, vhost, defs)
		if defs != nil {
			d, ok := defQueues[name]
			switch {
			case !known || !ok:
				n.Gone = append(n.Gone, Gone{Dir: q.Dir, Name: knownName(q), Messages: live(q), Why: WhyUnknown})
				continue
			case !d.Durable:
				n.Gone = append(n.Gone, Gone{Dir: q.Dir, Name: name, Messages: live(q), Why: WhyNotDurable})
				continue
			}
		}
		add(name, level{q: q, level: lvl, name: lname})
	}
	if defs != nil {
		// a durable queue without a directory comes back empty
		for _, d := range defs.Queues {
			if _, ok := byName[d.Name]; !ok && d.Durable {
				order = append(order, d.Name)
				byName[d.Name] = nil
			}
		}
	}
	sort.Strings(order)

	// the queues, with what the store must know of each level
	type plan struct {
		q    Queue
		refs []store.QueueRef
		lvls []level
	}
	var plans []*plan
	for _, name := range order {
		p := &plan{q: Queue{Name: name}}
		lvls := byName[name]
		sort.Slice(lvls, func(i, j int) bool { return lvls[i].level < lvls[j].level })
		if d, ok := defQueues[name]; ok {
			p.q.Args = d.Args
		} else {
			p.q.Assumed = true
			p.q.Args = guessArgs(lvls)
		}
		opts := store.QueueOptions{Durable: true, Version: 1}
		if v, ok := p.q.Args.Get("x-queue-version"); ok && v.Kind.IsInt() && v.Int == 2 {
			opts.Version = 2
		}
		if v, ok := p.q.Args.Get("x-queue-mode"); ok && v.Str == "lazy" {
			opts.Lazy = true
		}
		names := []string{name}
		if v, ok := p.q.Args.Get("x-max-priority"); ok && v.Kind.IsInt() && v.Int >= 0 && v.Int <= 255 {
			names = names[:0]
			for l := 0; l <= int(v.Int); l++ {
				names = append(names, format.PriorityQueueName(name, uint8(l)))
			}
		}
		for _, l := range lvls {
			p.q.Dirs = append(p.q.Dirs, l.q.Dir)
		}
		for _, ln := range names {
			o := opts
			for _, l := range lvls {
				if l.name == ln && l.q.IndexVersion != 0 {
					// the files say which index they are
					o.Version = l.q.IndexVersion
				}
			}
			p.refs = append(p.refs, store.QueueRef{Name: ln, Options: o})
		}
		p.lvls = lvls
		plans = append(plans, p)
	}

	// a copy of the folder, recovered by the store as the node would; a
	// directory that nothing named goes where the store looks for the
	// queue it stands for
	moved := map[string]string{}
	for _, p := range plans {
		for _, l := range p.lvls {
			moved[l.q.Dir] = "queues/" + format.QueueDirName(vhost, l.name)
		}
	}
	fsys := vfs.NewMemFS()
	dir := store.VHostDir(".", vhost)
	for _, f := range fo.Files() {
		data, err := fo.Read(f.Path)
		if err != nil {
			return nil, err
		}
		rel := f.Path
		if to, ok := moved[path.Dir(rel)]; ok {
			rel = path.Join(to, path.Base(rel))
		}
		full := path.Join(dir, rel)
		if err := fsys.MkdirAll(path.Dir(full)); err != nil {
			return nil, fmt.Errorf("%s: %v", f.Path, err)
		}
		if err := vfs.WriteFile(fsys, full, data); err != nil {
			return nil, fmt.Errorf("%s: %v", f.Path, err)
		}
	}
	prof := store.Profile310()
	prof.VHost = vhost
	var refs []store.QueueRef
	for _, p := range plans {
		refs = append(refs, p.refs...)
	}
	v, _, err := store.OpenVHost(fsys, ".", prof, refs)
	if err != nil {
		return nil, fmt.Errorf("recover: %w", err)
	}
	for _, p := range plans {
		var msgs []Message
		for lvl, ref := range p.refs {
			files, r, err := v.RecoverQueue(ref.Name)
			if err != nil {
				return nil, fmt.Errorf("recover queue %s: %w", p.q.Name, err)
			}
			back := map[uint64]bool{}
			for _, m := range r.Messages {
				term := m.Term
				if term == nil {
					if term, _, err = files.Read(m.Seq); err != nil {
						return nil, fmt.Errorf("recover queue %s: %w", p.q.Name, err)
					}
				}
				fm, err := format.DecodeMessage(p.q.Name, 0, term)
				if err != nil {
					return nil, fmt.Errorf("recover queue %s: %w", p.q.Name, err)
				}
				msg := Message{Seq: m.Seq, Level: lvl, Exchange: fm.Exchange, Body: fm.Payload(), Props: fm.Properties, Expiry: m.Expiry, Redelivered: true}
				if len(fm.RoutingKeys) > 0 {
					msg.Key = fm.RoutingKeys[0]
				}
				back[m.Seq] = true
				msgs = append(msgs, msg)
			}
			for _, l := range p.lvls {
				if l.name == ref.Name {
					p.q.Lost = append(p.q.Lost, lost(l.q, back)...)
				}
			}
		}
		// the highest level first, each in seq order: the order of delivery
		sort.SliceStable(msgs, func(i, j int) bool {
			if msgs[i].Level != msgs[j].Level {
				return msgs[i].Level > msgs[j].Level
			}
			return msgs[i].Seq < msgs[j].Seq
		})
		p.q.Messages = msgs
		n.Queues = append(n.Queues, p.q)
	}
	return n, nil
}

// nameOf names a queue directory: the definitions' queue it belongs to,
// else its .queue_name, else the directory. It says at which priority
// level, under which name its files are, and whether anything named it.
func nameOf(q *inspect.Queue, id, vhost string, defs *definitions.Defs) (name string, lvl int, files string, known bool) {
	if defs != nil {
		for _, d := range defs.Queues {
			if format.QueueDirName(vhost, d.Name) == id {
				return d.Name, 0, d.Name, true
			}
			if v, ok := d.Args.Get("x-max-priority"); ok && v.Kind.IsInt() && v.Int >= 0 && v.Int <= 255 {
				for l := 0; l <= int(v.Int); l++ {
					ln := format.PriorityQueueName(d.Name, uint8(l))
					if format.QueueDirName(vhost, ln) == id {
						return d.Name, l, ln, true
					}
				}
			}
		}
	}
	if q.HasName {
		if q.Priority >= 0 {
			return q.Parent, q.Priority, q.Name, true
		}
		return q.Name, 0, q.Name, true
	}
	return id, 0, id, false
}

func knownName(q *inspect.Queue) string {
	if !q.HasName {
		return ""
	}
	if q.Priority >= 0 {
		return q.Parent
	}
	return q.Name
}

// guessArgs are the arguments a queue known by its files alone must have
// had for its files to be as they are: x-queue-version=2 for a v2 index,
// x-max-priority for priority levels.
func guessArgs(lvls []level) amqp.Table {
	var t amqp.Table
	maxLevel := -1
	v2 := false
	for _, l := range lvls {
		if l.q.Priority >= 0 && l.level > maxLevel {
			maxLevel = l.level
		}
		v2 = v2 || l.q.IndexVersion == 2
	}
	if maxLevel >= 0 {
		t = append(t, amqp.Field{Key: "x-max-priority", Val: amqp.IntValue(int64(maxLevel))})
	}
	if v2 {
		t = append(t, amqp.Field{Key: "x-queue-version", Val: amqp.IntValue(2)})
	}
	return t
}

// live counts the entries of a queue's index that still hold a message.
func live(q *inspect.Queue) int {
	k := 0
	for _, e := range q.Entries {
		if e.State.Live() {
			k++
		}
	}
	return k
}

// lost lists the live entries of a directory that did not come back, and
// why.
func lost(q *inspect.Queue, back map[uint64]bool) []Lost {
	var out []Lost
	for _, e := range q.Entries {
		if !e.State.Live() || back[e.SeqID] {
			continue
		}
		why := WhyNoBody
		switch {
		case !e.Persistent:
			why = WhyTransient
		case e.Where == inspect.InMemory:
			why = WhyInMemory
		}
		out = append(out, Lost{Dir: q.Dir, Seq: e.SeqID, Size: e.Size, Why: why})
	}
	return out
}
