package engine

import (
	"strings"
	"testing"
)

// TestBudgetStopsARunawayRun: set watermark=1000000000 then run
// events=100000000 (a share link's probe) stops at the budget of one
// command with one line, and run continues from there.
func TestBudgetStopsARunawayRun(t *testing.T) {
	s := New(Options{Record: true})
	mustExec(t, s, "set watermark=1000000000")
	out := s.ExecLine("run events=100000000")
	want := "stopped after 3,000,000 events (the budget of one command); run continues, reset starts again"
	if len(out) != 2 || out[1] != want {
		t.Fatalf("got %q, want the clock then %q", out, want)
	}
	if s.rt.Events() != CommandEvents {
		t.Fatalf("%d events ran, want %d", s.rt.Events(), CommandEvents)
	}
	out = s.ExecLine("run events=10")
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
	s.budgetLimits = &limits{events: 5000, held: HeldMessages, timeline: TimelineBytes}
	mustExec(t, s, "queue.declare queue=q", "basic.consume queue=q tag=c on=c2.1 ack-every=1")
	out := s.ExecLine("basic.publish key=q body=m{i} count=3000")
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
	if out := s.ExecLine("basic.ack tag=x"); !refused(out) || seekState(t, s) != at {
		t.Fatalf("a refusal after the stop: %q", out)
	}
	for i := 0; i < 10 && s.cluster.Depth()+s.held() > 0; i++ {
		s.ExecLine("run")
	}
	if out := s.ExecLine("expect queue=q messages=0"); len(out) != 1 || !strings.HasPrefix(out[0], "goal met") {
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
	out := s.ExecLine("basic.publish key=q count=10000000")
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
	s.budgetLimits = &limits{events: CommandEvents, held: 1000, timeline: TimelineBytes}
	mustExec(t, s, "exchange.declare exchange=f type=fanout")
	for _, q := range []string{"a", "b", "c", "d", "e"} {
		mustExec(t, s, "queue.declare queue="+q, "queue.bind queue="+q+" exchange=f")
	}
	out := s.ExecLine("basic.publish exchange=f count=600")
	if last := out[len(out)-1]; !strings.Contains(last, "messages (the memory budget of a simulation is 1,000); consume, purge or delete, or reset to start again") {
		t.Fatalf("got %q", last)
	}
	if out := s.ExecLine("basic.publish exchange=f count=600"); !refused(out) {
		t.Fatalf("a publish past the budget: %q", out)
	}
	if h := s.held(); h > 1000+5*int(s.checkEvery()) {
		t.Fatalf("the simulation holds %d messages, more than the budget and one check's worth of growth", h)
	}
}

func TestThousands(t *testing.T) {
	for n, want := range map[int64]string{0: "0", 999: "999", 1000: "1,000", 2000000: "2,000,000", -12345: "-12,345"} {
		if got := thousands(n); got != want {
			t.Errorf("thousands(%d) = %q, want %q", n, got, want)
		}
	}
}
