package beam

// TimerID names a pending timer so that it can be cancelled.
type TimerID uint64

type timer struct {
	at        int64
	id        TimerID
	to        PID
	msg       Msg
	cancelled bool
}

type timerHeap []*timer

func (h timerHeap) less(i, j int) bool {
	if h[i].at != h[j].at {
		return h[i].at < h[j].at
	}
	return h[i].id < h[j].id
}

func (h *timerHeap) push(t *timer) {
	*h = append(*h, t)
	q := *h
	for i := len(q) - 1; i > 0; {
		parent := (i - 1) / 2
		if !q.less(i, parent) {
			break
		}
		q[i], q[parent] = q[parent], q[i]
		i = parent
	}
}

func (h *timerHeap) pop() *timer {
	q := *h
	top := q[0]
	last := len(q) - 1
	q[0] = q[last]
	q[last] = nil
	q = q[:last]
	for i := 0; ; {
		l, r, m := 2*i+1, 2*i+2, i
		if l < len(q) && q.less(l, m) {
			m = l
		}
		if r < len(q) && q.less(r, m) {
			m = r
		}
		if m == i {
			break
		}
		q[i], q[m] = q[m], q[i]
		i = m
	}
	*h = q
	return top
}

// SendAfter schedules m for to at virtual time now+delay (µs).
func (rt *Runtime) sendAfter(at int64, to PID, m Msg) TimerID {
	rt.seq++
	t := &timer{at: at, id: TimerID(rt.seq), to: to, msg: m}
	rt.timers.push(t)
	if rt.timerIndex == nil {
		rt.timerIndex = map[TimerID]*timer{}
	}
	rt.timerIndex[t.id] = t
	return t.id
}

// CancelTimer cancels a pending timer; cancelling a fired or unknown timer
// does nothing.
func (rt *Runtime) CancelTimer(id TimerID) {
	if t, ok := rt.timerIndex[id]; ok {
		t.cancelled = true
		delete(rt.timerIndex, id)
	}
}

// PendingTimers is the number of timers not yet fired.
func (rt *Runtime) PendingTimers() int { return len(rt.timerIndex) }

func (rt *Runtime) dropCancelled() {
	for len(rt.timers) > 0 && rt.timers[0].cancelled {
		rt.timers.pop()
	}
}

// fire delivers the earliest timer's message at its time.
func (rt *Runtime) fire() {
	t := rt.timers.pop()
	delete(rt.timerIndex, t.id)
	if t.at > rt.now {
		rt.now = t.at
	}
	t.msg.At = t.at
	rt.deliver(t.to, t.msg, false)
}
