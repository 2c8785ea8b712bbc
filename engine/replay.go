package engine

import (
	"warren/engine/say"
	"warren/engine/script"
)

type opKind uint8

const (
	opCommand  opKind = iota // a command's handler applies it (cmd)
	opSettle                 // run until quiet (t: when the command was sent)
	opRunUntil               // run to virtual time t
	opSteps                  // run n events
)

// op is one recorded operation on the simulation.
type op struct {
	kind opKind
	cmd  script.Command
	t    int64
	n    int64
}

// apply runs an operation and records it. It returns what a command's
// handler printed and the error it met while applying it.
func (s *Sim) apply(o op) ([]string, error) {
	before := s.rt.Events()
	s.dropNotices() // a seek's replay may have left some: they are marked
	s.recordOp(o.kind != opCommand)
	out, err, _ := s.run(o)
	s.recordOp(false)
	if s.budget.stop.Key != "" && o.kind != opCommand {
		// the budget cut it short: what ran is what a replay runs
		o = op{kind: opSteps, n: s.rt.Events() - before}
	}
	if s.opts.Record {
		s.markNode()
	}
	s.ops = append(s.ops, o)
	s.applied = len(s.ops)
	s.furthest = max(s.furthest, s.rt.Events())
	return out, err
}

// run performs an operation; done is false if the replay limit stopped it.
func (s *Sim) run(o op) (out []string, err error, done bool) {
	switch o.kind {
	case opCommand:
		out, err = s.applyCommand(o.cmd)
	case opSettle:
		for {
			last := max(o.t, s.client.lastFrame)
			limit := last + QuietWindow
			if until, held := s.cluster.ClientHeldUntil(); held {
				limit = max(limit, until)
			}
			if !s.stepQuiet(limit) {
				if s.hitLimit {
					return nil, nil, false
				}
				if s.budget.stop.Key != "" {
					break // it stops where it is
				}
				s.rt.AdvanceTo(max(s.rt.Now(), last+QuietWindow))
				s.sample()
				break
			}
		}
	case opRunUntil:
		for s.steps(o.t, true, max64) > 0 {
		}
		if s.hitLimit {
			return nil, nil, false
		}
		if s.budget.stop.Key != "" {
			break // it stops where it is
		}
		s.rt.AdvanceTo(o.t)
		s.sample()
	case opSteps:
		for i := int64(0); i < o.n; {
			k := s.steps(-1, true, o.n-i)
			if k == 0 {
				return nil, nil, !s.hitLimit
			}
			i += k
		}
	}
	return out, err, true
}

// branch makes the current state the end of history before something new
// happens: after a seek back, what came later is dropped.
func (s *Sim) branch() {
	if s.applied == len(s.ops) && s.partial == 0 {
		return
	}
	keep := s.ops[:s.applied:s.applied]
	if s.partial > 0 {
		keep = append(keep, op{kind: opSteps, n: s.partial})
	}
	s.ops = keep
	s.applied = len(keep)
	s.head = nil // the end it held is dropped
	s.partial = 0
	s.furthest = s.rt.Events()
	// what the dropped history recorded goes with it
	s.log.Truncate(s.furthest)
	s.transcript.truncate(s.furthest)
	s.cps.dropAfter(s.furthest)
	s.resetMarkers()
}

// Furthest is the number of events of the longest history recorded: the
// end of the timeline.
func (s *Sim) Furthest() int64 { return max(s.furthest, s.rt.Events()) }

// SeekEvent puts the simulation in the state it had right after event n:
// from a copy of the nearest checkpoint at or before n (see checkpoint.go),
// or from the current state when that is nearer, or from the start, it
// replays the recorded operations up to n. History after n is kept until
// something new is done, so a later SeekEvent can go forward again.
// Seeking to the end replays everything, operations after the last event
// included.
//
// The events and trace lines of the whole timeline are kept from the first
// time they ran (a replay produces the same ones), so a replay records
// nothing.
//
// A seek is inside the budgets of a command: it replays at most a
// command's events, and under a time budget (SetTimeBudget) it stops once
// it has replayed TimeBudgetFloor events and taken that long. A seek that
// stops leaves the simulation at the event it reached, a state of the
// timeline like any other, and says where in its error (a *SeekStopped):
// seeking again goes on from there.
func (s *Sim) SeekEvent(n int64) error {
	return s.seekWithin(n, s.deadline())
}

// SeekStopped is the error of a seek that a budget stopped at event At,
// short of the event it was asked for.
type SeekStopped struct {
	At, Want, Replayed int64
	err                error
}

func (e *SeekStopped) Error() string { return e.err.Error() }

// Said is the stop as a sentence.
func (e *SeekStopped) Said() say.Text { return say.Of(e.err) }

// seekWithin is SeekEvent under a time budget that ends at deadline
// (now's units, 0: none), which a scan that seeks shares.
func (s *Sim) seekWithin(n, deadline int64) error {
	end := s.Furthest()
	if n < 0 || n > end {
		return say.E("con.seekOutside", i64(n), i64(end))
	}
	cur := s.rt.Events()
	if n == end && s.head != nil {
		s.takeHead()
		return nil
	}
	s.dropLargeHead()
	cp := s.cps.nearest(n)
	if n >= cur && !(n == cur && n < end) && (cp == nil || cp.at <= cur) {
		return s.forward(n, end, deadline)
	}
	s.parkHead()
	if cp != nil {
		if err := s.restore(cp); err != nil {
			return say.Wrap("con.named", err, "seek")
		}
	} else {
		s.replaceState(fresh(s.opts))
	}
	return s.forward(n, end, deadline)
}

// StepBack puts the simulation in the state it had one event earlier.
func (s *Sim) StepBack() error {
	n := s.rt.Events()
	if n == 0 {
		return say.E("con.stepBackStart")
	}
	return s.SeekEvent(n - 1)
}

// forward runs the recorded operations on from the current state up to
// event n, without recording what is already recorded. It replays
// seekChunkEvents events at a time, looking at the budgets between two chunks
// (deadline as in seekWithin): one that is spent stops it where it is,
// with a *SeekStopped.
func (s *Sim) forward(n, end, deadline int64) error {
	discard, record, log := s.client.discard, s.client.record, s.rt.Log
	s.client.discard, s.client.record, s.rt.Log = true, false, nil
	start, most := s.rt.Events(), s.limits().seek
	var stopped *SeekStopped
	// a copy a little before n, unless one is already as near
	s.nearAt = 0
	if cp := s.cps.nearest(n); s.opts.Record && n-nearGap > s.rt.Events() && (cp == nil || cp.at < n-nearGap) {
		s.nearAt = n - nearGap
	}
	s.seekChunk(n, end)
	for s.applied < len(s.ops) {
		o := s.ops[s.applied]
		if s.partial > 0 && o.kind == opSteps {
			o.n -= s.partial
		}
		before := s.rt.Events()
		s.nearBefore = before
		if _, _, done := s.run(o); !done {
			s.partial += s.rt.Events() - before
			if s.stopAt >= n {
				break
			}
			// the end of a chunk: go on if the budgets allow
			replayed := s.rt.Events() - start
			at := s.rt.Events()
			switch {
			case replayed >= most:
				stopped = &SeekStopped{At: at, Want: n, Replayed: replayed,
					err: say.E("con.seekStopEvents", i64(at), i64(n), thousands(replayed))}
			case deadline != 0 && replayed >= TimeBudgetFloor && s.now() > deadline:
				stopped = &SeekStopped{At: at, Want: n, Replayed: replayed,
					err: say.E("con.seekStopTime", i64(at), i64(n), thousands(replayed), s.limits().wall.String())}
			}
			if stopped != nil {
				break
			}
			s.hitLimit = false
			s.seekChunk(n, end)
			continue
		}
		s.applied++
		s.partial = 0
	}
	s.client.take()
	s.client.discard, s.client.record, s.rt.Log = discard, record, log
	s.limiting, s.hitLimit, s.nearAt = false, false, 0
	if stopped != nil {
		return stopped
	}
	return nil
}

// seekChunkEvents is how many events a seek replays between two looks at
// its budgets.
const seekChunkEvents = timeCheckEvery

// seekChunk sets the replay limit of the next chunk of a seek to event n.
func (s *Sim) seekChunk(n, end int64) {
	s.limiting, s.stopAt = n < end, n
	if next := s.rt.Events() + seekChunkEvents; next < n {
		s.limiting, s.stopAt = true, next
	}
}

// Step runs up to n events (firing timers as needed) and returns how many
// ran; fewer than n means the node went idle with no timer left.
func (s *Sim) Step(n int64) int64 {
	s.branch()
	before := s.rt.Events()
	s.startBudget()
	s.apply(op{kind: opSteps, n: n})
	s.endBudget(nil, nil)
	return s.rt.Events() - before
}
