package engine

import (
	"fmt"
	"strconv"

	"warren/engine/script"
)

// A script is code from whoever wrote the link that runs it, so one
// simulation gets a budget: of work for each command, and of memory for
// the whole simulation. A command that reaches one stops where it is, the
// state as consistent as after any event (it can be inspected, stepped,
// sought or reset), and says so in one line.
const (
	// CommandEvents is the most events one command runs.
	CommandEvents = 3_000_000
	// HeldMessages is the most messages a simulation holds: in queues,
	// unacknowledged, and waiting in sockets.
	HeldMessages = 1_000_000
	// TimelineBytes is the most memory the recorded timeline (events and
	// trace lines) takes.
	TimelineBytes = 288 << 20
)

// budgetCheckEvery is how often, in events, the memory budgets are
// measured while a command runs (measuring visits every queue and
// process).
const budgetCheckEvery = 1 << 14

// limits are a simulation's budgets; the defaults are the constants above.
type limits struct {
	events   int64
	held     int
	timeline int64
}

var defaultLimits = limits{events: CommandEvents, held: HeldMessages, timeline: TimelineBytes}

func (s *Sim) limits() limits {
	if s.budgetLimits != nil {
		return *s.budgetLimits
	}
	return defaultLimits
}

// budget follows the command running now.
type budget struct {
	on    bool  // a command is running under the budget (not a replay)
	start int64 // events when it started
	held  int   // messages held at its last check (the budget before the first)
	stop  string
}

// startBudget puts the command about to run under the budget. It measures
// nothing: a command's first check stops it if the simulation holds more
// than the budget, a later one only if it holds more than at the check
// before.
func (s *Sim) startBudget() {
	s.budget = budget{on: true, start: s.rt.Events(), held: s.limits().held}
}

// endBudget ends the command's budget and adds the line that says it
// stopped the command, if it did.
func (s *Sim) endBudget(out []string, err error) ([]string, error) {
	stop := s.budget.stop
	if budgetProbe != nil {
		budgetProbe(s.rt.Events() - s.budget.start)
	}
	s.budget = budget{}
	if stop != "" && err == nil {
		out = append(out, stop)
	}
	return out, err
}

// held counts the messages the simulation holds: in its queues, and the
// frames waiting in sockets. (A message on its way between processes is
// in neither; credit flow bounds how many are.)
func (s *Sim) held() int {
	n := s.cluster.Depth()
	for _, p := range s.rt.Processes() {
		n += p.InputLen()
	}
	return n
}

// overBudget says, before an event, that the command must stop there.
func (s *Sim) overBudget() bool {
	b := &s.budget
	if !b.on {
		return false
	}
	if b.stop != "" {
		return true
	}
	ran := s.rt.Events() - b.start
	lim := s.limits()
	switch {
	case ran >= lim.events:
		b.stop = "stopped after " + thousands(ran) + " events (the budget of one command); run continues, reset starts again"
	case ran%s.checkEvery() != 0 || ran == 0:
		return false
	case s.TimelineBytes() > lim.timeline:
		b.stop = fmt.Sprintf("stopped after %s events: the timeline holds %d MB (the memory budget of a simulation); reset starts again",
			thousands(ran), s.TimelineBytes()>>20)
	default:
		h := s.held()
		if h > lim.held && h > b.held {
			b.stop = "stopped after " + thousands(ran) + " events: the simulation holds " + thousands(int64(h)) +
				" messages (the memory budget of a simulation is " + thousands(int64(lim.held)) + "); consume, purge or delete, or reset to start again"
		}
		b.held = max(h, lim.held) // over it, a command may go on while it drains
	}
	return b.stop != ""
}

// checkBudget refuses a command that would take more than the memory
// budget before its first event: a publish of more messages than a
// simulation holds puts them all in the socket at once.
func (s *Sim) checkBudget(cmd script.Command) error {
	if cmd.Name != "basic.publish" {
		return nil
	}
	n := cmd.Int("count", 1)
	if held, lim := s.held(), s.limits().held; int64(held)+n > int64(lim) {
		return fmt.Errorf("basic.publish: count=%d would make the simulation hold %s messages, more than its memory budget of %s; publish fewer in one command",
			n, thousands(int64(held)+n), thousands(int64(lim)))
	}
	return nil
}

func (s *Sim) checkEvery() int64 {
	lim := s.limits()
	return max(min(budgetCheckEvery, lim.events/8, int64(lim.held)/8), 1)
}

// budgetProbe, when set (by a test), is told how many events each command
// ran.
var budgetProbe func(events int64)

// thousands prints n with a comma between groups of three digits.
func thousands(n int64) string {
	s := strconv.FormatInt(n, 10)
	if n < 0 {
		return "-" + thousands(-n)
	}
	for i := len(s) - 3; i > 0; i -= 3 {
		s = s[:i] + "," + s[i:]
	}
	return s
}
