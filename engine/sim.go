package engine

import (
	"fmt"
	"strings"

	"warren/engine/node"
	"warren/engine/script"
	"warren/engine/sim"
	"warren/engine/trace"
)

// QuietWindow is how long the node must send the client nothing before a
// command counts as finished (the real-broker runner waits 150 ms).
const QuietWindow = 150_000 // µs

// Options configure a simulation. The zero value is a single-node RabbitMQ
// 3.10 with one scheduler.
type Options struct {
	Schedulers int
	// Record keeps a description of every event (for the timeline and
	// `step`); benchmarks leave it off.
	Record bool
	// DiscardTrace keeps no client events (benchmarks).
	DiscardTrace bool
}

// Sim is one simulated node with its clients.
type Sim struct {
	opts   Options
	node   *node.Node
	rt     *sim.Runtime
	client *client
	// history is every accepted command with the event count at which it
	// was submitted: replaying it rebuilds any earlier state.
	history []submitted
	events  []sim.Event
}

type submitted struct {
	at  int64 // event count when the command was submitted
	cmd script.Command
}

// New returns a fresh simulation.
func New(opts Options) *Sim {
	s := &Sim{opts: opts, client: newClient()}
	cfg := node.DefaultConfig()
	if opts.Schedulers > 0 {
		cfg.Schedulers = opts.Schedulers
	}
	s.node = node.New(cfg, s.client)
	s.client.node = s.node
	s.client.discard = opts.DiscardTrace
	s.rt = s.node.RT
	if opts.Record {
		s.rt.Observe = func(e *sim.Event) { s.events = append(s.events, *e) }
	}
	return s
}

// Node exposes the simulated node for inspection.
func (s *Sim) Node() *node.Node { return s.node }

// Runtime exposes the process runtime for inspection.
func (s *Sim) Runtime() *sim.Runtime { return s.rt }

// Exec runs one command until the node is quiet and returns the lines the
// client observed, in trace order. A refused command returns one
// `error: ...` line and leaves the simulation unchanged.
func (s *Sim) Exec(cmd script.Command) []string {
	out, err := s.run(cmd)
	if err != nil {
		return []string{"error: " + err.Error()}
	}
	return out
}

// ExecLine parses and runs one console line.
func (s *Sim) ExecLine(line string) []string {
	cmd, err := script.ParseLine(line, 0)
	if err != nil {
		return []string{"error: " + err.Error()}
	}
	return s.Exec(cmd)
}

func (s *Sim) run(cmd script.Command) ([]string, error) {
	if err := s.check(cmd); err != nil {
		return nil, err
	}
	s.history = append(s.history, submitted{at: s.rt.Events(), cmd: cmd})
	var pre []string
	switch cmd.Name {
	case "step", "run", "show", "set", "alarm":
		return s.control(cmd)
	case "set_policy", "clear_policy", "list_queues":
		pre = s.operator(cmd)
		s.settle(s.rt.Now())
	case "wait":
		target := s.rt.Now() + cmd.Int("ms", 0)*1000
		s.runUntil(target)
		s.settle(target)
	default:
		start := s.rt.Now()
		s.submit(cmd)
		s.settle(start)
	}
	return append(pre, trace.Lines(s.client.take())...), nil
}

// runUntil runs every event and timer up to virtual time t.
func (s *Sim) runUntil(t int64) {
	for s.rt.Step(t) {
	}
	s.rt.AdvanceTo(t)
}

// settle runs until the node is quiet: nothing runnable, and no frame to
// the client for QuietWindow after the later of from and the last frame.
func (s *Sim) settle(from int64) {
	for {
		last := max(from, s.client.lastFrame)
		if !s.rt.Step(last + QuietWindow) {
			s.rt.AdvanceTo(max(s.rt.Now(), last+QuietWindow))
			return
		}
	}
}

// check refuses what cannot be done before anything changes.
func (s *Sim) check(cmd script.Command) error {
	switch cmd.Name {
	case "basic.publish":
		if cmd.Has("count") && cmd.Int("count", 1) > 1 && cmd.Has("body") && !strings.Contains(cmd.Str("body", ""), "{i}") {
			return nil
		}
	}
	return nil
}

// Events returns the recorded events (Options.Record).
func (s *Sim) Events() []sim.Event { return s.events }

// Describe prints one event for the console and the widget's event list.
func (s *Sim) Describe(e *sim.Event) string {
	p := s.rt.Process(e.PID)
	from := ""
	if f := s.rt.Process(e.From); f != nil {
		from = " from " + f.Name
	}
	what := node.KindName(e.Kind)
	if e.Input {
		what = "frame"
	}
	return fmt.Sprintf("#%d t=%s sched=%d %s: %s%s (%dµs)", e.N, formatTime(e.Start), e.Sched+1, p.Name, what, from, e.End-e.Start)
}

func formatTime(us int64) string {
	return fmt.Sprintf("%d.%03dms", us/1000, us%1000)
}
