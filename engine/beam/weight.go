package beam

// Weigher gives a waiting message its simulated memory in bytes, from
// its payload (Msg.P). It must depend on the message alone (it is asked
// again when the message leaves the mailbox) and be a plain function, not
// a closure, so that a checkpoint can copy the runtime.
//
// NB: it takes the payload, not a *Msg: a pointer passed to a function
// value escapes, and every message of every event would be allocated.
type Weigher func(payload any) int64

// SetWeigher makes the runtime keep, for every group, the sum of the
// weights of the messages waiting in its processes' mailboxes (socket
// input excluded), as they arrive and leave: MailboxBytes then reads it at
// once instead of visiting every process. It must be set before the first
// message is sent.
func (rt *Runtime) SetWeigher(w Weigher) { rt.weigh = w }

// MailboxBytes is the weight of every message waiting in the mailboxes of
// group g's processes, by the runtime's Weigher (0 without one).
func (rt *Runtime) MailboxBytes(g int) int64 {
	if g < 0 || g >= len(rt.held) {
		return 0
	}
	return rt.held[g]
}

// wideWeight in Msg.w: the weight does not fit 32 bits.
const wideWeight = 1<<32 - 1

// hold adds m, arriving in p's mailbox, to the weights, and keeps its
// weight in it for unhold.
func (rt *Runtime) hold(p *Process, m *Msg) {
	w := rt.weigh(m.P)
	m.w = wideWeight
	if w >= 0 && w < wideWeight {
		m.w = uint32(w)
	}
	p.held += w
	for len(rt.held) <= p.Group {
		rt.held = append(rt.held, 0)
	}
	rt.held[p.Group] += w
}

// drop empties a process's mailbox and socket input.
func (rt *Runtime) drop(p *Process) {
	if p.held != 0 {
		rt.held[p.Group] -= p.held
		p.held = 0
	}
	p.clear()
}
