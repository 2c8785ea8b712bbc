package beam

import "math/bits"

// SliceReductions is the number of reductions a process may use before
// its scheduler preempts it (CONTEXT_REDS on OTP 25).
const SliceReductions = 4000

// ReductionsPerMicro converts virtual cost into reductions. A slice of
// 4000 reductions is then 200 µs of work.
const ReductionsPerMicro = 20

// Scheduler is one simulated scheduler thread (one core).
type Scheduler struct {
	FreeAt int64 // virtual µs at which it finishes its current work
	Busy   int64 // virtual µs spent running processes
	// Group is the node whose processes it runs (0 on a single node).
	Group int
	cur   *Process
	left  int64 // reductions left in the current slice
}

// Current returns the process the scheduler is running, or nil.
func (s *Scheduler) Current() *Process { return s.cur }

// Event is one step of the runtime: a process handled one message.
type Event struct {
	N     int64 // 1-based event number
	Start int64 // virtual µs
	End   int64
	Sched int
	PID   PID
	Kind  uint16
	From  PID
	Input bool // the message was socket data
}

// Observer is told of every event right after it ran.
type Observer func(e *Event)

// Runtime runs processes on schedulers in virtual time.
type Runtime struct {
	procs      []*Process // index = PID; procs[0] is nil
	scheds     []Scheduler
	runqs      []runQueue // one run queue per group (node)
	timers     timerHeap
	seq        uint64
	now        int64
	events     int64
	lastEnd    int64 // when the latest event's work ended
	nextRef    uint32
	timerIndex map[TimerID]*timer
	out        []send
	ctx        Ctx
	// Observe, when set, is called after every event. A copy of the
	// runtime (clone.Copy) holds neither it nor Log: they belong to
	// whoever runs it.
	Observe Observer `clone:"-"`
	// Log, when set, keeps every event (the timeline's record).
	Log *EventLog `clone:"-"`
	// LinkDelay is how long a message takes between processes of
	// different groups (nodes of a cluster), in virtual µs.
	LinkDelay int64
	// weigh, when set, weighs mailbox messages; held is their weight by
	// group (see SetWeigher).
	weigh Weigher
	held  []int64
}

type send struct {
	to    PID
	msg   Msg
	input bool
}

// New returns a runtime with n schedulers (at least 1).
func New(n int) *Runtime {
	if n < 1 {
		n = 1
	}
	rt := &Runtime{procs: []*Process{nil}, scheds: make([]Scheduler, n), runqs: make([]runQueue, 1)}
	rt.ctx.rt = rt
	return rt
}

// Now is the virtual time in µs: the start of the latest event, or later
// if the clock was advanced while idle.
func (rt *Runtime) Now() int64 { return rt.now }

// LastEnd is the virtual time at which the latest event's work ended.
func (rt *Runtime) LastEnd() int64 { return rt.lastEnd }

// Events is the number of events run so far.
func (rt *Runtime) Events() int64 { return rt.events }

// Schedulers exposes the schedulers for inspection.
func (rt *Runtime) Schedulers() []Scheduler { return rt.scheds }

// Groups is the number of scheduler groups (nodes).
func (rt *Runtime) Groups() int { return len(rt.runqs) }

// AddGroup adds a group of n schedulers (another node's cores) and returns
// its number. Processes spawned with that Group run only on them.
func (rt *Runtime) AddGroup(n int) int {
	g := len(rt.runqs)
	rt.runqs = append(rt.runqs, nil)
	for i := 0; i < max(n, 1); i++ {
		rt.scheds = append(rt.scheds, Scheduler{FreeAt: rt.now, Group: g})
	}
	return g
}

// SetSchedulers changes the number of schedulers of a single-group
// runtime; it may only be called while no process is running on one.
func (rt *Runtime) SetSchedulers(n int) {
	if n < 1 {
		n = 1
	}
	for len(rt.scheds) < n {
		rt.scheds = append(rt.scheds, Scheduler{FreeAt: rt.now})
	}
	for len(rt.scheds) > n {
		last := &rt.scheds[len(rt.scheds)-1]
		if last.cur != nil {
			rt.release(last.cur, last.FreeAt)
		}
		rt.scheds = rt.scheds[:len(rt.scheds)-1]
	}
}

// Process returns the process with the given PID, or nil.
func (rt *Runtime) Process(pid PID) *Process {
	if pid <= 0 || int(pid) >= len(rt.procs) {
		return nil
	}
	return rt.procs[pid]
}

// Processes returns every process ever spawned, in PID order.
func (rt *Runtime) Processes() []*Process { return rt.procs[1:] }

// Spawn starts a process in group 0.
func (rt *Runtime) Spawn(name, kind string, h Handler) *Process {
	return rt.SpawnIn(0, name, kind, h)
}

// SpawnIn starts a process that runs on the schedulers of group g.
func (rt *Runtime) SpawnIn(g int, name, kind string, h Handler) *Process {
	p := &Process{PID: PID(len(rt.procs)), Name: name, Kind: kind, Handler: h, sched: -1, Group: g}
	rt.procs = append(rt.procs, p)
	return p
}

// Send delivers a message from outside any process (a client's frame, an
// operator command) at the current time.
func (rt *Runtime) Send(to PID, m Msg) {
	m.At = rt.now
	rt.deliver(to, m, false)
}

// SendInput puts socket data in front of a process's gated input.
func (rt *Runtime) SendInput(to PID, m Msg) {
	m.At = rt.now
	rt.deliver(to, m, true)
}

// SendInputAt puts socket data on a process's input at virtual time at
// (a client answering a frame it received at that time).
func (rt *Runtime) SendInputAt(to PID, m Msg, at int64) {
	m.At = max(at, rt.now)
	rt.deliver(to, m, true)
}

// Wake re-checks a process whose input gate was opened from outside.
func (rt *Runtime) Wake(pid PID) { rt.wake(rt.procs[pid], rt.now) }

func (rt *Runtime) deliver(to PID, m Msg, input bool) { rt.deliverRef(to, &m, input) }

func (rt *Runtime) deliverRef(to PID, m *Msg, input bool) {
	if to <= 0 || int(to) >= len(rt.procs) {
		return
	}
	p := rt.procs[to]
	if p.state == Exited {
		return // like Erlang: a message to a dead process is dropped
	}
	if input {
		p.input.push(m)
	} else {
		if rt.weigh != nil {
			rt.hold(p, m)
		}
		// push to the mailbox of its priority
		pr := 0
		if p.Prio != nil {
			pr = min(max(p.Prio(m.Kind, m.P), 0), Priorities-1)
		}
		p.mbox[pr].push(m)
		p.used |= 1 << pr
	}
	if p.state == Waiting {
		rt.wake(p, m.At)
	}
}

func (rt *Runtime) wake(p *Process, at int64) {
	if p.state != Waiting {
		return
	}
	if _, _, _, next, ok := p.next(at); ok {
		p.state = Runnable
		rt.seq++
		rt.runqs[p.Group].push(runEntry{at: max(next, at), seq: rt.seq, p: p})
	}
}

// release takes a process off its scheduler at time t.
func (rt *Runtime) release(p *Process, t int64) {
	p.sched = -1
	if p.state == Exited {
		return
	}
	p.state = Waiting
	rt.wake(p, t)
}

// Idle reports whether no process can run now or later without a timer.
func (rt *Runtime) Idle() bool {
	for _, q := range rt.runqs {
		if q.Len() > 0 {
			return false
		}
	}
	for i := range rt.scheds {
		if rt.scheds[i].cur != nil {
			return false
		}
	}
	return true
}

// NextTimer returns the time of the earliest pending timer.
func (rt *Runtime) NextTimer() (int64, bool) {
	if len(rt.timers) > 0 && !rt.timers[0].cancelled {
		return rt.timers[0].at, true
	}
	return rt.nextTimerSlow()
}

// NextTimerTo is NextTimer with the process the timer wakes and the kind
// of the message it sends.
func (rt *Runtime) NextTimerTo() (at int64, to PID, kind uint16, ok bool) {
	if _, ok = rt.NextTimer(); !ok {
		return 0, 0, 0, false
	}
	t := rt.timers[0] // NextTimer dropped the cancelled ones on top
	return t.at, t.to, t.msg.Kind, true
}

// nextTimerSlow is NextTimer when the earliest timer was cancelled or
// there is none.
func (rt *Runtime) nextTimerSlow() (int64, bool) {
	rt.dropCancelled()
	if len(rt.timers) == 0 {
		return 0, false
	}
	return rt.timers[0].at, true
}

// nextWork finds the scheduler that can start work earliest.
func (rt *Runtime) nextWork() (si int, t int64, ok bool) {
	best, bestT := -1, int64(0)
	for i := range rt.scheds {
		s := &rt.scheds[i]
		var ti int64
		switch {
		case s.cur != nil:
			ti = s.FreeAt
		case rt.runqs[s.Group].Len() > 0:
			ti = max(s.FreeAt, rt.runqs[s.Group][0].at)
		default:
			continue
		}
		if best < 0 || ti < bestT {
			best, bestT = i, ti
		}
	}
	return best, bestT, best >= 0
}

// Step runs the next event: fires due timers, then lets the earliest
// scheduler handle one message. It reports false when nothing can happen
// before limit (limit < 0: no limit).
func (rt *Runtime) Step(limit int64) bool { return rt.step(limit, true, false) }

// StepQuiet is Step for running until quiet: work always runs, however
// late; limit only bounds the timers that may fire once nothing else can
// run.
func (rt *Runtime) StepQuiet(limit int64) bool { return rt.step(limit, false, false) }

// Steps runs up to most events one after another, each as Step (bounded)
// or StepQuiet would, and returns how many ran. It stops early after an
// event that started at or after until (virtual µs), where Step would
// report false, and, for StepQuiet, where no process has work left
// (before any timer fires): which timers may fire then depends on a limit
// the caller works out from what the events did, so the caller goes on
// with StepQuiet. A caller that needs to look at the simulation between
// some events bounds most and until so that it can: the events run the
// same as one Step at a time. each, when set, is called after every
// event.
func (rt *Runtime) Steps(limit int64, bounded bool, most, until int64, each func()) int64 {
	if most <= 0 {
		return 0
	}
	return rt.steps(limit, bounded, !bounded, most, until, each)
}

// step runs one event as Step (bounded) or StepQuiet does; idleStop
// makes it report false instead of firing a timer when no process has
// work.
func (rt *Runtime) step(limit int64, bounded, idleStop bool) bool {
	return rt.steps(limit, bounded, idleStop, 1, 0, nil) > 0
}

// steps is step again and again, as Steps: it runs at least one event
// (when one can run) and at most most.
func (rt *Runtime) steps(limit int64, bounded, idleStop bool, most, until int64, each func()) int64 {
	n := int64(0)
	for {
		var si int
		var t int64
		var ok bool
		if len(rt.scheds) == 1 {
			// rt.nextWork() for one scheduler, without the call
			s := &rt.scheds[0]
			if s.cur != nil {
				t, ok = s.FreeAt, true
			} else if q := rt.runqs[s.Group]; len(q) > 0 {
				t, ok = max(s.FreeAt, q[0].at), true
			}
		} else {
			si, t, ok = rt.nextWork()
		}
		if !ok && idleStop {
			return n
		}
		tt, timer := int64(0), false // rt.NextTimer(), without the call
		if len(rt.timers) > 0 {
			if rt.timers[0].cancelled {
				rt.dropCancelled()
			}
			if len(rt.timers) > 0 {
				tt, timer = rt.timers[0].at, true
			}
		}
		if timer && ((ok && tt <= t) || (!ok && (limit < 0 || tt <= limit))) {
			if bounded && limit >= 0 && tt > limit {
				return n
			}
			rt.fire()
			continue
		}
		if !ok || (bounded && limit >= 0 && t > limit) {
			return n
		}
		s := &rt.scheds[si]
		p := s.cur
		if p == nil {
			e := rt.runqs[s.Group].pop()
			p = e.p
			if p.state == Exited {
				continue
			}
			p.state = Running
			p.sched = si
			s.cur = p
			s.left = SliceReductions
		}
		var ring, idx int
		var fromInput, has bool
		var at int64
		if u := p.used; p.await == 0 && u != 0 && p.mbox[bits.Len16(u)-1].buf[p.mbox[bits.Len16(u)-1].head].At <= t {
			// p.next's usual answer, without the call: the head of its
			// highest priority has arrived
			ring = bits.Len16(u) - 1
			at, has = p.mbox[ring].buf[p.mbox[ring].head].At, true
		} else {
			ring, idx, fromInput, at, has = p.next(t)
		}
		if !has || at > t {
			// Nothing it can take yet: off the scheduler until it has.
			s.cur = nil
			rt.release(p, t)
			continue
		}
		rt.run(si, p, ring, idx, fromInput, t)
		n++
		if each != nil {
			each()
		}
		if n >= most || rt.now >= until {
			return n
		}
	}
}

func (rt *Runtime) run(si int, p *Process, ring, idx int, fromInput bool, t int64) {
	var m Msg
	if fromInput {
		p.input.popTo(&m)
	} else {
		// take it out of its mailbox and its weight out of the sums
		mb := &p.mbox[ring]
		if idx == 0 {
			mb.popTo(&m)
		} else {
			m = mb.removeAt(idx)
		}
		if mb.size == 0 {
			p.used &^= 1 << ring
		}
		if rt.weigh != nil {
			w := int64(m.w)
			if m.w == wideWeight {
				w = rt.weigh(m.P)
			}
			p.held -= w
			rt.held[p.Group] -= w
		}
	}
	if m.Ref != 0 && m.Ref == p.await {
		p.await = 0
	}
	rt.now = t
	c := &rt.ctx
	c.Self, c.Now, c.cost, c.proc = p.PID, t, 0, p
	p.Handler.Handle(c, m)
	cost := max(c.cost, 1)
	end := t + cost
	s := &rt.scheds[si]
	s.FreeAt = end
	s.Busy += cost
	reds := cost * ReductionsPerMicro
	s.left -= reds
	p.Reductions += reds
	p.Busy += cost
	p.Handled++
	rt.events++
	if end > rt.lastEnd {
		rt.lastEnd = end
	}
	for i := range rt.out {
		o := &rt.out[i]
		if rt.LinkDelay > 0 && !o.input && o.to > 0 && int(o.to) < len(rt.procs) && rt.procs[o.to].Group != p.Group {
			// across the distribution link to another node
			rt.sendAfter(end+rt.LinkDelay, o.to, o.msg)
		} else {
			o.msg.At = end
			rt.deliverRef(o.to, &o.msg, o.input)
		}
		o.msg.P = nil // the rest holds no pointer; the slot is written whole before it is read again
	}
	rt.out = rt.out[:0]
	if rt.Log != nil || rt.Observe != nil {
		e := Event{N: rt.events, Start: t, End: end, Sched: si, PID: p.PID, Kind: m.Kind, From: m.From, Input: fromInput}
		if rt.Log != nil {
			rt.Log.Add(&e)
		}
		if rt.Observe != nil {
			o := e // only an observed event escapes to the heap
			rt.Observe(&o)
		}
	}
	if p.state == Exited {
		s.cur = nil
		p.sched = -1
		return
	}
	if s.left <= 0 {
		// Preempted: back of the run queue.
		s.cur = nil
		rt.release(p, end)
	}
}

// AdvanceTo moves the clock forward while idle, firing no timers.
func (rt *Runtime) AdvanceTo(t int64) {
	if t > rt.now {
		rt.now = t
	}
}

// NewRef returns a fresh reference for a call.
func (rt *Runtime) NewRef() uint32 {
	rt.nextRef++
	if rt.nextRef == 0 {
		rt.nextRef = 1
	}
	return rt.nextRef
}

type runEntry struct {
	at  int64
	seq uint64
	p   *Process
}

type runQueue []runEntry

func (q runQueue) Len() int { return len(q) }

func (q runQueue) less(i, j int) bool {
	if q[i].at != q[j].at {
		return q[i].at < q[j].at
	}
	return q[i].seq < q[j].seq
}

func (q *runQueue) push(e runEntry) {
	*q = append(*q, e)
	h := *q
	for i := len(h) - 1; i > 0; {
		parent := (i - 1) / 2
		if !h.less(i, parent) {
			break
		}
		h[i], h[parent] = h[parent], h[i]
		i = parent
	}
}

func (q *runQueue) pop() runEntry {
	h := *q
	top := h[0]
	last := len(h) - 1
	h[0] = h[last]
	h[last] = runEntry{}
	h = h[:last]
	for i := 0; ; {
		l, r, m := 2*i+1, 2*i+2, i
		if l < len(h) && h.less(l, m) {
			m = l
		}
		if r < len(h) && h.less(r, m) {
			m = r
		}
		if m == i {
			break
		}
		h[i], h[m] = h[m], h[i]
		i = m
	}
	*q = h
	return top
}

// HasWork reports whether Step(limit) would do anything: run an event or
// fire a timer.
func (rt *Runtime) HasWork(limit int64) bool {
	return rt.hasWork(limit)
}

func (rt *Runtime) hasWork(limit int64) bool {
	if _, _, ok := rt.nextWork(); ok {
		return true
	}
	tt, has := rt.NextTimer()
	return has && (limit < 0 || tt <= limit)
}
