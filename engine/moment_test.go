package engine

import (
	"strings"
	"testing"
	"time"
)

// TestFirstEventWhere: the first event at which a reader's credit toward
// its channel is 0 is found, the goal holds there and not one event
// before, and the simulation is left where it was.
func TestFirstEventWhere(t *testing.T) {
	s := New(Options{Record: true})
	mustExec(t, s,
		"queue.declare queue=q",
		"basic.publish key=q size=100 count=2000",
	)
	end := s.Furthest()
	goal := `expect credit="reader c1 -> channel c1.1" left=0`
	n, ok, err := s.FirstEventWhere(goal, 0)
	if err != nil || !ok {
		t.Fatalf("not found: %v %v", ok, err)
	}
	if s.rt.Events() != end {
		t.Errorf("left at event %d, want %d", s.rt.Events(), end)
	}
	if err := s.SeekEvent(n); err != nil {
		t.Fatal(err)
	}
	if g, _ := s.Expect(goal); !g.Met {
		t.Errorf("at event %d: %s", n, g.Line())
	}
	if err := s.SeekEvent(n - 1); err != nil {
		t.Fatal(err)
	}
	if g, _ := s.Expect(goal); g.Met {
		t.Errorf("already met at event %d", n-1)
	}
	if again, ok, _ := s.FirstEventWhere(goal, n+1); ok && again <= n {
		t.Errorf("searching from %d finds %d", n+1, again)
	}
	if _, ok, err := s.FirstEventWhere(`expect queue=q messages=99999`, 0); ok || err != nil {
		t.Errorf("a goal that never holds: %v %v", ok, err)
	}
	if _, _, err := s.FirstEventWhere(`basic.get queue=q`, 0); err == nil || !strings.Contains(err.Error(), "a goal is an expect command") {
		t.Errorf("not a goal: %v", err)
	}
}

// TestWhenScanKeepsTheBudgets: a #@when whose goal never holds looks at no
// more than a command's events, and under a time budget stops once it has
// taken that long, saying so, with the simulation left where it was.
func TestWhenScanKeepsTheBudgets(t *testing.T) {
	s := New(Options{Record: true})
	mustExec(t, s, "set watermark=1000000000", "queue.declare queue=q", "basic.consume queue=q tag=c", "run events=300000")
	end := s.Furthest()
	goal := `expect queue=q messages=99999`
	before := seekState(t, s)

	s.SetTimeBudget(20*time.Millisecond, wallClock)
	start := time.Now()
	_, ok, err := s.FirstEventWhere(goal, 0)
	took := time.Since(start)
	if ok || err == nil || !strings.HasPrefix(err.Error(), "when: stopped looking after ") || !strings.HasSuffix(err.Error(), "(the time budget of one command here, 20ms)") {
		t.Fatalf("a scan under a 20ms budget: %v %v", ok, err)
	}
	if took > 2*time.Second {
		t.Errorf("a scan under a 20ms budget took %v", took)
	}
	if s.rt.Events() != end || seekState(t, s) != before {
		t.Errorf("left at event %d, want %d as it was", s.rt.Events(), end)
	}

	s.SetTimeBudget(0, wallClock)
	s.budgetLimits.events = 5000
	if _, ok, err := s.FirstEventWhere(goal, 100); ok || err == nil || err.Error() != "when: stopped looking after 5,000 events, at event 5100 (the budget of one command)" {
		t.Fatalf("a scan past the budget of events: %v %v", ok, err)
	}
	if s.rt.Events() != end || seekState(t, s) != before {
		t.Errorf("left at event %d, want %d as it was", s.rt.Events(), end)
	}
}

// TestMomentsInOnePass: the moments of several #@when lines, found in
// one pass, are each the first event from its own start at which its
// goal holds, as a look at every event one by one finds them, whatever
// their order; a goal that never holds is -1; and the simulation is left
// where it was.
func TestMomentsInOnePass(t *testing.T) {
	s := New(Options{Record: true})
	mustExec(t, s,
		"queue.declare queue=q",
		"basic.publish key=q size=100 count=300",
		"basic.consume queue=q tag=c on=c2.1 ack-every=1",
	)
	end := s.Furthest()
	whens := []When{
		{`expect queue=q messages=200`, 0},
		{`expect queue=q messages=100`, 0},
		{`expect queue=q messages=200`, 0},
		{`expect queue=q messages_unacknowledged=0`, 10},
		{`expect queue=q messages=99999`, 0},
		{`expect credit="reader c1 -> channel c1.1" left=0`, 0},
		{`expect queue=q messages=0`, end / 2},
	}
	at, err := s.FirstEventsWhere(whens)
	if err != nil {
		t.Fatal(err)
	}
	if s.rt.Events() != end {
		t.Errorf("left at event %d, want %d", s.rt.Events(), end)
	}
	for i, w := range whens {
		want := int64(-1)
		for n := w.From; n <= end; n++ {
			if err := s.SeekEvent(n); err != nil {
				t.Fatal(err)
			}
			if g, _ := s.Expect(w.Goal); g.Met {
				want = n
				break
			}
		}
		if at[i] != want {
			t.Errorf("%s from %d: found %d, one by one %d", w.Goal, w.From, at[i], want)
		}
	}
	if at[4] != -1 || at[0] < 0 || at[1] < 0 || at[0] != at[2] {
		t.Errorf("moments %v: want the never-met goal -1 and the same goal twice at one event", at)
	}
}
