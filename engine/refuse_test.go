package engine

import (
	"encoding/json"
	"slices"
	"strings"
	"testing"

	"warren/engine/script"
)

// stateViews are the show views wholeState prints: every view there is.
var stateViews = "show " + strings.Join(script.ShowViews, " ")

// windowViews measure over the last command that ran events, a window a
// seek does not bring back (it is not part of the recorded history).
var windowViews = []string{"throughput", "schedulers", "cpu"}

// seekState is wholeState without the windowViews: what a seek away and
// back must restore.
func seekState(tb testing.TB, s *Sim) string {
	tb.Helper()
	var views []string
	for _, v := range script.ShowViews {
		if !slices.Contains(windowViews, v) {
			views = append(views, v)
		}
	}
	return shownState(tb, s, "show "+strings.Join(views, " "))
}

// wholeState prints everything a reader can see of a simulation, without
// changing it: the snapshot, every show view (exchanges, bindings, files,
// clock, rates...), the policies, the metrics samples, the timeline's end
// and the trace with its event numbers. Two simulations that print the
// same are the same to anyone looking.
func wholeState(tb testing.TB, s *Sim) string {
	tb.Helper()
	return shownState(tb, s, stateViews)
}

func shownState(tb testing.TB, s *Sim, show string) string {
	var b strings.Builder
	add := func(what string, v any) {
		j, err := json.Marshal(v)
		if err != nil {
			tb.Fatal(err)
		}
		b.WriteString(what + " " + string(j) + "\n")
	}
	add("snapshot", s.Snapshot())
	for _, l := range s.runLine(show) {
		b.WriteString(l + "\n")
	}
	add("policies", s.cluster.Policies())
	add("samples", s.Samples())
	add("furthest", s.Furthest())
	add("trace", s.Transcript())
	add("events", len(s.Events()))
	return b.String()
}

// TestRefusedCommandsChangeNothing: a malformed or impossible command gets
// one error line that says where and what, and the simulation is exactly
// as it was.
func TestRefusedCommandsChangeNothing(t *testing.T) {
	s := New(Options{Record: true})
	mustExec(t, s, "queue.declare queue=q", "basic.publish key=q body=m{i} count=3")
	if err := s.Run("basic.publish key=q body=late", RunOptions{Hold: true}).Err; err != nil {
		t.Fatal(err)
	}
	s.Step(2) // leave work in flight: a process is running
	before := snapJSON(t, s)
	ops, furthest, trace := len(s.ops), s.Furthest(), len(s.Transcript())
	for _, line := range []string{
		"basic.ack tag=x",
		"basic.pubish key=q",
		"queue.delete que=q",
		"basic.get queue=q on=c0.1",
		"set schedulers=4", // refused while a process is mid-slice
		"wait ms=-1",
		"step n=0",
		"show colours",
		"run ms=1 events=2",
	} {
		out := s.runLine(line)
		if len(out) != 1 || !strings.HasPrefix(out[0], "error: ") {
			t.Fatalf("%q: got %q, want one error line", line, out)
		}
		if !strings.Contains(out[0], "column") && !strings.Contains(out[0], ":") {
			t.Errorf("%q: error without position: %s", line, out[0])
		}
		if after := snapJSON(t, s); after != before {
			t.Fatalf("%q changed the simulation:\nbefore %s\nafter  %s", line, before, after)
		}
		if len(s.ops) != ops || s.Furthest() != furthest || len(s.Transcript()) != trace {
			t.Fatalf("%q changed the history", line)
		}
	}
	if err := s.SeekEvent(furthest + 5); err == nil || !strings.Contains(err.Error(), "outside the timeline") {
		t.Fatalf("seek past the end: %v", err)
	}
	if after := snapJSON(t, s); after != before {
		t.Fatal("a refused seek changed the simulation")
	}
}

// TestBrokerErrorsAreTrace: what RabbitMQ refuses is not a refused command
// but a trace line, exactly as the broker sends it.
func TestBrokerErrorsAreTrace(t *testing.T) {
	s := New(Options{})
	out := s.runLine("basic.ack tag=9")
	want := `c1.1 closed code=406 text="PRECONDITION_FAILED - unknown delivery tag 9"`
	if len(out) != 1 || out[0] != want {
		t.Fatalf("got %q, want %q", out, want)
	}
}
