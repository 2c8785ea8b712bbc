package engine

// The simulation-control commands: running the clock (step, run, wait),
// the settings (set), forming a cluster and placing connections on its
// nodes, restarting the node and raising alarms.

import (
	"fmt"
	"strings"

	"warren/engine/node"
	"warren/engine/say"
	"warren/engine/script"
)

// controlCommands run the clock and change the simulation's settings.
var controlCommands = []command{
	{"step", handler{family: familyControl, run: step}},
	{"run", handler{family: familyControl, run: run}},
	{"wait", handler{family: familyControl, run: func(s *Sim, cmd script.Command, _ bool) ([]string, error) {
		target := s.rt.Now() + cmd.Int("ms", 0)*1000
		s.apply(op{kind: opRunUntil, t: target})
		s.apply(op{kind: opSettle, t: target})
		return s.lines(), nil
	}}},
	{"set", handler{family: familyControl, check: checkSet, apply: set}},
	{"cluster", handler{family: familyControl, check: checkCluster, apply: cluster}},
	{"connect", handler{family: familyControl,
		check: func(s *Sim, cmd script.Command) error {
			m, err := s.cluster.Member(cmd.Str("node", ""))
			if err != nil {
				return say.Wrap("con.named", err, "connect")
			}
			return s.cluster.CheckConnectTo(cmd.On().Conn, m)
		},
		apply: func(s *Sim, cmd script.Command) ([]string, error) {
			m, err := s.cluster.Member(cmd.Str("node", ""))
			if err != nil {
				return nil, err
			}
			return nil, s.cluster.ConnectTo(cmd.On().Conn, m)
		}}},
	{"restart", handler{family: familyControl,
		check: func(s *Sim, _ script.Command) error { return s.node.CheckRestart() },
		apply: func(s *Sim, cmd script.Command) ([]string, error) {
			return nil, s.node.Restart(cmd.Str("kind", "clean"))
		},
		run: settled}},
	{"fault", handler{family: familyControl, check: checkFault, apply: func(s *Sim, cmd script.Command) ([]string, error) {
		m, err := s.cluster.Member(cmd.Str("node", "1"))
		if err != nil {
			return nil, err
		}
		return nil, m.SetFault(cmd.Words()[0], cmd.Str("path", ""))
	}}},
	{"alarm", handler{family: familyControl,
		apply: func(s *Sim, cmd script.Command) ([]string, error) {
			if r := cmd.Str("set", ""); r != "" {
				s.cluster.SetAlarm(r, true)
			}
			if r := cmd.Str("clear", ""); r != "" {
				s.cluster.SetAlarm(r, false)
			}
			return nil, nil
		},
		run: settled}},
}

// settled applies a command and runs until the node is quiet.
func settled(s *Sim, cmd script.Command, _ bool) ([]string, error) {
	if _, err := s.record(cmd); err != nil {
		return nil, err
	}
	s.apply(op{kind: opSettle, t: s.rt.Now()})
	return s.lines(), nil
}

// step runs n events and describes them (or counts them, unrecorded).
func step(s *Sim, cmd script.Command, _ bool) ([]string, error) {
	var out []string
	n := cmd.Int("n", 1)
	before := s.rt.Events()
	s.apply(op{kind: opSteps, n: n})
	ran := s.rt.Events() - before
	if s.opts.Record {
		for i := before + 1; i <= s.EventCount(); i++ {
			e := s.Event(i)
			out = append(out, s.sayLine(s.EventSaid(&e)))
		}
	} else {
		out = append(out, fmt.Sprintf("ran %d events", ran))
	}
	if ran < n {
		out = append(out, s.sayLine(say.T("con.show.idle")))
	}
	return append(out, s.lines()...), nil
}

// run runs for ms=N of virtual time, for events=N, or until quiet.
func run(s *Sim, cmd script.Command, _ bool) ([]string, error) {
	switch {
	case cmd.Has("ms"):
		s.apply(op{kind: opRunUntil, t: s.rt.Now() + cmd.Int("ms", 0)*1000})
	case cmd.Has("events"):
		s.apply(op{kind: opSteps, n: cmd.Int("events", 1)})
	default:
		s.apply(op{kind: opSettle, t: s.rt.Now()})
	}
	return append([]string{"t=" + formatTime(s.rt.Now()) + " events=" + i64(s.rt.Events())}, s.lines()...), nil
}

// checkSet refuses the settings that can only be chosen at the start.
func checkSet(s *Sim, cmd script.Command) error {
	if cmd.Has("version") && !s.untouched() {
		return say.E("con.setVersionFirst", cmd.Str("version", ""))
	}
	if (cmd.Has("file-size-limit") || cmd.Has("version")) && s.node.HasFiles() {
		return say.E("con.setBeforeFiles")
	}
	if len(s.cluster.Members()) > 1 && (cmd.Has("schedulers") || cmd.Has("version") || cmd.Has("file-size-limit")) {
		return say.E("con.setBeforeCluster")
	}
	if cmd.Has("schedulers") && s.busyOnScheduler() {
		return say.E("con.setSchedRunning")
	}
	return nil
}

func set(s *Sim, cmd script.Command) ([]string, error) {
	if cmd.Has("version") {
		s.node.Config.Version = cmd.Str("version", "3.10")
	}
	if cmd.Has("file-size-limit") {
		s.node.Config.FileSizeLimit = cmd.Int("file-size-limit", 0)
	}
	if cmd.Has("version") || cmd.Has("file-size-limit") {
		s.node.ReopenDisk()
	}
	if cmd.Has("schedulers") {
		s.rt.SetSchedulers(int(cmd.Int("schedulers", 1)))
	}
	for _, m := range s.cluster.Members() {
		if cmd.Has("watermark") {
			m.Config.Watermark = cmd.Int("watermark", 0)
			m.StartMemoryMonitor()
		}
		if cmd.Has("memory-per-message") {
			m.Config.MemoryPerMessage = cmd.Int("memory-per-message", 0)
		}
		if cmd.Has("consumer-timeout") {
			m.Config.ConsumerTimeout = cmd.Int("consumer-timeout", 0)
		}
	}
	if cmd.Has("trace") {
		s.summary = cmd.Str("trace", "full") == "summary"
	}
	if cmd.Has("queue-master-locator") {
		s.cluster.SetLocator(cmd.Str("queue-master-locator", "client-local"))
	}
	return nil, nil
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

func checkCluster(s *Sim, cmd script.Command) error {
	if err := s.cluster.CheckCluster(int(cmd.Int("nodes", 2)), int(cmd.Int("ram", 0))); err != nil {
		return err
	}
	if !s.untouched() {
		return say.E("con.clusterFirst", i64(cmd.Int("nodes", 2)))
	}
	return nil
}

// cluster joins more nodes to the first; a failure (a new node's disk
// could not be opened) is this command's error.
func cluster(s *Sim, cmd script.Command) ([]string, error) {
	link := int64(node.DefaultLinkDelay)
	if cmd.Has("link-us") {
		link = cmd.Int("link-us", 0)
	}
	return nil, s.cluster.AddNodes(int(cmd.Int("nodes", 2))-1, int(cmd.Int("ram", 0)), link)
}

// checkFault refuses a fault that names no single fault, a node that is
// not there, or files the simulation cannot fault.
func checkFault(s *Sim, cmd script.Command) error {
	words := cmd.Words()
	if len(words) != 1 {
		return say.E("con.faultName", strings.Join(script.FaultWords, ", "))
	}
	m, err := s.cluster.Member(cmd.Str("node", "1"))
	if err != nil {
		return say.Wrap("con.named", err, "fault")
	}
	if words[0] == "clear" && cmd.Has("path") {
		return say.E("con.faultClearPath")
	}
	return m.CheckFault(words[0], cmd.Str("path", ""))
}
