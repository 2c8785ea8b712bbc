package engine

import (
	"slices"
	"strings"
	"testing"

	"warren/engine/script"
)

// TestEveryCommandHasOneHandler: each command of the language is handled
// in exactly one family's table, and the tables handle nothing else.
func TestEveryCommandHasOneHandler(t *testing.T) {
	count := map[string]int{}
	for _, f := range families {
		for _, c := range f {
			name, h := c.name, c.handler
			count[name]++
			if h.apply == nil && h.run == nil {
				t.Errorf("%s: the handler neither applies nor runs anything", name)
			}
			if (h.family == familyShow || h.family == familyExpect) && (h.apply != nil || h.run == nil) {
				t.Errorf("%s: a view or a goal looks (run) and changes nothing (no apply)", name)
			}
		}
	}
	var specs []string
	for _, sp := range script.Specs() {
		specs = append(specs, sp.Name)
		if count[sp.Name] != 1 {
			t.Errorf("%s: %d handlers, want 1", sp.Name, count[sp.Name])
		}
	}
	for name := range count {
		if !slices.Contains(specs, name) {
			t.Errorf("%s: a handler with no spec in engine/script", name)
		}
	}
}

// refusedChangesNothing runs a command that must be refused and checks
// that the simulation, its history and its timeline are as they were.
func refusedChangesNothing(t *testing.T, s *Sim, line, want string) {
	t.Helper()
	before := wholeState(t, s)
	ops, applied := len(s.ops), s.applied
	out := s.runLine(line)
	if len(out) != 1 || !strings.HasPrefix(out[0], "error: ") || !strings.Contains(out[0], want) {
		t.Fatalf("%q: got %q, want one error line saying %q", line, out, want)
	}
	if after := wholeState(t, s); after != before {
		t.Fatalf("%q changed the simulation:\nbefore %s\nafter  %s", line, before, after)
	}
	if len(s.ops) != ops || s.applied != applied {
		t.Fatalf("%q changed the history: %d ops (%d applied), was %d (%d)", line, len(s.ops), s.applied, ops, applied)
	}
}

// TestRefusedAppCommandsChangeNothing: stop_app and start_app that cannot
// be done are refused before the clock moves or a pending event runs.
func TestRefusedAppCommandsChangeNothing(t *testing.T) {
	s := New(Options{Record: true})
	mustExec(t, s, "queue.declare queue=q")
	if err := s.Run("basic.publish key=q body=pending", RunOptions{Hold: true}).Err; err != nil {
		t.Fatal(err)
	}
	refusedChangesNothing(t, s, "stop_app node=1", "a single node cannot be stopped")
	refusedChangesNothing(t, s, "start_app node=1", "a single node cannot be stopped")

	c := New(Options{Record: true})
	mustExec(t, c, "cluster nodes=2", "queue.declare queue=q")
	if err := c.Run("basic.publish key=q body=pending", RunOptions{Hold: true}).Err; err != nil {
		t.Fatal(err)
	}
	refusedChangesNothing(t, c, "stop_app node=3", `no node "3" in the cluster`)
	refusedChangesNothing(t, c, "start_app node=rabbit-9@localhost", `no node "rabbit-9@localhost"`)
}

// TestRefusedRestartKeepsTheFuture: after a seek back, a restart that is
// refused leaves the recorded future in place: the timeline still ends
// where it did, and a seek forward reaches it.
func TestRefusedRestartKeepsTheFuture(t *testing.T) {
	s := New(Options{Record: true})
	mustExec(t, s, "cluster nodes=2", "queue.declare queue=q", "basic.publish key=q body=m{i} count=3", "basic.consume queue=q no-ack")
	end, trace := s.Furthest(), s.Transcript()
	if err := s.SeekEvent(end / 2); err != nil {
		t.Fatal(err)
	}
	refusedChangesNothing(t, s, "restart", "restart: ") // in a cluster
	if got := s.Furthest(); got != end {
		t.Fatalf("timeline end after a refused restart: %d, was %d", got, end)
	}
	if err := s.SeekEvent(end); err != nil {
		t.Fatal(err)
	}
	if got := s.Transcript(); !slices.Equal(got, trace) {
		t.Fatalf("trace after seeking to the end again:\n%v\nwas\n%v", got, trace)
	}
}

// TestStoreSyncStopsItsTimer: the message store syncs when its mailbox
// empties, and a sync stops the sync timer it armed while the writes were
// waiting (rabbit_msg_store's internal_sync calls stop_sync_timer), so no
// stale sync fires 25 ms later; every publish is confirmed.
func TestStoreSyncStopsItsTimer(t *testing.T) {
	s := New(Options{Record: true})
	mustExec(t, s, "queue.declare queue=q durable", "confirm.select")
	if err := s.Run("basic.publish key=q persistent size=5000 count=50", RunOptions{Hold: true}).Err; err != nil {
		t.Fatal(err)
	}
	out := s.runLine("run")
	calls, timers := 0, 0
	for i := int64(1); i <= s.EventCount(); i++ {
		e := s.Event(i)
		line := s.Describe(&e)
		switch {
		case strings.Contains(line, "msg_store_persistent: msg_store_call from"):
			calls++
		case strings.Contains(line, "msg_store_persistent: sync from"):
			timers++
		}
	}
	if calls < 50 || timers != 0 {
		t.Errorf("the store handled %d calls and its sync timer fired %d times: want 50 calls and no timer after it synced", calls, timers)
	}
	if n := strings.Count(strings.Join(out, "\n"), "confirm-ack"); n == 0 {
		t.Errorf("no confirm after the burst:\n%s", strings.Join(out, "\n"))
	}
}
