package engine

import (
	"fmt"
	"strconv"

	"warren/engine/beam"
	"warren/engine/node"
	"warren/engine/say"
)

// QuietWindow is how long the node must send the client nothing before a
// command counts as finished (the real-broker runner waits 150 ms).
const QuietWindow = 150_000 // µs

// Options configure a simulation. The zero value is a single-node RabbitMQ
// 3.10 with one scheduler.
type Options struct {
	Schedulers int
	// Record keeps every event (for the timeline, `step` and Describe);
	// benchmarks leave it off. The trace lines are kept either way (see
	// Transcript), unless DiscardTrace.
	Record bool
	// DiscardTrace keeps no client events (benchmarks).
	DiscardTrace bool
}

// Sim is one simulated node with its clients. Everything that changes it is
// recorded as an operation, so that any earlier event can be reached again
// by replaying from the start (Seek). It is four parts, which a seek treats
// each in one way, so that no list of fields has to be kept in step by
// hand:
//   - state, the simulated world, which a checkpoint copies whole
//     (clone.Copy walks every field, so one added later is copied too);
//   - history, what happened, which every state a seek makes shares and
//     no copy holds;
//   - running, the bounds of the command or seek running now, which a
//     seek starts afresh;
//   - settings, how the simulation is run and shown, which a seek keeps.
//
// Where the state must reach the history (the client writes the
// transcript, the runtime the event log), its fields are tagged
// clone:"-", and link joins them again after a copy.
type Sim struct {
	state
	history
	running
	settings
}

// state is the simulated world at one event.
type state struct {
	// cluster is the simulated broker: one node, or several (cluster
	// nodes=N); node is its first node, the one a single-node command
	// (restart, set version, show memory) acts on.
	cluster *node.Cluster
	node    *node.Node
	rt      *beam.Runtime
	client  *client
	applied int   // ops applied to this state (a prefix of ops)
	partial int64 // events of ops[applied] already run, when it was cut short
	metrics metrics
}

// history is what happened: the recorded operations and what they made.
type history struct {
	log        *beam.EventLog // the timeline's events (Options.Record)
	transcript *lineLog       // every trace line, with its event
	cps        checkpoints    // copies of the state along the timeline, for Seek
	marks      markerLog      // the timeline's markers (Options.Record)
	ops        []op           // every operation applied, in order
	furthest   int64          // the most events any replay of ops has reached
	// head is the state at the end of the timeline, put aside when a
	// seek left the end (nil: none, or the simulation is at the end): a
	// seek back to the end takes it up again instead of replaying to it
	// (head.go).
	head     *state
	said     map[string]say.Text // the sentences of lines printed lately (sayLine)
	explains map[string]say.Text // what the replies of lines printed lately mean (explainLine)
}

// running bounds what runs now.
type running struct {
	budget budget // the command running now (budget.go)
	// While replaying for Seek: run no event past stopAt; hitLimit says a
	// step was refused because of it.
	limiting bool
	stopAt   int64
	hitLimit bool
	printing showing // RunOptions.Most's bound (timeline.go)
	// While a seek replays: the event after which to keep its own copy
	// (0: none), and the events before the operation it replays began.
	nearAt, nearBefore int64
	// look bounds the goal being checked (cmd_expect.go)
	look look
}

// settings say how the simulation runs and is shown.
type settings struct {
	opts    Options
	summary bool // set trace=summary: fold long runs of deliveries and confirms
	// baseline is where the last command that ran events started (show
	// schedulers' utilisation)
	baseline baseline
	// budgetLimits replaces the default budgets (nil: the defaults).
	budgetLimits *limits
}

// New returns a fresh simulation.
func New(opts Options) *Sim {
	s := &Sim{
		state:    fresh(opts),
		history:  history{log: &beam.EventLog{}, transcript: &lineLog{}},
		settings: settings{opts: opts},
	}
	s.link()
	return s
}

// fresh is the state of a new simulation: a node with no clients yet.
func fresh(opts Options) state {
	cfg := node.DefaultConfig()
	if opts.Schedulers > 0 {
		cfg.Schedulers = opts.Schedulers
	}
	st := state{client: newClient()}
	st.cluster = node.New(cfg, st.client)
	st.node = st.cluster.First()
	st.rt = st.cluster.RT
	st.client.cluster = st.cluster
	st.client.rt = st.rt
	st.metrics.next = SampleInterval
	return st
}

// link joins the state to the history and the settings it does not hold
// (the fields tagged clone:"-"): after New, and after a seek puts a copy
// in place.
func (s *Sim) link() {
	s.client.lines = s.transcript
	s.client.discard = s.opts.DiscardTrace
	s.client.record = !s.opts.DiscardTrace // the transcript: for Transcript and expect
	if s.opts.Record {
		s.rt.Log = s.log
	}
	s.cluster.KeepNotices(s.opts.Record) // only a recorded run has markers
}

// baseline is where the last command that runs events started, for the
// utilisation `show schedulers` reports. (Not a marker: those are the
// timeline's, markers.go.)
type baseline struct {
	time     int64
	busy     []int64
	procBusy map[beam.PID]int64
	stats    node.Stats
}

// startBaseline takes the baseline at the start of a command.
func (s *Sim) startBaseline() {
	s.baseline.time = s.rt.Now()
	s.baseline.stats = s.cluster.Stats
	s.baseline.busy = s.baseline.busy[:0]
	for _, sc := range s.rt.Schedulers() {
		s.baseline.busy = append(s.baseline.busy, sc.Busy)
	}
	clear(s.baseline.procBusy)
	if s.baseline.procBusy == nil {
		s.baseline.procBusy = map[beam.PID]int64{}
	}
	for _, p := range s.rt.Processes() {
		if p.Busy > 0 {
			s.baseline.procBusy[p.PID] = p.Busy
		}
	}
}

// stepQuiet runs events for settling: work runs however late, limit
// bounds only the timers. It reports whether one ran.
func (s *Sim) stepQuiet(limit int64) bool { return s.steps(limit, false, max64) > 0 }

const max64 = 1<<63 - 1

// steps runs at least one event and at most most, as stepping one at a
// time does (bounded: limit bounds the work too, see beam.Runtime.Step),
// and returns how many ran (0: none could, or a budget or the replay
// limit refused the next). After the first, it runs the others in one go
// (beam.Runtime.Steps) as far as nothing between two events needs a look:
// no budget check, sample, checkpoint, seek copy or recorded event's
// markers is due before the last of them.
func (s *Sim) steps(limit int64, bounded bool, most int64) int64 {
	if s.overBudget() {
		return 0
	}
	if s.limiting && s.rt.Events() >= s.stopAt {
		if s.rt.HasWork(limit) {
			s.hitLimit = true
		}
		return 0
	}
	ran1 := false
	if bounded {
		ran1 = s.rt.Step(limit)
	} else {
		ran1 = s.rt.StepQuiet(limit)
	}
	if !ran1 {
		return 0
	}
	s.afterEach(true)
	ran := int64(1)
	if room := s.stepRoom(most - 1); room > 0 {
		var each func()
		if s.cps.recording {
			each = s.markLast // the markers of every recorded event
		}
		if k := s.rt.Steps(limit, bounded, room, s.metrics.next, each); k > 0 {
			ran += k
			s.afterEach(false)
		}
	}
	return ran
}

// stepRoom is how many more events may run before the simulation must
// look between two events, at most most: before the event at which the
// budget checks again, the replay limit, the event after which a seek
// keeps its copy or a checkpoint is taken.
func (s *Sim) stepRoom(most int64) int64 {
	if most <= 0 {
		return 0
	}
	n := s.rt.Events()
	room := most
	if c := &s.cps; c.recording {
		room = min(room, c.next-n)
	}
	if b := &s.budget; b.on {
		room = min(room, b.next-n)
	}
	if s.limiting {
		room = min(room, s.stopAt-n)
	}
	if s.nearAt > n {
		room = min(room, s.nearAt-n)
	}
	return room
}

// afterEach is what the simulation does after an event: sample the
// metrics when an interval is over, (mark) mark what the node told during
// a recorded event, or drop it unread when the event is not recorded, and
// take a checkpoint or a seek's copy when one is due: after the node's
// outbox is empty, so that no copy holds a notice twice.
func (s *Sim) afterEach(mark bool) {
	if s.rt.Now() >= s.metrics.next {
		s.sample()
	}
	if !s.cps.recording {
		s.dropNotices()
	} else if mark {
		s.markLast()
	}
	s.afterEvent()
	if s.nearAt != 0 && s.rt.Events() == s.nearAt {
		s.nearAt = 0
		s.takeNear(s.partial + s.rt.Events() - s.nearBefore)
	}
}

// EventSaid is the event's line as data: its English is the line
// Describe prints (#12 t=1.234ms sched=2 queue q1: deliver from channel
// c1.1 (3µs)), and a widget says it in another language from its keys,
// keeping RabbitMQ's names (the process, the Erlang message).
func (s *Sim) EventSaid(e *beam.Event) say.Text {
	var what any = node.KindName(e.Kind)
	if e.Input {
		what = say.T("engine.eventInput")
	} else if f := s.rt.Process(e.From); f != nil {
		what = say.S("engine.eventFrom", node.KindName(e.Kind), f.Name)
	}
	return say.T("engine.event", strconv.FormatInt(e.N, 10), formatTime(e.Start), strconv.Itoa(e.Sched+1), s.rt.Process(e.PID).Name, what, strconv.FormatInt(e.End-e.Start, 10))
}

// EventKind is the Erlang message an event handled, as the events list
// names it (node.KindName), and whether it was a frame off the socket.
func (s *Sim) EventKind(e *beam.Event) (string, bool) { return node.KindName(e.Kind), e.Input }

// Describe prints one event for the console and the widget's event list.
func (s *Sim) Describe(e *beam.Event) string { return s.EventSaid(e).String() }

func formatTime(us int64) string {
	return fmt.Sprintf("%d.%03dms", us/1000, us%1000)
}
