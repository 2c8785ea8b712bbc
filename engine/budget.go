package engine

import (
	"strconv"
	"strings"
	"time"

	"warren/engine/say"
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
	// HeldBytes is the most memory a simulation's messages and files take
	// (node.Node.HeldBytes: bodies in memory and in mailboxes, and every
	// file of every node's disk). A publish that would pass it is refused
	// before it allocates anything: 40 bodies of 128 MB to a lazy queue
	// took a tab to 4 GB and killed it.
	HeldBytes = 256 << 20
	// SharedHeldBytes is the most memory the simulations of one page
	// take together, counted as HeldBytes is, in however many engine
	// workers they are: each may hold HeldBytes, not all of them at once
	// (SetOthersHeld; the page tells each worker what the others hold).
	SharedHeldBytes = 512 << 20
)

// BrowserCommandTime is the time budget the browser gives one command
// (SetTimeBudget): a runaway command stops after this instead of after
// CommandEvents, which a tab takes one to several minutes to run.
const BrowserCommandTime = 10 * time.Second

// TimeBudgetFloor is how many events a command runs before the time
// budget may stop it: more than any command of a lesson, a tutorial or the
// browser bench runs (130,446 in one-queue-one-process, 160,000 in the
// bench's 20,000-message publish), so that a slow computer never cuts
// one short. (When publishers are blocked pages messages to disk: its
// 56,591-event run takes over 10 s in a tab on a busy computer.)
const TimeBudgetFloor = 250_000

// timeCheckEvery is how often, in events, a command under a time budget
// reads the clock.
const timeCheckEvery = 1 << 10

// bytesCheckEvery is how often, in events, the bytes the simulation holds
// are measured while a command runs: more often than the other memory
// budgets, as one event can write a whole body to a file.
const bytesCheckEvery = 1 << 10

// budgetCheckEvery is how often, in events, the memory budgets are
// measured while a command runs (measuring visits every queue and
// process).
const budgetCheckEvery = 1 << 14

// limits are a simulation's budgets; the defaults are the constants above.
type limits struct {
	events   int64
	held     int
	timeline int64
	bytes    int64 // HeldBytes
	// others is what the other simulations of the same engine hold
	// (SetOthersHeld), counted against SharedHeldBytes with this one's
	others int64
	// wall is the time budget of one command (0: none; SetTimeBudget),
	// measured on clock
	wall  time.Duration
	clock func() time.Duration
	// seek is the most events one seek replays
	seek int64
}

var defaultLimits = limits{events: CommandEvents, held: HeldMessages, timeline: TimelineBytes, bytes: HeldBytes, seek: CommandEvents}

// bytesCap is the most bytes this simulation may hold: its own budget,
// or less when the other simulations of its engine hold the rest of
// theirs.
func (l limits) bytesCap() int64 {
	if l.others > 0 {
		return max(min(l.bytes, SharedHeldBytes-l.others), 0)
	}
	return l.bytes
}

func (s *Sim) limits() limits {
	if s.budgetLimits != nil {
		return *s.budgetLimits
	}
	return defaultLimits
}

// budget follows the command running now.
type budget struct {
	on    bool     // a command is running under the budget (not a replay)
	start int64    // events when it started
	held  int      // messages held at its last check (the budget before the first)
	bytes int64    // bytes held at its last check (likewise)
	stop  say.Text // why it stopped (no key: it has not)
	// timeCut is the events after which the time budget stopped it (0:
	// it did not)
	timeCut int64
	// at is the event count at which the checks of budgetCheck last ran,
	// next the first after it at which one can stop the command
	// (nextCheck); in between, none runs
	at, next int64
	// deadline ends the command under a time budget (now's units, 0:
	// none); cut ends it after that many events, where the time budget
	// stopped it once (RunOptions.Cut); whole runs it without the time
	// budget (RunOptions.Whole)
	deadline int64
	cut      int64
	whole    bool
	// said is the line that said the last command stopped ("": it did
	// not), which a bounded Run always shows; lastTimeCut the events
	// after which the time budget stopped it (0: it did not), Result.Cut
	said        string
	lastTimeCut int64
}

// SetTimeBudget gives every later command a time budget: past
// TimeBudgetFloor events, it stops at the first event boundary after d of
// the computer's time, read on clock (a monotonic clock: the engine reads
// none of its own), as it stops at the budget of events, saying so in
// one line. The browser sets it (a tab runs events about twenty times
// slower than a native build); d = 0 or a nil clock removes it. Where a
// command stops then depends on the computer, so the cut is kept as its
// number of events: a seek replays exactly that many, and Run with a Cut runs
// a command again with the same cut, as a share link does (still under
// the time budget: a cut in a link is a ceiling, not a way round it).
func (s *Sim) SetTimeBudget(d time.Duration, clock func() time.Duration) {
	lim := s.limits()
	lim.wall, lim.clock = max(d, 0), clock
	if clock == nil {
		lim.wall = 0
	}
	s.budgetLimits = &lim
}

// now reads the time budget's clock, in ns; only under a time budget.
func (s *Sim) now() int64 { return int64(s.limits().clock()) }

// deadline is when something that starts now must stop under the time
// budget (now's units), or 0 when there is none.
func (s *Sim) deadline() int64 {
	if lim := s.limits(); lim.wall > 0 {
		return s.now() + int64(lim.wall)
	}
	return 0
}

// SetOthersHeld says how many bytes the other simulations of the same
// page hold (their HeldBytes, in this engine and in the page's others): from now on a publish that would make
// them all hold more than SharedHeldBytes is refused, and a command that
// grows them past it stops, as for this simulation's own budget. The
// browser's bridge sets it before each command.
func (s *Sim) SetOthersHeld(n int64) {
	lim := s.limits()
	lim.others = max(n, 0)
	s.budgetLimits = &lim
}

// HeldBytes is what the simulation's messages and files take in the
// computer's memory, about: what its memory budget of bytes measures.
func (s *Sim) HeldBytes() int64 { return s.heldBytes() }

// timeStop says why the time budget stopped a command.
func timeStop(ran int64, wall time.Duration) say.Text {
	of := ""
	if wall > 0 {
		of = ", " + wall.String()
	}
	return say.S("con.stopTime", thousands(ran), of)
}

// startBudget puts the command about to run under the budget. It measures
// nothing: a command's first check stops it if the simulation holds more
// than the budget, a later one only if it holds more than at the check
// before.
func (s *Sim) startBudget() {
	lim := s.limits()
	s.budget = budget{on: true, start: s.rt.Events(), held: lim.held, bytes: lim.bytesCap(), cut: s.budget.cut, whole: s.budget.whole}
	if !s.budget.whole {
		s.budget.deadline = s.deadline()
	}
}

// endBudget ends the command's budget and adds the line that says it
// stopped the command, if it did.
func (s *Sim) endBudget(out []string, err error) ([]string, error) {
	stop, timeCut := s.budget.stop, s.budget.timeCut
	if budgetProbe != nil {
		budgetProbe(s.rt.Events() - s.budget.start)
	}
	s.budget = budget{cut: s.budget.cut, whole: s.budget.whole}
	if stop.Key != "" && err == nil {
		line := s.sayLine(stop)
		s.budget.said, s.budget.lastTimeCut = line, timeCut
		out = append(out, line)
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
	if n := s.rt.Events(); !b.on || (n > b.at && n < b.next) {
		return false // no budget, or nothing can stop it before b.next
	}
	return s.budgetCheck()
}

// budgetCheck is overBudget's look at every budget, where one may stop the
// command.
func (s *Sim) budgetCheck() bool {
	b := &s.budget
	if b.stop.Key != "" {
		return true
	}
	ran := s.rt.Events() - b.start
	lim := s.limits()
	// the events at which this check ran and at which the next is due
	b.at, b.next = b.start+ran, b.start+s.nextCheck(ran, lim)
	switch {
	case ran >= lim.events:
		b.stop = say.S("con.stopBudget", thousands(ran))
	case b.cut > 0 && ran >= b.cut:
		b.stop, b.timeCut = timeStop(ran, lim.wall), ran
	case b.deadline != 0 && ran%timeCheckEvery == 0 && ran >= TimeBudgetFloor && s.now() > b.deadline:
		b.stop, b.timeCut = timeStop(ran, lim.wall), ran
	case ran%bytesCheckEvery == 0 && ran > 0 && s.overBytes(ran, lim):
	case ran%s.checkEvery() != 0 || ran == 0:
		return false
	case s.TimelineBytes() > lim.timeline:
		b.stop = say.S("con.stopTimeline", thousands(ran), strconv.FormatInt(s.TimelineBytes()>>20, 10))
	default:
		h := s.held()
		if h > lim.held && h > b.held {
			b.stop = say.S("con.stopMessages", thousands(ran), thousands(int64(h)), thousands(int64(lim.held)))
		}
		b.held = max(h, lim.held) // over it, a command may go on while it drains
	}
	if b.stop.Key != "" {
		b.next = 0 // stopped: every later look answers so at once
	}
	return b.stop.Key != ""
}

// overBytes measures the bytes the simulation holds and sets the stop
// when they are over the budget and more than at the last measure (over
// it, a command may go on while it drains).
func (s *Sim) overBytes(ran int64, lim limits) bool {
	b := &s.budget
	n := s.heldBytes()
	switch {
	case n > lim.bytes && n > b.bytes:
		b.stop = say.S("con.stopBytes", thousands(ran), thousands(megabytes(n)), thousands(megabytes(lim.bytes)))
	case n > lim.bytesCap() && n > b.bytes:
		b.stop = say.S("con.stopPage", thousands(ran), thousands(megabytes(lim.others+n)), thousands(megabytes(SharedHeldBytes)))
	}
	b.bytes = max(n, lim.bytesCap())
	return b.stop.Key != ""
}

// nextCheck is the first number of events after ran at which overBudget
// has anything to check: the budget of events, the cut, the next clock
// reading (a multiple of timeCheckEvery from TimeBudgetFloor on) or the
// next measure of memory (a multiple of checkEvery). Until then every
// event passes at the cost of one comparison.
func (s *Sim) nextCheck(ran int64, lim limits) int64 {
	next := max(lim.events, ran+1)
	if b := &s.budget; b.cut > 0 && b.cut > ran {
		next = min(next, b.cut)
	} else if b.cut > 0 {
		next = ran + 1
	}
	if s.budget.deadline != 0 {
		next = min(next, max(roundUp(ran+1, timeCheckEvery), roundUp(TimeBudgetFloor, timeCheckEvery)))
	}
	return min(next, roundUp(ran+1, s.checkEvery()), roundUp(ran+1, bytesCheckEvery))
}

// roundUp is the least multiple of k at or above n (k > 0, n >= 0).
func roundUp(n, k int64) int64 { return (n + k - 1) / k * k }

// checkBudget refuses a command that would take more than the memory
// budget before its first event: a publish of more messages than a
// simulation holds puts them all in the socket at once.
func (s *Sim) checkBudget(cmd script.Command) error {
	if cmd.Name != "basic.publish" {
		return nil
	}
	n := cmd.Int("count", 1)
	if held, lim := s.held(), s.limits().held; int64(held)+n > int64(lim) {
		return say.E("con.budgetPublish", i64(n), thousands(int64(held)+n), thousands(int64(lim)))
	}
	// NB: size x count before anything is allocated; each product fits an
	// int64 (size and body are at most 128 MB, count at most a million
	// by the budget above).
	body := int64(len(cmd.Str("body", "")))
	if strings.Contains(cmd.Str("body", ""), script.IndexMark) {
		body = int64(len(script.Indexed(cmd.Str("body", ""), max(n-1, 0))))
	}
	body = max(body, cmd.Int("size", 0))
	held, lim := s.heldBytes(), s.limits()
	if held+body*n > lim.bytes {
		return say.E("con.budgetBytes", i64(n), thousands(body), thousands(megabytes(held+body*n)), thousands(megabytes(lim.bytes)))
	}
	if all := lim.others + held + body*n; lim.others > 0 && all > SharedHeldBytes {
		return say.E("con.budgetPage", i64(n), thousands(body), thousands(megabytes(all)), thousands(megabytes(SharedHeldBytes)))
	}
	return nil
}

// heldBytes is what the simulation's messages and files take in the
// computer's memory, about (node.Node.HeldBytes of every node).
func (st *state) heldBytes() int64 {
	var n int64
	for _, m := range st.cluster.Members() {
		n += m.HeldBytes()
	}
	return n
}

// megabytes is n bytes in whole MB, rounded up.
func megabytes(n int64) int64 { return (n + 1<<20 - 1) >> 20 }

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
