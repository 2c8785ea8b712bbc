package engine

import (
	"slices"
	"strings"
	"testing"

	"warren/engine/say"
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

// TestRunSaysErrorsAsData: a refusal of warren's own comes as its
// sentence, whose English is the line; one that is RabbitMQ's words
// (rabbitmqctl's answer) stays words, said as RabbitMQ says them.
func TestRunSaysErrorsAsData(t *testing.T) {
	s := New(Options{})
	for _, c := range []struct{ line, key string }{
		{"basic.qos prefetch=lots", "con.mustInt"},
		{"seek 3", "con.unknownCommand"},
		{"fault enospc", "con.faultNoPath"},
		{"queue.declare queue=q", ""},
		{"cluster nodes=2", "con.clusterFirst"},
		{"crash queue=nope", "con.crashNoQueue"},
	} {
		r := s.Run(c.line, RunOptions{})
		if c.key == "" {
			continue
		}
		if len(r.Said) != 1 || r.Said[0].At != 0 || r.Said[0].Text.Key != "con.error" || r.Said[0].Text.String() != r.Lines[0] {
			t.Errorf("%s: %q said as %+v", c.line, r.Lines, r.Said)
			continue
		}
		if keys := keysOf(r.Said[0].Text); !slices.Contains(keys, c.key) {
			t.Errorf("%s: said with %q, want %s among them", c.line, keys, c.key)
		}
	}
	r := s.Run(`set_policy name=p pattern="(q" max-length=1`, RunOptions{})
	if len(r.Lines) != 1 || !strings.Contains(r.Lines[0], "Validation failed") || len(r.Said) != 0 {
		t.Errorf("rabbitmqctl's refusal: %q said as %+v", r.Lines, r.Said)
	}
}

// keysOf lists the keys of t and of the sentences inside it.
func keysOf(t say.Text) []string {
	keys := []string{t.Key}
	for _, a := range t.Args {
		if in, ok := a.(say.Text); ok {
			keys = append(keys, keysOf(in)...)
		}
	}
	return keys
}
