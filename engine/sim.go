package engine

import (
	"fmt"
	"strings"

	"warren/engine/node"
	"warren/engine/script"
	"warren/engine/sim"
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
// by replaying from the start (Seek).
type Sim struct {
	opts Options
	// cluster is the simulated broker: one node, or several (cluster
	// nodes=N); node is its first node, the one a single-node command
	// (restart, set version, show memory) acts on.
	cluster *node.Cluster
	node    *node.Node
	rt      *sim.Runtime
	client  *client
	log     *sim.EventLog // the timeline's events (Options.Record)

	ops      []op  // every operation applied, in order
	applied  int   // ops applied to the current state (a prefix of ops)
	partial  int64 // events of ops[applied] already run, when it was cut short
	furthest int64 // the most events any replay of ops has reached
	// While replaying for Seek: run no event past stopAt; hitLimit says a
	// step was refused because of it.
	mark mark
	// restartErr is a storage failure while restarting, reported by show files.
	restartErr error
	metrics    metrics
	summary    bool // set trace=summary: fold long runs of deliveries and confirms
	limiting   bool
	stopAt     int64
	hitLimit   bool
}

// New returns a fresh simulation.
func New(opts Options) *Sim {
	s := &Sim{opts: opts, client: newClient(), log: &sim.EventLog{}}
	cfg := node.DefaultConfig()
	if opts.Schedulers > 0 {
		cfg.Schedulers = opts.Schedulers
	}
	s.cluster = node.New(cfg, s.client)
	s.node = s.cluster.First()
	s.rt = s.cluster.RT
	s.client.cluster = s.cluster
	s.client.discard = opts.DiscardTrace
	s.client.rt = s.rt
	s.client.record = !opts.DiscardTrace // the transcript: for Transcript and expect
	s.metrics.next = SampleInterval
	s.observe()
	return s
}

func (s *Sim) observe() {
	if s.opts.Record {
		s.rt.Log = s.log
	}
}

// Cluster exposes the simulated broker for inspection.
func (s *Sim) Cluster() *node.Cluster { return s.cluster }

// Runtime exposes the process runtime for inspection.
func (s *Sim) Runtime() *sim.Runtime { return s.rt }

// Exec runs one command until the node is quiet and returns the lines the
// client observed, in trace order. A refused command returns one
// `error: ...` line and leaves the simulation unchanged.
func (s *Sim) Exec(cmd script.Command) []string {
	out, err := s.exec(cmd, true)
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

// Submit hands a command to the node without running it: a client
// command's frames wait in the socket until the node is stepped. Commands
// that only look (show) answer at once; the others run as in Exec.
func (s *Sim) Submit(line string) ([]string, error) {
	cmd, err := script.ParseLine(line, 0)
	if err != nil {
		return nil, err
	}
	return s.exec(cmd, false)
}

func (s *Sim) exec(cmd script.Command, settle bool) ([]string, error) {
	if err := s.check(cmd); err != nil {
		return nil, err
	}
	if cmd.Name == "show" || cmd.Name == "expect" {
		return s.control(cmd)
	}
	if cmd.Name == "submit" {
		cmd, settle = *cmd.Inner, false
	}
	s.branch()
	s.markStart()
	var pre []string
	switch cmd.Name {
	case "step", "run", "set", "alarm", "restart", "cluster", "connect":
		return s.control(cmd)
	case "set_policy", "clear_policy", "list_queues", "list_policies", "crash", "stop_app", "start_app":
		pre = s.apply(op{kind: opOperator, cmd: cmd})
		s.apply(op{kind: opSettle, t: s.rt.Now()})
	case "wait":
		target := s.rt.Now() + cmd.Int("ms", 0)*1000
		s.apply(op{kind: opRunUntil, t: target})
		s.apply(op{kind: opSettle, t: target})
	default:
		start := s.rt.Now()
		s.apply(op{kind: opSubmit, cmd: cmd})
		if !settle {
			return nil, nil
		}
		s.apply(op{kind: opSettle, t: start})
	}
	return append(pre, s.lines()...), nil
}

// mark is where the last command that runs events started, for the
// utilisation `show schedulers` reports.
type mark struct {
	time     int64
	busy     []int64
	procBusy map[sim.PID]int64
	stats    node.Stats
}

func (s *Sim) markStart() {
	s.mark.time = s.rt.Now()
	s.mark.stats = s.cluster.Stats
	s.mark.busy = s.mark.busy[:0]
	for _, sc := range s.rt.Schedulers() {
		s.mark.busy = append(s.mark.busy, sc.Busy)
	}
	clear(s.mark.procBusy)
	if s.mark.procBusy == nil {
		s.mark.procBusy = map[sim.PID]int64{}
	}
	for _, p := range s.rt.Processes() {
		if p.Busy > 0 {
			s.mark.procBusy[p.PID] = p.Busy
		}
	}
}

// check refuses what cannot be done, before anything changes.
func (s *Sim) check(cmd script.Command) error {
	if c := cmd; c.Name == "submit" && c.Inner != nil {
		cmd = *c.Inner
	}
	// a client command (an AMQP method) needs its connection's node running
	if strings.Contains(cmd.Name, ".") && cmd.Name != "connection.close" && cmd.Name != "channel.close" {
		if err := s.cluster.CheckConnOpen(cmd.On().Conn); err != nil {
			return fmt.Errorf("%s: %w", cmd.Name, err)
		}
	}
	switch cmd.Name {
	// rabbitmqctl's own refusals: the node is not touched
	case "set_policy":
		if err := node.CheckPolicy(cmd.Str("pattern", ""), cmd.Table()); err != nil {
			return err
		}
	case "clear_policy":
		if !s.cluster.HasPolicy(cmd.Str("name", "")) {
			return node.ErrNoPolicy
		}
	case "crash":
		if err := s.cluster.CheckCrash(cmd.Str("queue", "")); err != nil {
			return err
		}
	case "stop_app", "start_app":
		if _, err := s.cluster.Member(cmd.Str("node", "")); err != nil {
			return fmt.Errorf("%s: %w", cmd.Name, err)
		}
		if err := s.cluster.CheckApp(cmd.Name); err != nil {
			return err
		}
	case "cluster":
		if err := s.cluster.CheckCluster(int(cmd.Int("nodes", 2)), int(cmd.Int("ram", 0))); err != nil {
			return err
		}
		if !s.untouched() {
			return fmt.Errorf("cluster: the cluster is formed before anything happens: start a new simulation with cluster nodes=%d first", cmd.Int("nodes", 2))
		}
	case "connect":
		m, err := s.cluster.Member(cmd.Str("node", ""))
		if err != nil {
			return fmt.Errorf("connect: %w", err)
		}
		if err := s.cluster.CheckConnectTo(cmd.On().Conn, m); err != nil {
			return err
		}
	case "set":
		return s.checkSet(cmd)
	}
	return nil
}

// checkSet refuses the settings that can only be chosen at the start.
func (s *Sim) checkSet(cmd script.Command) error {
	if cmd.Has("version") && !s.untouched() {
		return fmt.Errorf("set: the version profile is chosen before anything happens: start a new simulation with set version=%s first", cmd.Str("version", ""))
	}
	if (cmd.Has("file-size-limit") || cmd.Has("version")) && s.node.HasFiles() {
		return fmt.Errorf("set: the message store's file size and the version profile are chosen before any durable queue writes files: set them first")
	}
	if len(s.cluster.Members()) > 1 && (cmd.Has("schedulers") || cmd.Has("version") || cmd.Has("file-size-limit")) {
		return fmt.Errorf("set: schedulers, the version profile and the file size are chosen before the cluster is formed (every node gets the same)")
	}
	if cmd.Has("schedulers") && s.busyOnScheduler() {
		return fmt.Errorf("set: schedulers can only change while no process is running; run until quiet first")
	}
	return nil
}

// untouched says that nothing has happened yet: no event ran and no queue
// exists.
func (s *Sim) untouched() bool {
	return s.rt.Events() == 0 && len(s.cluster.QueueNames()) == 0
}

func (s *Sim) busyOnScheduler() bool {
	for _, sc := range s.rt.Schedulers() {
		if sc.Current() != nil {
			return true
		}
	}
	return false
}

// step runs one event, bounded by virtual time limit, if the replay limit
// allows it.
func (s *Sim) step(limit int64) bool { return s.stepMode(limit, true) }

// stepQuiet runs one event for settling: work runs however late, limit
// bounds only the timers.
func (s *Sim) stepQuiet(limit int64) bool { return s.stepMode(limit, false) }

func (s *Sim) stepMode(limit int64, bounded bool) bool {
	if s.limiting && s.rt.Events() >= s.stopAt {
		if s.rt.HasWork(limit) {
			s.hitLimit = true
		}
		return false
	}
	ran := false
	if bounded {
		ran = s.rt.Step(limit)
	} else {
		ran = s.rt.StepQuiet(limit)
	}
	if !ran {
		return false
	}
	if s.rt.Now() >= s.metrics.next {
		s.sample()
	}
	return true
}

// Describe prints one event for the console and the widget's event list.
func (s *Sim) Describe(e *sim.Event) string {
	p := s.rt.Process(e.PID)
	from := ""
	if f := s.rt.Process(e.From); f != nil {
		from = " from " + f.Name
	}
	what := node.KindName(e.Kind)
	if e.Input {
		what = "frame from client"
		from = ""
	}
	return fmt.Sprintf("#%d t=%s sched=%d %s: %s%s (%dµs)", e.N, formatTime(e.Start), e.Sched+1, p.Name, what, from, e.End-e.Start)
}

func formatTime(us int64) string {
	return fmt.Sprintf("%d.%03dms", us/1000, us%1000)
}
