package engine

// The simulated AMQP client side: what a client library keeps per
// connection and channel, and how the broker's methods become trace events.

import (
	"warren/engine/beam"
	"warren/engine/node"
	"warren/engine/trace"
)

type clientChan struct {
	open    bool
	confirm bool
}

type clientConn struct {
	open  bool
	chans map[int]*clientChan
}

// client records what the broker sends and keeps the client-side state.
type client struct {
	cluster *node.Cluster
	rt      *beam.Runtime
	// lines is the transcript: every trace line as it arrived, with its
	// event number (the history's, shared by every state a seek makes).
	// It and the two settings are the Sim's, joined by Sim.link.
	lines       *lineLog `clone:"-"`
	record      bool     `clone:"-"`
	discard     bool     `clone:"-"` // keep no events (benchmarks)
	autoAck     map[autoKey]*autoAck
	lastAutoKey autoKey
	lastAuto    *autoAck
	conns       map[int]*clientConn
	// events are the events observed since the last take, in blocks of
	// eventBlock, the last one partly filled; spare are emptied blocks
	// for the next command (at most keepEvents events).
	events    [][]trace.Event `clone:"-"`
	spare     [][]trace.Event `clone:"-"`
	lastFrame int64
	ctagN     int
}

// TraceLine is one line of what a client saw, with the event during which
// it arrived and its virtual time (µs).
type TraceLine struct {
	Event int64
	Time  int64
	Text  string
}

// autoKey names a consumer whose client acknowledges by itself.
type autoKey struct {
	conn, ch int
	tag      string
}

type autoAck struct {
	every int
	seen  int
	work  int64 // µs the client spends on each message
	busy  int64 // when the client is done with what it has
}

func newClient() *client {
	return &client{conns: map[int]*clientConn{}, autoAck: map[autoKey]*autoAck{}}
}

func (c *client) conn(n int) *clientConn {
	cc, ok := c.conns[n]
	if !ok {
		cc = &clientConn{chans: map[int]*clientChan{}}
		c.conns[n] = cc
	}
	return cc
}

// Frame implements node.Client.
func (c *client) Frame(conn, ch int, method any, at int64) {
	if at > c.lastFrame {
		c.lastFrame = at
	}
	e := trace.Event{Conn: conn, Chan: ch}
	switch m := method.(type) {
	case node.DeclareOk:
		e.Kind, e.Queue, e.Messages, e.Consumers = trace.DeclareOK, m.Queue, m.Messages, m.Consumers
	case node.DeleteOk:
		e.Kind, e.Messages = trace.DeleteOK, m.Messages
	case node.PurgeOk:
		e.Kind, e.Messages = trace.PurgeOK, m.Messages
	case node.ConsumeOk:
		e.Kind, e.ConsumerTag = trace.ConsumeOK, m.Tag
	case *node.Deliver:
		e.Kind, e.ConsumerTag, e.DeliveryTag, e.Redelivered = trace.Deliver, m.ConsumerTag, m.DeliveryTag, m.Redelivered
		setMsg(&e, m.Msg)
		if a := c.auto(conn, ch, m.ConsumerTag); a != nil {
			a.seen++
			a.busy = max(a.busy, at) + a.work
			if a.seen%a.every == 0 {
				c.cluster.SendAt(conn, ch, c.cluster.NewAck(m.DeliveryTag, a.every > 1), a.busy)
			}
		}
	case node.GetOk:
		e.Kind, e.DeliveryTag, e.Redelivered, e.Messages = trace.GetOK, m.DeliveryTag, m.Redelivered, m.MessageCount
		setMsg(&e, m.Msg)
	case node.GetEmpty:
		e.Kind = trace.GetEmpty
	case node.Confirm:
		e.Kind, e.Seq = trace.ConfirmAck, m.Seq
		if m.Nack {
			e.Kind = trace.ConfirmNack
		}
	case node.Return:
		e.Kind, e.Code, e.Text = trace.Return, m.Code, m.Text
		setMsg(&e, m.Msg)
	case node.Cancel:
		e.Kind, e.ConsumerTag = trace.Cancelled, m.Tag
	case node.Closed:
		e.Code, e.Text = m.Code, m.Text
		cc := c.conn(conn)
		if ch == 0 {
			e.Kind = trace.ConnectionClosed
			cc.open = false
			cc.chans = map[int]*clientChan{}
		} else {
			e.Kind = trace.ChannelClosed
			delete(cc.chans, ch)
		}
	case node.Lost:
		e.Kind = trace.ConnectionLost
		cc := c.conn(conn)
		cc.open = false
		cc.chans = map[int]*clientChan{}
	case node.Blocked:
		e.Kind, e.Text = trace.Blocked, m.Reason
	case node.Unblocked:
		e.Kind = trace.Unblocked
	default:
		return // replies that carry nothing new
	}
	if !c.discard {
		c.add(&e)
		if c.record {
			c.lines.add(c.rt.Events()+1, at, &e)
		}
	}
}

func setMsg(e *trace.Event, m *node.Message) {
	e.Exchange, e.Key, e.Body, e.Props = m.Exchange, m.Key, m.Body, m.Props
}

// auto finds a self-acknowledging consumer; the last one found is cached.
func (c *client) auto(conn, ch int, tag string) *autoAck {
	if len(c.autoAck) == 0 {
		return nil
	}
	k := autoKey{conn, ch, tag}
	if c.lastAuto != nil && c.lastAutoKey == k {
		return c.lastAuto
	}
	a := c.autoAck[k]
	c.lastAutoKey, c.lastAuto = k, a
	return a
}

// eventBlock is how many events one block of the client's buffer holds
// (about 94 kB). A command's events go into blocks, never moved: one slice
// grown by append would be copied at every growth, by a quarter of its
// size once large, so that a command of 20,000 deliveries allocated five
// times the 3.7 MB it kept (and under wasm, where the garbage collector
// runs on the program's one thread, that copying and collecting took a
// tenth of the command).
const eventBlock = 512

// add appends e to the events.
func (c *client) add(e *trace.Event) {
	n := len(c.events)
	if n == 0 || len(c.events[n-1]) == eventBlock {
		var b []trace.Event
		if k := len(c.spare); k > 0 {
			b, c.spare = c.spare[k-1], c.spare[:k-1]
		} else {
			b = make([]trace.Event, 0, eventBlock)
		}
		c.events = append(c.events, b)
		n++
	}
	c.events[n-1] = append(c.events[n-1], *e)
}

// take returns and clears the events observed so far, in blocks.
func (c *client) take() [][]trace.Event {
	ev := c.events
	c.events = nil
	return ev
}

// keepEvents is the most events whose blocks recycle keeps for the next
// command (about 3 MB).
const keepEvents = 1 << 14

// recycle hands back the blocks take returned, once their events are
// printed, so that the next command appends without making new ones.
func (c *client) recycle(ev [][]trace.Event) {
	for _, b := range ev {
		if len(c.spare)*eventBlock >= keepEvents {
			return
		}
		clear(b) // hold no message bodies
		c.spare = append(c.spare, b[:0])
	}
}

// eventCount is how many events the blocks hold.
func eventCount(ev [][]trace.Event) int {
	if len(ev) == 0 {
		return 0
	}
	return (len(ev)-1)*eventBlock + len(ev[len(ev)-1])
}

// joined is the events of the blocks in one slice (the first block itself
// when there is one).
func joined(ev [][]trace.Event) []trace.Event {
	if len(ev) == 1 {
		return ev[0]
	}
	out := make([]trace.Event, 0, eventCount(ev))
	for _, b := range ev {
		out = append(out, b...)
	}
	return out
}

// inOutputOrder says whether trace.Sort would leave the events as they
// are: connections and channels in ascending order, and each channel's
// publisher confirms by ascending sequence number. A command's events
// mostly arrive so (every delivery of a run to one consumer), and are
// then printed from their blocks without being joined and sorted.
func inOutputOrder(ev [][]trace.Event) bool {
	var prev *trace.Event
	confirmed, seq := false, uint64(0) // the last confirm of prev's channel
	for _, b := range ev {
		for i := range b {
			e := &b[i]
			if prev != nil && (e.Conn != prev.Conn || e.Chan != prev.Chan) {
				if e.Conn < prev.Conn || e.Conn == prev.Conn && e.Chan < prev.Chan {
					return false
				}
				confirmed = false
			}
			if e.Kind == trace.ConfirmAck || e.Kind == trace.ConfirmNack {
				if confirmed && e.Seq < seq {
					return false
				}
				confirmed, seq = true, e.Seq
			}
			prev = e
		}
	}
	return true
}
