package engine

import (
	"errors"
	"strings"
	"testing"
	"time"
)

// noCheckpoints is a history of 300,015 events with no checkpoint a seek
// can start from: a 40 MB body makes every state too large to copy, so a
// seek back replays from the start.
func noCheckpoints(t *testing.T) *Sim {
	t.Helper()
	s := New(Options{Record: true})
	mustExec(t, s, "set watermark=1000000000", "queue.declare queue=big", "basic.publish key=big size=40000000",
		"queue.declare queue=q", "basic.consume queue=q tag=c", "run events=150000", "run events=150000")
	if n := s.Checkpoints().Count; n != 0 {
		t.Fatalf("the history has %d checkpoints, want none", n)
	}
	return s
}

// TestSeekKeepsTheBudgets: a seek with no checkpoint to start from replays
// at most a command's events, and under a time budget stops once it has
// taken that long, saying where it stopped; the simulation is then at
// that event, usable, and seeking again goes on from there to the state
// the seek was asked for.
func TestSeekKeepsTheBudgets(t *testing.T) {
	s := noCheckpoints(t)
	end := s.Furthest()
	want := seekState(t, s)

	lim := s.limits()
	lim.seek = 40_000
	s.budgetLimits = &lim
	err := s.SeekEvent(end - 5)
	var stop *SeekStopped
	if !errors.As(err, &stop) {
		t.Fatalf("a seek back over %d events under a budget of 40,000: %v", end, err)
	}
	if at := s.rt.Events(); stop.At != at || at < 40_000 || at >= end-5 {
		t.Fatalf("stopped at %d, the simulation is at %d (want 40,000 or more, short of %d)", stop.At, at, end-5)
	}
	if msg := err.Error(); !strings.HasPrefix(msg, "seek: stopped at event ") ||
		!strings.HasSuffix(msg, " of 300010 after replaying 40,960 events (the budget of one command); seek again to go on") {
		t.Errorf("the message: %q", msg)
	}
	if snap := s.Snapshot(); snap.Events != stop.At || snap.Furthest != end {
		t.Errorf("after a stopped seek the snapshot is at %d of %d", snap.Events, snap.Furthest)
	}
	// seeking on reaches the end, chunk by chunk, as it was
	for i := 0; ; i++ {
		err := s.SeekEvent(end)
		if err == nil {
			break
		}
		if !errors.As(err, &stop) || i > int(end/40_000) {
			t.Fatalf("seeking on, %d: %v", i, err)
		}
	}
	if got := seekState(t, s); got != want {
		t.Fatalf("back at the end after stopped seeks:\n%s", diffState(want, got))
	}

	lim.seek = CommandEvents
	s.budgetLimits = &lim
	s.SetTimeBudget(time.Nanosecond, wallClock)
	start := time.Now()
	err = s.SeekEvent(end - 5)
	if !errors.As(err, &stop) || !strings.HasSuffix(err.Error(), "(the time budget of one command here, 1ns); seek again to go on") {
		t.Fatalf("a seek under a time budget of 1ns: %v", err)
	}
	if took := time.Since(start); stop.Replayed < TimeBudgetFloor || stop.Replayed > TimeBudgetFloor+seekChunkEvents || took > 5*time.Second {
		t.Errorf("it replayed %d events in %v, want %d and one chunk at most", stop.Replayed, took, TimeBudgetFloor)
	}
	s.SetTimeBudget(0, wallClock)
	if err := s.SeekEvent(end); err != nil {
		t.Fatal(err)
	}
	if got := seekState(t, s); got != want {
		t.Fatalf("back at the end after a seek the time budget stopped:\n%s", diffState(want, got))
	}
	if out := s.runLine("list_queues name messages"); refused(out) {
		t.Errorf("after the seeks: %q", out)
	}
}

// TestGoalCheckKeepsTheBudgets: a goal that looks through the trace lines
// looks at no more of them than a command runs events, and under a time
// budget stops once it has taken that long, as an error that says so,
// changing nothing; a #@when scan of such a goal stops too.
func TestGoalCheckKeepsTheBudgets(t *testing.T) {
	s := New(Options{Record: true})
	mustExec(t, s, "queue.declare queue=q", "basic.consume queue=q tag=c", "basic.publish key=q count=3000")
	want := seekState(t, s)
	goals := []string{"expect on=c1.1 saw=deliver body=never", "expect never=dropped on=c1.1",
		"expect on=c1.1 saw=deliver body=never after=crash"}

	lim := s.limits()
	lim.events = 2000
	s.budgetLimits = &lim
	for _, g := range goals[:2] {
		if _, err := s.Expect(g); err == nil || err.Error() != "expect: stopped looking after 2,000 trace lines (the budget of one command)" {
			t.Errorf("%s under a budget of 2,000 events: %v", g, err)
		}
	}
	if out := s.runLine(goals[0]); len(out) != 1 || out[0] != "error: expect: stopped looking after 2,000 trace lines (the budget of one command)" {
		t.Errorf("as a command: %q", out)
	}

	lim.events = CommandEvents
	s.budgetLimits = &lim
	s.SetTimeBudget(time.Nanosecond, wallClock)
	for _, g := range goals[:2] {
		if _, err := s.Expect(g); err == nil || err.Error() != "expect: stopped looking after 1,024 trace lines (the time budget of one command here, 1ns)" {
			t.Errorf("%s under a time budget of 1ns: %v", g, err)
		}
	}
	if _, _, err := s.FirstEventWhere(goals[0], s.Furthest()-3); err == nil || !strings.Contains(err.Error(), "(the time budget of one command here, 1ns)") {
		t.Errorf("a #@when of such a goal: %v", err)
	}
	if got := seekState(t, s); got != want {
		t.Fatalf("checking goals changed the simulation:\n%s", diffState(want, got))
	}

	// the goals of an exercise share one budget
	s.SetTimeBudget(10*time.Second, wallClock)
	if _, err := s.ExpectWithin(goals[0], 0); err == nil || err.Error() != "expect: not checked: the goals before it took the time budget of one command here, 10s" {
		t.Errorf("a goal with no time left: %v", err)
	}
	if _, err := s.ExpectWithin(goals[0], time.Nanosecond); err == nil || err.Error() != "expect: stopped looking after 1,024 trace lines (the time budget of one command here, 10s)" {
		t.Errorf("a goal with 1ns left: %v", err)
	}
	if g, err := s.ExpectWithin(goals[0], time.Minute); err != nil || g.Met {
		t.Errorf("a goal with more time left than the budget: %v %v", g, err)
	}

	s.SetTimeBudget(0, wallClock)
	if g, err := s.ExpectWithin(goals[0], -1); err != nil || g.Met {
		t.Errorf("a goal with no time budget at all: %v %v", g, err)
	}
	for i, g := range goals {
		if got, err := s.Expect(g); err != nil || got.Met != (i == 1) {
			t.Errorf("%s with the budgets of a command: %v %v", g, got, err)
		}
	}
	if got, err := s.Expect("expect on=c1.1 saw=deliver tag=3000"); err != nil || !got.Met {
		t.Errorf("the last delivery: %v %v", got, err)
	}
}
