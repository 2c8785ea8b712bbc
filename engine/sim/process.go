package sim

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

// Process is one simulated Erlang process.
type Process struct {
	PID     PID
	Name    string // e.g. "queue q1", "channel c1.1"
	Kind    string // reader, channel, writer, queue, msg_store, ...
	Handler Handler

	mbox  mailbox
	input mailbox // socket data, read only while InputOpen
	// InputOpen gates the socket input (a reader stops reading its socket
	// while blocked by credit flow or an alarm).
	InputOpen bool
	await     uint32 // selective receive: only a reply with this Ref
	state     State
	sched     int // scheduler while Running

	// Reductions and Handled count work done; Busy is virtual µs spent.
	Reductions int64
	Handled    int64
	Busy       int64
}

// State returns what the process is doing.
func (p *Process) State() State { return p.state }

// MailboxLen is the number of messages waiting in the mailbox.
func (p *Process) MailboxLen() int { return p.mbox.len() }

// InputLen is the number of socket frames not yet read.
func (p *Process) InputLen() int { return p.input.len() }

// Mailbox calls f for each message waiting, oldest first.
func (p *Process) Mailbox(f func(*Msg)) { p.mbox.each(f) }

// Awaiting reports whether the process is blocked in a call.
func (p *Process) Awaiting() bool { return p.await != 0 }

// next returns where the message the process would take next is, and its
// arrival time: from the mailbox (fromInput false) or the socket.
func (p *Process) next() (idx int, fromInput bool, at int64, ok bool) {
	if p.await != 0 {
		for i := 0; i < p.mbox.len(); i++ {
			if m := p.mbox.peek(i); m.Ref == p.await {
				return i, false, m.At, true
			}
		}
		return 0, false, 0, false
	}
	if p.mbox.len() > 0 {
		m := p.mbox.peek(0)
		if p.InputOpen && p.input.len() > 0 {
			if in := p.input.peek(0); in.At < m.At {
				return 0, true, in.At, true
			}
		}
		return 0, false, m.At, true
	}
	if p.InputOpen && p.input.len() > 0 {
		return 0, true, p.input.peek(0).At, true
	}
	return 0, false, 0, false
}
