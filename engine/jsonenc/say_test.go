package jsonenc

import (
	"strconv"
	"strings"
	"testing"
	"time"

	"warren/engine"
	"warren/engine/say"
)

// TestSaid: a sentence goes out as its English and its key and
// arguments, a sentence inside it as a key and arguments of its own.
func TestSaid(t *testing.T) {
	e := &Encoder{}
	e.Said("", say.T("engine.ack", "queue q", "channel c1.1", say.S("engine.readyUnacked", "2", "1")))
	want := `{"text":"queue q takes an ack from channel c1.1; 2 ready, 1 unacked","key":"engine.ack","args":["queue q","channel c1.1",{"key":"engine.readyUnacked","args":["2","1"]}]}`
	if got := e.String(); got != want {
		t.Errorf("got\n%s\nwant\n%s", got, want)
	}
}

// TestAnswer: a command's answer gives beside its lines the sentence of
// each line the engine says as data, what a reply of RabbitMQ's means,
// and where the time budget cut it.
func TestAnswer(t *testing.T) {
	s := engine.New(engine.Options{})
	s.Run("queue.declare queue=q", engine.RunOptions{})
	got := Answer(s.Run("expect queue=q messages=1", engine.RunOptions{}))
	want := `{"lines":["goal not met: queue q has messages=0 (want 1)"],"said":[[0,{"text":"goal not met: queue q has messages=0 (want 1)","key":"con.goalNotMet","args":[{"key":"engine.g.has","args":["queue q",{"key":"","args":[{"key":"engine.g.want","args":["messages=0","1"]}]}]}]}]]}`
	if got != want {
		t.Errorf("got\n%s\nwant\n%s", got, want)
	}
	// a reply of RabbitMQ's comes with what it means
	want = `{"lines":["error: Parameter does not exist"],"explain":[[0,{"text":"","key":"con.ctl.noParameter","args":[]}]]}`
	if got := Answer(s.Run("clear_policy name=nope", engine.RunOptions{})); got != want {
		t.Errorf("got\n%s\nwant\n%s", got, want)
	}
	var ticks time.Duration
	s.SetTimeBudget(time.Nanosecond, func() time.Duration { ticks += time.Second; return ticks })
	r := s.Run("basic.publish key=q count="+strconv.Itoa(engine.TimeBudgetFloor), engine.RunOptions{})
	if got := Answer(r); !strings.Contains(got, `"key":"con.stopTime"`) || !strings.HasSuffix(got, `,"cut":`+strconv.FormatInt(r.Cut, 10)+"}") || r.Cut == 0 {
		t.Errorf("a command the time budget stopped: %s (cut %d)", got, r.Cut)
	}
	// the next command was not cut
	if got := Answer(s.Run("show queues", engine.RunOptions{})); strings.Contains(got, `"cut"`) {
		t.Errorf("a command after a cut one: %s", got)
	}
}
