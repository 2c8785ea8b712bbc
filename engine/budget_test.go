package engine

import (
	"runtime"
	"strconv"
	"strings"
	"testing"
	"time"
)

// TestBudgetStopsARunawayRun: set watermark=1000000000 then run
// events=100000000 (a share link's probe) stops at the budget of one
// command with one line, and run continues from there.
func TestBudgetStopsARunawayRun(t *testing.T) {
	s := New(Options{Record: true})
	mustExec(t, s, "set watermark=1000000000")
	out := s.runLine("run events=100000000")
	want := "stopped after 3,000,000 events (the budget of one command); run continues, reset starts again"
	if len(out) != 2 || out[1] != want {
		t.Fatalf("got %q, want the clock then %q", out, want)
	}
	if s.rt.Events() != CommandEvents {
		t.Fatalf("%d events ran, want %d", s.rt.Events(), CommandEvents)
	}
	out = s.runLine("run events=10")
	if len(out) != 1 || !strings.HasSuffix(out[0], "events=3000010") {
		t.Fatalf("run continues: %q", out)
	}
}

// TestBudgetStopLeavesAConsistentState: a command stopped by its budget,
// in the middle of a publish that was settling, is recorded as what ran:
// a seek away and back gives the same state, a refused line changes
// nothing, and run drains the rest.
func TestBudgetStopLeavesAConsistentState(t *testing.T) {
	s := New(Options{Record: true})
	s.budgetLimits = &limits{events: 5000, held: HeldMessages, timeline: TimelineBytes, bytes: HeldBytes, seek: CommandEvents}
	mustExec(t, s, "queue.declare queue=q", "basic.consume queue=q tag=c on=c2.1 ack-every=1")
	out := s.runLine("basic.publish key=q body=m{i} count=3000")
	if last := out[len(out)-1]; last != "stopped after 5,000 events (the budget of one command); run continues, reset starts again" {
		t.Fatalf("last line %q", last)
	}
	at := seekState(t, s)
	for _, k := range []int64{1, 2500, s.Furthest() - 1} {
		if err := s.SeekEvent(k); err != nil {
			t.Fatal(err)
		}
		if err := s.SeekEvent(s.Furthest()); err != nil {
			t.Fatal(err)
		}
		if st := seekState(t, s); st != at {
			t.Fatalf("seek to %d and back after a stopped command:\n%s", k, diffState(at, st))
		}
	}
	if out := s.runLine("basic.ack tag=x"); !refused(out) || seekState(t, s) != at {
		t.Fatalf("a refusal after the stop: %q", out)
	}
	for i := 0; i < 10 && s.cluster.Depth()+s.held() > 0; i++ {
		s.runLine("run")
	}
	if out := s.runLine("expect queue=q messages=0"); len(out) != 1 || !strings.HasPrefix(out[0], "goal met") {
		t.Fatalf("after running on: %q", out)
	}
	if n := strings.Count(strings.Join(traceTexts(s), "\n"), "deliver consumer=c"); n != 3000 {
		t.Fatalf("%d deliveries in the trace, want 3000", n)
	}
}

func traceTexts(s *Sim) []string {
	var out []string
	for _, l := range s.Transcript() {
		out = append(out, l.Text)
	}
	return out
}

// TestBudgetRefusesAPublishTooBig: basic.publish key=q count=10000000 (a
// share link's probe) is refused before anything changes: its frames
// would all be in the socket at once.
func TestBudgetRefusesAPublishTooBig(t *testing.T) {
	s := New(Options{Record: true})
	mustExec(t, s, "queue.declare queue=q")
	before := wholeState(t, s)
	out := s.runLine("basic.publish key=q count=10000000")
	if len(out) != 1 || !strings.HasPrefix(out[0], "error: basic.publish: count=10000000 would make the simulation hold 10,000,000 messages, more than its memory budget of 1,000,000") {
		t.Fatalf("got %q", out)
	}
	if after := wholeState(t, s); after != before {
		t.Fatalf("the refused publish changed the simulation:\n%s", diffState(before, after))
	}
}

// TestBudgetStopsGrowth: messages piling up past the memory budget (a
// fanout multiplies them) stop the command that adds them, and a publish
// past the budget is refused.
func TestBudgetStopsGrowth(t *testing.T) {
	s := New(Options{})
	s.budgetLimits = &limits{events: CommandEvents, held: 1000, timeline: TimelineBytes, bytes: HeldBytes, seek: CommandEvents}
	mustExec(t, s, "exchange.declare exchange=f type=fanout")
	for _, q := range []string{"a", "b", "c", "d", "e"} {
		mustExec(t, s, "queue.declare queue="+q, "queue.bind queue="+q+" exchange=f")
	}
	out := s.runLine("basic.publish exchange=f count=600")
	if last := out[len(out)-1]; !strings.Contains(last, "messages (the memory budget of a simulation is 1,000); consume, purge or delete, or reset to start again") {
		t.Fatalf("got %q", last)
	}
	if out := s.runLine("basic.publish exchange=f count=600"); !refused(out) {
		t.Fatalf("a publish past the budget: %q", out)
	}
	if h := s.held(); h > 1000+5*int(s.checkEvery()) {
		t.Fatalf("the simulation holds %d messages, more than the budget and one check's worth of growth", h)
	}
}

// TestBudgetMeasuresAtEveryCheck: the memory budget stops a command at
// the first of its checks (every checkEvery events) that finds the
// simulation over it, not at a later one.
func TestBudgetMeasuresAtEveryCheck(t *testing.T) {
	s := New(Options{Record: true})
	s.budgetLimits = &limits{events: CommandEvents, held: 1000, timeline: TimelineBytes, bytes: HeldBytes, seek: CommandEvents}
	mustExec(t, s, "exchange.declare exchange=f type=fanout")
	for _, q := range []string{"a", "b", "c", "d", "e"} {
		mustExec(t, s, "queue.declare queue="+q, "queue.bind queue="+q+" exchange=f")
	}
	start := s.rt.Events()
	out := s.runLine("basic.publish exchange=f count=600")
	ran := s.rt.Events() - start
	every := s.checkEvery()
	if want := "stopped after " + thousands(ran) + " events: the simulation holds "; !strings.HasPrefix(out[len(out)-1], want) {
		t.Fatalf("got %q, want it to start %q", out[len(out)-1], want)
	}
	if ran%every != 0 {
		t.Fatalf("stopped after %d events, not at a check (every %d)", ran, every)
	}
	if err := s.SeekEvent(start + ran - every); err != nil {
		t.Fatal(err)
	}
	if h := s.held(); h > 1000 {
		t.Fatalf("the check before the stop, %d events in, found %d messages: it should have stopped there", ran-every, h)
	}
}

func TestThousands(t *testing.T) {
	for n, want := range map[int64]string{0: "0", 999: "999", 1000: "1,000", 2000000: "2,000,000", -12345: "-12,345"} {
		if got := thousands(n); got != want {
			t.Errorf("thousands(%d) = %q, want %q", n, got, want)
		}
	}
}

// TestTimeBudgetStopsAndCutReplays: under a time budget (the browser's) a
// runaway run stops after that much of the computer's time, and at least
// TimeBudgetFloor events, with one line that says how many events ran (a
// shorter command is never cut); a seek away and back, and the same line
// run again elsewhere with that cut (as a share link replays it), give
// the same state and the same lines, whatever the clock does then.
func TestTimeBudgetStopsAndCutReplays(t *testing.T) {
	lines := []string{"set watermark=1000000000", "queue.declare queue=q", "basic.consume queue=q tag=c"}
	a := New(Options{Record: true})
	a.SetTimeBudget(30*time.Millisecond, wallClock)
	mustExec(t, a, lines...)
	start := a.rt.Events()
	out := a.runLine("run events=100000000")
	ran := a.rt.Events() - start
	want := "stopped after " + thousands(ran) + " events (the time budget of one command here, 30ms); run continues, reset starts again"
	if len(out) != 2 || out[1] != want || ran >= CommandEvents || ran < TimeBudgetFloor {
		t.Fatalf("%d events ran, saying %q; want the clock then %q", ran, out, want)
	}
	at := seekState(t, a)
	if err := a.SeekEvent(start / 2); err != nil {
		t.Fatal(err)
	}
	if err := a.SeekEvent(a.Furthest()); err != nil {
		t.Fatal(err)
	}
	if st := seekState(t, a); st != at {
		t.Fatalf("a seek away and back after a time stop:\n%s", diffState(at, st))
	}
	short := New(Options{Record: true})
	short.SetTimeBudget(time.Nanosecond, wallClock)
	mustExec(t, short, lines...)
	from := short.rt.Events()
	if out := short.runLine("run events=" + strconv.Itoa(TimeBudgetFloor-1)); len(out) != 1 || short.rt.Events()-from != TimeBudgetFloor-1 {
		t.Fatalf("a command under the floor was cut: %q after %d events", out, short.rt.Events()-from)
	}
	for _, wall := range []time.Duration{0, time.Hour, time.Nanosecond} {
		b := New(Options{Record: true})
		b.SetTimeBudget(wall, wallClock)
		mustExec(t, b, lines...)
		// Whole: the site's own line, whatever the clock
		r := b.Run("run events=100000000", RunOptions{Cut: ran, Whole: wall == time.Nanosecond})
		got := r.Lines
		if r.Cut != ran {
			t.Fatalf("time budget %v: a cut of %d replayed says it was cut at %d", wall, ran, r.Cut)
		}
		if len(got) != 2 || got[0] != out[0] || !strings.HasPrefix(got[1], "stopped after "+thousands(ran)+" events (the time budget") {
			t.Fatalf("time budget %v: the cut replayed says %q, the stop said %q", wall, got, out)
		}
		if st := seekState(t, b); st != at {
			t.Fatalf("time budget %v: the cut replayed differs:\n%s", wall, diffState(at, st))
		}
		// a cut past a command's own end changes nothing
		if got, want := b.Run("queue.declare queue=r", RunOptions{Cut: 1_000_000}).Lines, New(Options{}).runLine("queue.declare queue=r"); strings.Join(got, "\n") != strings.Join(want, "\n") {
			t.Fatalf("a cut past the end: %q, want %q", got, want)
		}
	}
}

// TestBudgetStopLineIsAlwaysShown: a command whose lines the page bounds
// (RunOptions.Most) still shows, last, the line that says a budget
// stopped it.
func TestBudgetStopLineIsAlwaysShown(t *testing.T) {
	s := New(Options{Record: true})
	s.budgetLimits = &limits{events: 5000, held: HeldMessages, timeline: TimelineBytes, bytes: HeldBytes, seek: CommandEvents}
	mustExec(t, s, "queue.declare queue=q", "basic.consume queue=q tag=c on=c2.1 ack-every=1")
	r := s.Run("basic.publish key=q body=m{i} count=3000", RunOptions{Most: 10})
	out, omitted := r.Lines, r.Omitted
	want := "stopped after 5,000 events (the budget of one command); run continues, reset starts again"
	if len(out) != 10 || out[9] != want || omitted == 0 {
		t.Fatalf("%d lines shown, %d omitted, the last %q; want 10 ending with %q", len(out), omitted, out[len(out)-1], want)
	}
	full := New(Options{Record: true})
	full.budgetLimits = s.budgetLimits
	mustExec(t, full, "queue.declare queue=q", "basic.consume queue=q tag=c on=c2.1 ack-every=1")
	if all := full.runLine("basic.publish key=q body=m{i} count=3000"); len(out)+omitted != len(all) {
		t.Fatalf("%d shown and %d omitted of %d lines", len(out), omitted, len(all))
	}
}

// TestCutKeepsTheTimeBudget: a cut from a link (#@cut N) is a ceiling, not
// a way round the time budget: under a budget the computer's clock has
// passed, a command cut at a million events stops once it has run the
// floor, saying at how many events, which is where the same cut stops it
// on a seek back and forth; without a time budget, it runs to the cut.
func TestCutKeepsTheTimeBudget(t *testing.T) {
	lines := []string{"set watermark=1000000000", "queue.declare queue=q", "basic.consume queue=q tag=c"}
	s := New(Options{Record: true})
	s.SetTimeBudget(time.Nanosecond, wallClock)
	mustExec(t, s, lines...)
	start := s.rt.Events()
	out := s.Run("run events=100000000", RunOptions{Cut: 1_000_000}).Lines
	ran := s.rt.Events() - start
	want := "stopped after " + thousands(ran) + " events (the time budget of one command here, 1ns); run continues, reset starts again"
	if len(out) != 2 || out[1] != want || ran < TimeBudgetFloor || ran >= 1_000_000 {
		t.Fatalf("a cut of 1,000,000 under a passed time budget ran %d events, saying %q; want %q", ran, out, want)
	}
	at := seekState(t, s)
	if err := s.SeekEvent(start); err != nil {
		t.Fatal(err)
	}
	if err := s.SeekEvent(s.Furthest()); err != nil {
		t.Fatal(err)
	}
	if st := seekState(t, s); st != at {
		t.Fatalf("a seek away and back:\n%s", diffState(at, st))
	}
	free := New(Options{Record: true})
	mustExec(t, free, lines...)
	start = free.rt.Events()
	if out := free.Run("run events=100000000", RunOptions{Cut: 300_000}).Lines; free.rt.Events()-start != 300_000 || !strings.HasPrefix(out[len(out)-1], "stopped after 300,000 events (the time budget") {
		t.Fatalf("with no time budget, a cut of 300,000 ran %d events, saying %q", free.rt.Events()-start, out)
	}
}

// TestBudgetRefusesBodiesTooBig: 40 bodies of 128 MB to a lazy queue (a
// share link that took a tab to 4 GB) are refused at once, size x count
// measured before anything is allocated, and nothing changes; one such
// body is accepted, and a publish that would pass the budget with what
// the simulation already holds is refused.
func TestBudgetRefusesBodiesTooBig(t *testing.T) {
	s := New(Options{Record: true})
	mustExec(t, s, "queue.declare queue=q2 x-queue-mode=lazy")
	before := wholeState(t, s)
	var m0, m1 runtime.MemStats
	runtime.ReadMemStats(&m0)
	out := s.runLine("basic.publish key=q2 size=134217728 count=40")
	runtime.ReadMemStats(&m1)
	want := "error: basic.publish: count=40 messages of 134,217,728 bytes would make the simulation hold 5,121 MB of messages and files, more than its memory budget of 256 MB; publish fewer or smaller messages"
	if len(out) != 1 || out[0] != want {
		t.Fatalf("got %q, want %q", out, want)
	}
	if got := m1.TotalAlloc - m0.TotalAlloc; got > 16<<20 {
		t.Errorf("the refusal allocated %d MB", got>>20)
	}
	if after := wholeState(t, s); after != before {
		t.Fatalf("the refused publish changed the simulation:\n%s", diffState(before, after))
	}
	if out := s.runLine("basic.publish key=q2 body={i}" + strings.Repeat("b", 100_000) + " count=3000"); !refused(out) || !strings.Contains(out[0], "count=3000 messages of 100,004 bytes") {
		t.Fatalf("3,000 bodies of 100,000 bytes and an index: %q", out)
	}
	mustExec(t, s, "basic.publish key=q2 size=100000000")
	if s.heldBytes() < 100_000_000 {
		t.Errorf("a 100 MB body held: the simulation counts %d bytes", s.heldBytes())
	}
	if out := s.runLine("basic.publish key=q2 size=100000000 count=2"); !refused(out) || !strings.Contains(out[0], "more than its memory budget of 256 MB") {
		t.Fatalf("two more 100 MB bodies: %q", out)
	}
}

// TestBudgetStopsBytesGrowth: a command whose messages and files grow
// past the memory budget of bytes while it runs (a fanout copies each
// body to five queues) stops at a check, saying so.
func TestBudgetStopsBytesGrowth(t *testing.T) {
	s := New(Options{})
	s.budgetLimits = &limits{events: CommandEvents, held: HeldMessages, timeline: TimelineBytes, bytes: 4 << 20, seek: CommandEvents}
	mustExec(t, s, "exchange.declare exchange=f type=fanout")
	for _, q := range []string{"a", "b", "c", "d", "e"} {
		mustExec(t, s, "queue.declare queue="+q+" durable", "queue.bind queue="+q+" exchange=f")
	}
	out := append([]string{""}, s.runLine("basic.publish exchange=f size=1000 count=3000 persistent")...)
	if last := out[len(out)-1]; !strings.Contains(last, "MB of messages and files (the memory budget of a simulation is 4 MB); consume, purge or delete, or reset to start again") {
		t.Fatalf("got %q", last)
	}
	if n := s.heldBytes(); n > 6<<20 {
		t.Fatalf("the simulation holds %d bytes, more than the budget and one check's worth of growth", n)
	}
}

// TestBudgetSharedByAPage: the simulations of one engine (a page's
// worker) hold at most SharedHeldBytes together: with others holding 400
// MB, a publish of 200 MB that this simulation's own budget allows is
// refused, changing nothing; with others holding all but 4 MB, a fanout
// that grows past them stops, saying so; with others holding nothing,
// only the simulation's own budget counts.
func TestBudgetSharedByAPage(t *testing.T) {
	s := New(Options{Record: true})
	mustExec(t, s, "queue.declare queue=q")
	s.SetOthersHeld(400 << 20)
	before := wholeState(t, s)
	out := s.runLine("basic.publish key=q size=100000000 count=2")
	want := "error: basic.publish: count=2 messages of 100,000,000 bytes would make the simulations of this page hold 591 MB of messages and files, more than their memory budget of 512 MB; publish fewer or smaller messages, or reset another widget"
	if len(out) != 1 || out[0] != want {
		t.Fatalf("got %q, want %q", out, want)
	}
	if after := wholeState(t, s); after != before {
		t.Fatalf("the refused publish changed the simulation:\n%s", diffState(before, after))
	}

	g := New(Options{})
	mustExec(t, g, "exchange.declare exchange=f type=fanout")
	for _, q := range []string{"a", "b", "c", "d", "e"} {
		mustExec(t, g, "queue.declare queue="+q+" durable", "queue.bind queue="+q+" exchange=f")
	}
	g.SetOthersHeld(SharedHeldBytes - 4<<20)
	out = append([]string{""}, g.runLine("basic.publish exchange=f size=1000 count=3000 persistent")...)
	if last := out[len(out)-1]; !strings.Contains(last, "MB of messages and files (their memory budget is 512 MB); consume, purge or delete, or reset a widget") {
		t.Fatalf("got %q", last)
	}
	if n := g.HeldBytes(); n > 6<<20 {
		t.Fatalf("the simulation holds %d bytes, more than what the page leaves it and one check's worth of growth", n)
	}

	alone := New(Options{})
	mustExec(t, alone, "queue.declare queue=q")
	alone.SetOthersHeld(0)
	if out := alone.runLine("basic.publish key=q size=100000 count=100"); refused(out) {
		t.Fatalf("with nothing else on the page: %q", out)
	}
}

// testStart is what wallClock measures from.
var testStart = time.Now()

// wallClock is the monotonic clock the tests give the time budget, as the
// browser's bridge gives its own.
func wallClock() time.Duration { return time.Since(testStart) }
