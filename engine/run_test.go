package engine

import (
	"slices"
	"testing"
)

// TestRunRefusesAsOneLine: a line the parser or the simulation refuses
// prints one line, "error: " and why, gives the same error as Err, and
// changes nothing; a line that runs gives no Err.
func TestRunRefusesAsOneLine(t *testing.T) {
	s := New(Options{Record: true})
	s.runLine("queue.declare queue=q")
	before, trace := s.rt.Events(), s.Transcript()
	for _, line := range []string{"basic.bogus", "cluster nodes=2", "crash queue=nothere"} {
		r := s.Run(line, RunOptions{})
		if r.Err == nil || !slices.Equal(r.Lines, []string{"error: " + r.Err.Error()}) {
			t.Errorf("%s: lines %q, err %v; want one error line that is the error", line, r.Lines, r.Err)
		}
		if s.rt.Events() != before || len(s.Transcript()) != len(trace) {
			t.Errorf("%s: the refused line ran %d events", line, s.rt.Events()-before)
		}
	}
	if r := s.Run("basic.publish key=q body=x", RunOptions{}); r.Err != nil || len(r.Lines) != 0 {
		t.Errorf("a publish: %q, %v", r.Lines, r.Err)
	}
}

// TestRunHoldsFrames: with Hold a client command's frames wait in the
// socket until the node is stepped, as the language's submit does.
func TestRunHoldsFrames(t *testing.T) {
	s := New(Options{Record: true})
	s.runLine("queue.declare queue=q")
	before := s.rt.Events()
	if r := s.Run("basic.publish key=q body=x", RunOptions{Hold: true}); r.Err != nil || s.rt.Events() != before {
		t.Fatalf("held publish: %v, ran %d events", r.Err, s.rt.Events()-before)
	}
	if got := s.runLine("list_queues name messages"); !slices.Equal(got, []string{"queue name=q messages=0"}) {
		t.Fatalf("before a step: %q", got)
	}
	s.runLine("run")
	if got := s.runLine("list_queues name messages"); !slices.Equal(got, []string{"queue name=q messages=1"}) {
		t.Fatalf("after run: %q", got)
	}
}
