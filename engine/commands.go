package engine

// The table of commands: every command of the language (engine/script's
// specs) has one handler here, found by its name. A handler checks the
// command against the simulation as it is, changing nothing, and then
// applies it. The handlers live in files by family: cmd_client.go (AMQP
// methods), cmd_operator.go (rabbitmqctl), cmd_control.go (the clock, the
// settings, the cluster, restarts, alarms, faults), cmd_show.go (views) and
// cmd_expect.go (goals).

import (
	"warren/engine/say"
	"warren/engine/script"
	"warren/engine/trace"
)

// family is the kind of a command: it says how the command plays out once
// checked.
type family uint8

const (
	// familyClient: an AMQP method. Its frames go into the connection's
	// socket, and the simulation runs until the node is quiet.
	familyClient family = iota
	// familyOperator: a rabbitmqctl command. It acts at once and prints
	// its lines first; then the simulation runs until quiet.
	familyOperator
	// familyControl: simulation control. It runs the clock or changes the
	// simulation's settings, as its run says.
	familyControl
	// familyShow: a view. It prints and changes nothing.
	familyShow
	// familyExpect: a goal. It checks and changes nothing.
	familyExpect
)

// handler carries out one command.
type handler struct {
	family family
	// check refuses what cannot be done now, before anything changes (the
	// parser has checked each argument already); nil refuses nothing.
	check func(s *Sim, cmd script.Command) error
	// apply makes the change the command stands for. It runs as a recorded
	// operation (see record), so that a seek replays it, and returns the
	// lines it prints. nil for a command that only runs the clock or looks.
	apply func(s *Sim, cmd script.Command) ([]string, error)
	// run plays the checked command out: it records the operations (apply
	// through record, settling, running the clock) and returns the lines
	// the command prints. settle false leaves a client command's frames in
	// the socket (submit). nil: the family's way (see runFamily).
	run func(s *Sim, cmd script.Command, settle bool) ([]string, error)
}

// command is one entry of a family's table: a spec name and its handler.
type command struct {
	name string
	handler
}

// families lists every family's table, for the lookup and for the test
// that every command has exactly one handler. NB: the tables are slices,
// not maps, so that the linker lays them out as data: map literals would
// cost the browser build their init code.
var families = [][]command{clientCommands, operatorCommands, listCommands, definitionCommands, controlCommands, showCommands, expectCommands}

// commands finds a command's handler by its spec name.
var commands map[string]handler

// NB: the table is built in init, not in its declaration: the handlers
// refer back to it (a replayed operation finds its handler here), which
// a variable's initializer may not.
func init() {
	commands = map[string]handler{}
	for _, f := range families {
		for _, c := range f {
			commands[c.name] = c.handler
		}
	}
}

// handlerOf returns the handler of a parsed command.
func handlerOf(cmd script.Command) (handler, error) {
	h, ok := commands[cmd.Name]
	if !ok {
		return handler{}, say.E("con.noHandler", cmd.Name)
	}
	return h, nil
}

func (s *Sim) exec(cmd script.Command, settle bool) ([]string, error) {
	if cmd.Name == "submit" && cmd.Inner != nil {
		cmd, settle = *cmd.Inner, false
	}
	h, err := handlerOf(cmd)
	if err != nil {
		return nil, err
	}
	if h.check != nil {
		if err := h.check(s, cmd); err != nil {
			return nil, err
		}
	}
	if h.family == familyShow || h.family == familyExpect {
		return h.run(s, cmd, settle)
	}
	if err := s.checkBudget(cmd); err != nil {
		return nil, err
	}
	if err := s.tryFirst(h, cmd); err != nil {
		return nil, err
	}
	s.branch()
	s.startBaseline()
	s.startBudget()
	if h.run != nil {
		return s.endBudget(h.run(s, cmd, settle))
	}
	return s.endBudget(s.runFamily(h.family, cmd, settle))
}

// runFamily plays out a command that has no run of its own.
func (s *Sim) runFamily(f family, cmd script.Command, settle bool) ([]string, error) {
	switch f {
	case familyClient:
		start := s.rt.Now()
		s.record(cmd)
		if !settle {
			return nil, nil
		}
		s.apply(op{kind: opSettle, t: start})
		return s.lines(), nil
	case familyOperator:
		// a failure while acting (not a refusal: check refuses) is the
		// command's output, and what it did stays done
		pre, err := s.record(cmd)
		if err != nil {
			pre = []string{s.sayError(err)}
		}
		s.apply(op{kind: opSettle, t: s.rt.Now()})
		return append(pre, s.lines()...), nil
	}
	out, err := s.record(cmd)
	if err != nil {
		return nil, err
	}
	return append(out, s.lines()...), nil
}

// record applies a command as a recorded operation.
func (s *Sim) record(cmd script.Command) ([]string, error) {
	return s.apply(op{kind: opCommand, cmd: cmd})
}

// applyCommand is what a recorded command does, first time and replayed.
func (s *Sim) applyCommand(cmd script.Command) ([]string, error) {
	h, err := handlerOf(cmd)
	if err != nil {
		return nil, err
	}
	if h.apply == nil {
		return nil, nil
	}
	return h.apply(s, cmd)
}

// lines prints the client events observed since the last call.
func (s *Sim) lines() []string {
	ev := s.client.take()
	if len(ev) == 0 {
		return nil
	}
	defer s.client.recycle(ev)
	s.explainTrace(ev)
	if s.summary {
		return trace.Summary(joined(ev))
	}
	if len(ev) > 1 && inOutputOrder(ev) {
		return s.printing.ordered(ev)
	}
	if s.printing.on {
		return s.printing.lines(joined(ev))
	}
	return trace.Lines(joined(ev))
}

// ordered prints events already in output order (inOutputOrder) from
// their blocks: all of them, or with w on, the first w.left, as w.lines
// would.
func (w *showing) ordered(ev [][]trace.Event) []string {
	n := eventCount(ev)
	if w.on {
		n = min(n, w.left)
		w.left -= n
		w.unprinted += eventCount(ev) - n
	}
	out := make([]string, 0, n)
	for _, b := range ev {
		for i := range b {
			if len(out) == n {
				return out
			}
			out = append(out, b[i].String())
		}
	}
	return out
}
