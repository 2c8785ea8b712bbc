package node

// Models rabbit_reader: one process per connection reads frames from the
// socket, starts a channel and writer per channel number, forwards methods
// (publishes under credit flow), and stops reading the socket while credit
// flow or a resource alarm blocks it.

import (
	"fmt"

	"warren/engine/amqp"
	"warren/engine/beam"
	"warren/engine/internal/order"
)

type chanRef struct {
	pid    beam.PID
	writer beam.PID
}

type reader struct {
	n      *Node
	conn   int
	proc   *beam.Process
	chans  map[int]*chanRef
	credit creditFlow
	alarms []string // resources in alarm: "memory", "disk"
	// blocked: a publish arrived while an alarm was set; the socket is not
	// read until the alarm clears.
	blocked     bool
	blockedSent bool
	held        *heldFrame
	closed      bool
}

type heldFrame struct {
	ch     int
	method any
}

// Connect opens connection conn (a reader process) if it is not open.
func (n *Node) Connect(conn int) beam.PID {
	if m := n.cluster.homeOf(conn); m != n {
		return m.Connect(conn)
	}
	return n.connectHere(conn)
}

// connectHere is Connect on the node conn lives on.
func (n *Node) connectHere(conn int) beam.PID {
	if r, ok := n.conns[conn]; ok && !r.closed {
		return r.proc.PID
	}
	r := &reader{n: n, conn: conn, chans: map[int]*chanRef{}, credit: newCreditFlow(n.Config.Credit)}
	r.proc = n.spawn(fmt.Sprintf("reader c%d", conn), "reader", r)
	r.proc.InputOpen = true
	for _, res := range []struct {
		on   bool
		name string
	}{{n.cluster.memAlarm, "memory"}, {n.cluster.diskAlarm, "disk"}} {
		if res.on {
			r.alarms = append(r.alarms, res.name)
		}
	}
	n.conns[conn] = r
	return r.proc.PID
}

// Open reports whether connection conn is open.
func (c *Cluster) Open(conn int) bool {
	r, ok := c.homeOf(conn).conns[conn]
	return ok && !r.closed
}

// Send puts a client frame on connection conn's socket, opening the
// connection first if needed.
func (c *Cluster) Send(conn, ch int, method any) {
	pid := c.homeOf(conn).connectHere(conn)
	c.RT.SendInput(pid, beam.Msg{Kind: kFrame, N: int64(ch), P: method})
}

// SendAt puts a client frame on the socket at virtual time at: a client
// reacting to something it received at that time.
func (c *Cluster) SendAt(conn, ch int, method any, at int64) {
	pid := c.homeOf(conn).connectHere(conn)
	c.RT.SendInputAt(pid, beam.Msg{Kind: kFrame, N: int64(ch), P: method}, at)
}

func (r *reader) Handle(ctx *beam.Ctx, m beam.Msg) {
	c := &r.n.Config.Costs
	switch m.Kind {
	case kFrame:
		if r.closed {
			return
		}
		r.frame(ctx, int(m.N), m.P)
	case kBump:
		ctx.Charge(1)
		if _, back := r.credit.bump(m.From, int(m.N)); back {
			r.n.cluster.creditTold(r.proc.PID, m.From, false)
		}
		r.maybeUnblock(ctx)
	case kAlarm:
		ctx.Charge(c.ReaderFrame)
		res := m.P.(string)
		if m.N == 1 {
			r.alarms = appendUnique(r.alarms, res)
			if r.credit.blocked() && !r.closed {
				// control_throttle: a reader that credit flow already
				// stopped is in state blocked (it had received a publish),
				// so the alarm is told at once, not at its next publish
				r.blocked = true
				if !r.blockedSent {
					r.blockedSent = true
					r.n.cluster.client.Frame(r.conn, 0, Blocked{Reason: r.blockedBy()}, ctx.End())
				}
			}
		} else {
			r.alarms = remove(r.alarms, res)
		}
		r.maybeUnblock(ctx)
	case kChannelExit:
		ctx.Charge(1)
		for num, ref := range r.chans {
			if ref.pid == m.From {
				delete(r.chans, num)
			}
		}
		r.credit.peerDown(m.From)
		r.maybeUnblock(ctx)
	case kConnError:
		ctx.Charge(c.ReaderFrame)
		e := m.P.(*amqp.Error)
		r.n.cluster.client.Frame(r.conn, 0, Closed{Code: e.Code, Text: e.Error()}, ctx.End())
		r.shutdown(ctx)
	}
}

func (r *reader) frame(ctx *beam.Ctx, ch int, method any) {
	c := &r.n.Config.Costs
	if _, ok := method.(ConnectionClose); ok {
		ctx.Charge(c.ReaderFrame)
		r.shutdown(ctx)
		return
	}
	ref := r.chans[ch]
	if ref == nil {
		ref = r.openChannel(ctx, ch)
	}
	if pub, ok := method.(*BasicPublish); ok {
		if len(r.alarms) > 0 {
			// publish_received: block, tell the client why, hold the frame.
			ctx.Charge(c.ReaderFrame)
			r.held = &heldFrame{ch, method}
			r.blocked = true
			r.reading(false)
			if !r.blockedSent {
				r.blockedSent = true
				r.n.cluster.client.Frame(r.conn, 0, Blocked{Reason: r.blockedBy()}, ctx.End())
			}
			return
		}
		r.publish(ctx, ref, pub)
		return
	}
	ctx.Charge(c.ReaderFrame)
	ctx.Send(ref.pid, beam.Msg{Kind: kMethod, P: method})
	if _, ok := method.(ChannelClose); ok {
		delete(r.chans, ch)
	}
}

func (r *reader) publish(ctx *beam.Ctx, ref *chanRef, pub *BasicPublish) {
	c := &r.n.Config.Costs
	ctx.Charge(c.ReaderPublish + int64(len(pub.Body)>>10)*c.PerKB)
	ctx.Send(ref.pid, beam.Msg{Kind: kMethod, N: 1, P: pub})
	if r.credit.send(ref.pid, ctx.Now) {
		r.n.cluster.creditTold(r.proc.PID, ref.pid, true)
		r.reading(false)
	}
}

func (r *reader) blockedBy() string {
	s := append([]string(nil), r.alarms...)
	order.Strings(s)
	msg := "low on "
	for i, a := range s {
		if i > 0 {
			msg += " & "
		}
		msg += a
	}
	return msg
}

// maybeUnblock reopens the socket once neither credit nor an alarm holds
// the reader back.
func (r *reader) maybeUnblock(ctx *beam.Ctx) {
	if r.closed || len(r.alarms) > 0 || r.credit.blocked() {
		return
	}
	if r.blockedSent {
		r.blockedSent = false
		r.n.cluster.client.Frame(r.conn, 0, Unblocked{}, ctx.End())
	}
	r.blocked = false
	if h := r.held; h != nil {
		r.held = nil
		ref := r.chans[h.ch]
		if ref == nil {
			ref = r.openChannel(ctx, h.ch)
		}
		r.publish(ctx, ref, h.method.(*BasicPublish))
		if r.credit.blocked() {
			return
		}
	}
	r.reading(true)
}

// reading opens or closes the reader's socket (rabbit_reader's
// running and blocked states), telling the change.
func (r *reader) reading(open bool) {
	if r.proc.InputOpen == open {
		return
	}
	r.proc.InputOpen = open
	k := ReaderBlocked
	if open {
		k = ReaderUnblocked
	}
	r.n.cluster.tell(Notice{Kind: k, PID: r.proc.PID})
}

func (r *reader) openChannel(ctx *beam.Ctx, num int) *chanRef {
	ctx.Charge(r.n.Config.Costs.ReaderFrame * 2)
	ch := newChannel(r.n, r.conn, num, r.proc.PID)
	ref := &chanRef{pid: ch.pid, writer: ch.writer}
	r.chans[num] = ref
	return ref
}

// shutdown closes the connection: every channel terminates (their queues
// requeue what was unacked), exclusive queues are deleted, the reader exits.
func (r *reader) shutdown(ctx *beam.Ctx) {
	r.closed = true
	nums := make([]int, 0, len(r.chans))
	for num := range r.chans {
		nums = append(nums, num)
	}
	order.Ints(nums)
	for _, num := range nums {
		ctx.Send(r.chans[num].pid, beam.Msg{Kind: kShutdown})
	}
	for _, name := range r.n.cluster.QueueNames() {
		q := r.n.cluster.queues[name]
		if q.Exclusive && q.Owner == r.conn {
			ctx.Send(q.PID, beam.Msg{Kind: kExclusiveDown})
		}
	}
	ctx.Exit()
}

func appendUnique(list []string, s string) []string {
	for _, e := range list {
		if e == s {
			return list
		}
	}
	return append(list, s)
}

func remove(list []string, s string) []string {
	out := list[:0]
	for _, e := range list {
		if e != s {
			out = append(out, e)
		}
	}
	return out
}
