package beam

import "math/bits"

// Handler is a process's behaviour: it handles one message and may send,
// set timers, spawn and charge cost through ctx.
type Handler interface {
	Handle(ctx *Ctx, m Msg)
}

// State is what a process is doing.
type State uint8

// Process states.
const (
	Waiting  State = iota // no message it can take
	Runnable              // in the run queue
	Running               // current on a scheduler
	Exited
)

var stateNames = [...]string{"waiting", "runnable", "running", "exited"}

// String names the state.
func (s State) String() string { return stateNames[s] }

// Priorities is the number of mailbox priority levels (0 lowest).
const Priorities = 10

// Prioritiser gives a message its priority in the receiver's mailbox, as a
// gen_server2 process's prioritise_cast/call/info do: a higher priority
// message is handled before lower ones that arrived earlier.
type Prioritiser func(kind uint16, payload any) int

// Process is one simulated Erlang process.
type Process struct {
	PID     PID
	Name    string // e.g. "queue q1", "channel c1.1"
	Kind    string // reader, channel, writer, queue, msg_store, ...
	Handler Handler
	// Prio, when set, orders the mailbox by priority (gen_server2).
	Prio Prioritiser

	mbox  [Priorities]mailbox
	used  uint16  // bit i set: mbox[i] is not empty
	input mailbox // socket data, read only while InputOpen
	// InputOpen gates the socket input (a reader stops reading its socket
	// while blocked by credit flow or an alarm).
	InputOpen bool
	// Group is the node the process lives on; it runs on that node's
	// schedulers only.
	Group int
	await uint32 // selective receive: only a reply with this Ref
	state State
	sched int // scheduler while Running

	// Reductions and Handled count work done; Busy is virtual µs spent.
	Reductions int64
	Handled    int64
	Busy       int64

	held int64 // weight of the mailbox (Runtime.SetWeigher)
}

// State returns what the process is doing.
func (p *Process) State() State { return p.state }

// MailboxLen is the number of messages waiting in the mailbox.
func (p *Process) MailboxLen() int {
	n := 0
	for i := range p.mbox {
		n += p.mbox[i].len()
	}
	return n
}

// InputLen is the number of socket frames not yet read.
func (p *Process) InputLen() int { return p.input.len() }

// Mailbox calls f for each message waiting, highest priority first, oldest
// first within a priority.
func (p *Process) Mailbox(f func(*Msg)) {
	for i := Priorities - 1; i >= 0; i-- {
		p.mbox[i].each(f)
	}
}

// Awaiting reports whether the process is blocked in a call.
func (p *Process) Awaiting() bool { return p.await != 0 }

func (p *Process) clear() {
	p.mbox = [Priorities]mailbox{}
	p.used = 0
	p.input = mailbox{}
}

// next finds the message the process would take at time now: a call's
// reply while awaiting one; otherwise the highest priority message that has
// arrived by now, else the earliest to arrive; the socket only when open
// and behind the mailbox. It returns its ring, index, arrival time, and
// whether it came from the socket.
func (p *Process) next(now int64) (ring, idx int, fromInput bool, at int64, ok bool) {
	if p.await != 0 {
		for r := Priorities - 1; r >= 0; r-- {
			mb := &p.mbox[r]
			for i := 0; i < mb.len(); i++ {
				if m := mb.peek(i); m.Ref == p.await {
					return r, i, false, m.At, true
				}
			}
		}
		return 0, 0, false, 0, false
	}
	best := -1
	var bestAt int64
	for u := p.used; u != 0; {
		r := bits.Len16(u) - 1
		u &^= 1 << r
		a := p.mbox[r].peek(0).At
		if a <= now {
			return r, 0, false, a, true
		}
		if best < 0 || a < bestAt {
			best, bestAt = r, a
		}
	}
	if p.InputOpen && p.input.len() > 0 {
		if in := p.input.peek(0).At; best < 0 || in < bestAt {
			return 0, 0, true, in, true
		}
	}
	if best >= 0 {
		return best, 0, false, bestAt, true
	}
	return 0, 0, false, 0, false
}
