package beam

// Ctx is what a handler may do while it handles one message. Sends take
// effect when the handler's work is done, at the end of its cost.
type Ctx struct {
	rt   *Runtime
	proc *Process
	Self PID
	Now  int64 // virtual µs at which handling started
	cost int64
}

// Charge adds virtual µs of work to the current event.
func (c *Ctx) Charge(us int64) { c.cost += us }

// Cost is the work charged so far in this event.
func (c *Ctx) Cost() int64 { return c.cost }

// End is the virtual time at which the current event's work ends.
func (c *Ctx) End() int64 { return c.Now + c.cost }

// Send queues m for to; it arrives when this event's work ends.
func (c *Ctx) Send(to PID, m Msg) {
	m.From = c.Self
	c.rt.out = append(c.rt.out, send{to: to, msg: m})
}

// SendInput queues m on to's gated socket input.
func (c *Ctx) SendInput(to PID, m Msg) {
	m.From = c.Self
	c.rt.out = append(c.rt.out, send{to: to, msg: m, input: true})
}

// SendAfter schedules m for to after delay µs from the end of this event.
func (c *Ctx) SendAfter(to PID, delay int64, m Msg) TimerID {
	m.From = c.Self
	return c.rt.sendAfter(c.Now+c.cost+delay, to, m)
}

// CancelTimer cancels a timer set earlier.
func (c *Ctx) CancelTimer(id TimerID) { c.rt.CancelTimer(id) }

// Call sends a request carrying a fresh reference and makes the process
// wait, after this event, for the reply with that reference only (a
// gen_server call's selective receive). The reply handler sees Msg.Ref.
func (c *Ctx) Call(to PID, m Msg) uint32 {
	ref := c.rt.NewRef()
	m.Ref = ref
	c.Send(to, m)
	c.proc.await = ref
	return ref
}

// Sleep makes the process wait d µs after this event, taking nothing else
// from its mailbox meanwhile (timer:sleep/1), then handle m. Sending a
// message with the returned ref (and cancelling the timer) ends the sleep
// early.
func (c *Ctx) Sleep(d int64, m Msg) (uint32, TimerID) {
	m.Ref = c.rt.NewRef()
	m.From = c.Self
	id := c.rt.sendAfter(c.Now+c.cost+d, c.Self, m)
	c.proc.await = m.Ref
	return m.Ref, id
}

// Reply answers a call.
func (c *Ctx) Reply(req Msg, m Msg) {
	m.Ref = req.Ref
	c.Send(req.From, m)
}

// Spawn starts a process.
func (c *Ctx) Spawn(name, kind string, h Handler) PID {
	return c.rt.Spawn(name, kind, h).PID
}

// Exit ends the calling process after this event; its mailbox is dropped.
func (c *Ctx) Exit() {
	c.proc.state = Exited
	c.rt.drop(c.proc)
}

// MailboxEmpty reports whether no message is waiting for the process by
// the end of this event (an Erlang receive with timeout 0 would time out).
func (c *Ctx) MailboxEmpty() bool {
	end := c.End()
	// the first message that has arrived answers it: a queue with a long
	// mailbox asks after every event, and its messages have mostly arrived
	for i := range c.proc.mbox {
		m := &c.proc.mbox[i]
		for j := 0; j < m.size; j++ {
			if m.peek(j).At <= end {
				return false
			}
		}
	}
	return true
}

// Runtime gives access to the runtime (for reads only).
func (c *Ctx) Runtime() *Runtime { return c.rt }

// KillAll ends every process and drops every pending timer and runnable
// entry (the node's VM stops); the clock and the event count go on.
func (rt *Runtime) KillAll() {
	for _, p := range rt.procs[1:] {
		p.state = Exited
		rt.drop(p)
		p.sched = -1
	}
	for i := range rt.scheds {
		rt.scheds[i].cur = nil
	}
	for i := range rt.runqs {
		rt.runqs[i] = rt.runqs[i][:0]
	}
	rt.timers = rt.timers[:0]
	rt.timerIndex = nil
	rt.out = rt.out[:0]
}

// Kill ends a process from outside (a crash injected by a scenario).
func (rt *Runtime) Kill(pid PID) {
	p := rt.Process(pid)
	if p == nil || p.state == Exited {
		return
	}
	if p.sched >= 0 && p.sched < len(rt.scheds) && rt.scheds[p.sched].cur == p {
		rt.scheds[p.sched].cur = nil
	}
	p.state = Exited
	rt.drop(p)
}
