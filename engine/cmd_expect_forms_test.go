package engine

import (
	"fmt"
	"strings"
	"testing"
)

func goal(t *testing.T, s *Sim, line string) Goal {
	t.Helper()
	g, err := s.Expect(line)
	if err != nil {
		t.Fatalf("%s: %v", line, err)
	}
	return g
}

func TestGoalsOnProcessCreditFilesAlarmsNever(t *testing.T) {
	s := runScript(t, `queue.declare queue=orders
submit basic.publish key=orders body=m count=50000
run ms=100`)
	for _, c := range []struct {
		line string
		met  bool
		text string
	}{
		{`expect credit="reader c1 -> channel c1.1" left=0 blocked=yes`, true, "credit reader c1 -> channel c1.1 left=0 blocked=yes"},
		{`expect credit="reader c1 -> channel c1.1" left=400`, false, "credit reader c1 -> channel c1.1 has left=0 (want 400)"},
		{`expect credit="reader c9 -> channel c9.1" left=0`, false, "credit reader c9 -> channel c9.1 (no such link yet)"},
		{`expect process="reader c1" state=waiting blocked=yes`, true, "reader c1 state=waiting blocked=yes"},
		{`expect process="queue orders" mailbox=0`, false, "queue orders has mailbox="},
		{`expect never=blocked on=c1`, false, "reader c1 was never blocked (it stopped reading at event "},
		{`expect never=blocked on=c2`, true, "reader c2 was never blocked"},
		{`expect alarm=none`, true, "no alarm (alarms: none)"},
		{`expect queue=orders messages=6591 within-ms=200`, false, "queue orders messages=6591 within 200 ms (it is t=250.052ms)"},
		{`expect queue=orders messages=6591 within-ms=300`, true, "queue orders messages=6591 within 300 ms"},
	} {
		g := goal(t, s, c.line)
		if g.Met != c.met || !strings.HasPrefix(g.Text(), c.text) {
			t.Errorf("%s: met=%v %q, want met=%v %q", c.line, g.Met, g.Text(), c.met, c.text)
		}
	}
	// never looks at what happened up to the moment shown
	if err := s.SeekEvent(10); err != nil {
		t.Fatal(err)
	}
	if g := goal(t, s, `expect never=blocked on=c1`); !g.Met {
		t.Errorf("at event 10 the reader had not been blocked yet: %q", g.Text())
	}

	s = runScript(t, `queue.declare queue=orders durable x-queue-version=2
confirm.select
basic.publish key=orders size=5000 count=3 persistent
basic.get queue=orders no-ack
alarm set=memory`)
	for _, c := range []struct {
		line string
		met  bool
		text string
	}{
		{`expect file=0.rdq entries=3 live=2 dead=1`, true, "file 0.rdq entries=3 live=2 dead=1"},
		{`expect file=0.rdq dead=0`, false, "file 0.rdq has dead=1 (want 0)"},
		{`expect file=7.rdq entries=1`, false, "file 7.rdq (there is no such file)"},
		{`expect alarm=memory`, true, "the memory alarm is raised"},
		{`expect alarm=disk`, false, "the disk alarm is raised (alarms: memory)"},
		{`expect never=dropped on=c1.1`, true, "c1.1 never had a publish dropped"},
	} {
		g := goal(t, s, c.line)
		if g.Met != c.met || !strings.HasPrefix(g.Text(), c.text) {
			t.Errorf("%s: met=%v %q, want met=%v %q", c.line, g.Met, g.Text(), c.met, c.text)
		}
	}
	for line, want := range map[string]string{
		`expect file=0.rdq colour=red`:              "colour is not something file= compares",
		`expect alarm=memory queue=orders`:          "a goal checks one thing",
		`expect never=dropped on=c1`:                "never=dropped is about a channel",
		`expect never=blocked`:                      "never= needs on=",
		`expect process="queue orders"`:             "say what process= should show",
		`expect credit="a -> b" left=1 within-ms=x`: "within-ms",
	} {
		if _, err := s.Expect(line); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%s: error %v, want %q", line, err, want)
		}
	}
}

func TestGoalsFileGoneAndAfterRestart(t *testing.T) {
	s := runScript(t, `set file-size-limit=16384
queue.declare queue=big durable x-queue-version=2
confirm.select
basic.publish key=big size=5000 count=5 persistent
basic.publish key=big body=keep-me persistent`)
	check := func(line string, met bool, text string) {
		t.Helper()
		g := goal(t, s, line)
		if g.Met != met || !strings.HasPrefix(g.Text(), text) {
			t.Errorf("%s: met=%v %q, want met=%v %q", line, g.Met, g.Text(), met, text)
		}
	}
	check(`expect file=0.rdq gone`, false, "file 0.rdq is gone (it is there, 20756 bytes)")
	check(`expect file=9.rdq gone`, true, "file 9.rdq is gone")
	get := `expect on=c1.1 saw=get-ok body=keep-me redelivered after=power-loss`
	check(get, false, "c1.1 saw get-ok body=keep-me redelivered after a power-loss restart (the node has had no power-loss restart)")

	// a crash restart keeps what reached the page cache: the message comes
	// back, but not after a power loss
	for _, l := range []string{"restart kind=crash", "basic.get queue=big no-ack", "basic.get queue=big no-ack", "basic.get queue=big no-ack",
		"basic.get queue=big no-ack", "basic.get queue=big no-ack", "basic.get queue=big no-ack"} {
		s.runLine(l)
	}
	check(`expect on=c1.1 saw=get-ok body=keep-me redelivered after=crash`, true, "c1.1 saw get-ok body=keep-me redelivered after a crash restart")
	check(get, false, "c1.1 saw get-ok body=keep-me redelivered after a power-loss restart (the node has had no power-loss restart)")
	check(`expect file=msg_store_persistent/0.rdq gone`, true, "file msg_store_persistent/0.rdq is gone")
	// the transient store has a 0.rdq of its own: a bare name is gone only
	// when no file has it
	check(`expect file=0.rdq gone`, false, "file 0.rdq is gone (it is there, 0 bytes)")
	// a power loss after the get: the line came before it
	s.runLine("restart kind=power-loss")
	check(get, false, "c1.1 saw get-ok body=keep-me redelivered after a power-loss restart (every such line came before it, at event ")

	// published, then a clean stop syncs the v2 index; a power loss then
	// keeps the message, and the get after it meets the goal
	s = runScript(t, `queue.declare queue=orders durable x-queue-version=2
confirm.select
basic.publish key=orders body=keep-me persistent
restart
restart kind=power-loss
basic.get queue=orders no-ack`)
	check(get, true, "c1.1 saw get-ok body=keep-me redelivered after a power-loss restart")
	check(`expect on=c1.1 saw=get-ok body=other after=power-loss`, false, "c1.1 saw get-ok body=other after a power-loss restart (no such line yet)")

	for line, want := range map[string]string{
		`expect file=0.rdq gone entries=1`:           "a file that is gone has no entries",
		`expect queue=orders gone`:                   "gone goes with file=",
		`expect queue=orders messages=1 after=crash`: "after= goes with saw=",
		`expect on=c1.1 saw=get-ok after=reboot`:     "after must be one of clean, crash, power-loss",
	} {
		if _, err := s.Expect(line); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%s: error %v, want %q", line, err, want)
		}
	}
}

// TestGoalsSayWhatTheyCompare: a goal that compares values hands each one
// over, wanted and found, in the goal's order (a widget draws them beside
// the reader's state), with a credit link's initial credit as the most
// left= can be; a goal that looks through the trace has none.
func TestGoalsSayWhatTheyCompare(t *testing.T) {
	s := runScript(t, `queue.declare queue=orders
submit basic.publish key=orders body=m count=50000
run ms=100`)
	for _, c := range []struct {
		line   string
		checks string
	}{
		{`expect credit="reader c1 -> channel c1.1" blocked=yes left=400`, "[{blocked yes yes 0} {left 400 0 400}]"},
		{`expect queue=orders consumers=1`, "[{consumers 1 0 0}]"},
		{`expect process="reader c1" state=waiting`, "[{state waiting waiting 0}]"},
		{`expect never=blocked on=c2`, "[]"},
	} {
		if got := fmt.Sprint(goal(t, s, c.line).Checks); got != c.checks {
			t.Errorf("%s: checks %s, want %s", c.line, got, c.checks)
		}
	}
}

// TestGoalsOnFileSynced: a file goal's synced= compares the bytes of the
// file that are fsynced, which a power loss keeps: 3.10's shared store
// fsyncs its file before it confirms, 3.13's does not, and a version 2
// queue's .qi is only written.
func TestGoalsOnFileSynced(t *testing.T) {
	for _, c := range []struct {
		version, line string
		met           bool
		text          string
	}{
		{"3.10", `expect file=msg_store_persistent/0.rdq size=5192 synced=5192`, true, "file msg_store_persistent/0.rdq size=5192 synced=5192"},
		{"3.13", `expect file=msg_store_persistent/0.rdq synced=5192`, false, "file msg_store_persistent/0.rdq has synced=0 (want 5192)"},
		{"3.13", `expect file=msg_store_persistent/0.rdq size=5192 synced=0`, true, "file msg_store_persistent/0.rdq size=5192 synced=0"},
		{"3.10", `expect file=0.qi size=96 synced=0`, true, "file 0.qi size=96 synced=0"},
	} {
		s := runScript(t, "set version="+c.version+`
queue.declare queue=orders durable x-queue-version=2
confirm.select
basic.publish key=orders size=5000 persistent`)
		g := goal(t, s, c.line)
		if g.Met != c.met || !strings.HasPrefix(g.Text(), c.text) {
			t.Errorf("%s on %s: met=%v %q, want met=%v %q", c.line, c.version, g.Met, g.Text(), c.met, c.text)
		}
	}
}
