package engine

import (
	"fmt"
	"slices"
	"strings"
	"testing"
)

func runScript(t *testing.T, script string) *Sim {
	t.Helper()
	s := New(Options{Record: true})
	for _, l := range strings.Split(script, "\n") {
		if l = strings.TrimSpace(l); l == "" || strings.HasPrefix(l, "#") {
			continue
		}
		for _, out := range s.runLine(l) {
			if strings.HasPrefix(out, "error:") {
				t.Fatalf("%s: %s", l, out)
			}
		}
	}
	return s
}

func kinds(ms []Marker) []string {
	var out []string
	for _, m := range ms {
		out = append(out, m.Kind)
	}
	return out
}

func firstOf(ms []Marker, kind string) (Marker, bool) {
	for _, m := range ms {
		if m.Kind == kind {
			return m, true
		}
	}
	return Marker{}, false
}

// TestMarkersCredit: the moment the reader's credit towards its channel
// runs out is a marker at exactly that event: one event earlier it had
// credit left, at the marker show credit says blocked.
func TestMarkersCredit(t *testing.T) {
	s := runScript(t, `queue.declare queue=orders
submit basic.publish key=orders body=m count=50000
run ms=100
run ms=1000`)
	ms := s.Markers()
	out, ok := firstOf(ms, "credit-out")
	if !ok {
		t.Fatalf("no credit-out marker in %v", kinds(ms))
	}
	if !strings.HasPrefix(out.Text(), "reader c1 has used its credit towards channel c1.1 (0/400)") {
		t.Errorf("the first credit-out says %q", out.Text())
	}
	if err := s.SeekEvent(out.Event); err != nil {
		t.Fatal(err)
	}
	if got := s.runLine("show credit"); !slices.Contains(got, "credit reader c1 -> channel c1.1 0/400 blocked") {
		t.Errorf("at the marker (event %d) show credit says %v", out.Event, got)
	}
	if err := s.SeekEvent(out.Event - 1); err != nil {
		t.Fatal(err)
	}
	if got := s.runLine("show credit"); !slices.Contains(got, "credit reader c1 -> channel c1.1 1/400") {
		t.Errorf("one event before the marker show credit says %v", got)
	}
	var back Marker
	for _, m := range ms {
		if m.Kind == "credit-back" && strings.HasPrefix(m.Text(), "channel c1.1 grants reader c1 more credit") {
			back, ok = m, true
			break
		}
	}
	if !ok || back.Event <= out.Event {
		t.Errorf("credit-back %+v (ok %v), after credit-out at %d", back, ok, out.Event)
	}
	if b, ok := firstOf(ms, "blocked"); !ok || b.Text() != "reader c1 stops reading its socket: the publishers on that connection wait" || b.Event < out.Event {
		t.Errorf("blocked marker %+v (ok %v)", b, ok)
	}
	if _, ok := firstOf(ms, "unblocked"); !ok {
		t.Errorf("no unblocked marker in %v", kinds(ms))
	}
	// seeking about records nothing twice
	for _, n := range []int64{0, 10, out.Event + 5, s.Furthest()} {
		if err := s.SeekEvent(n); err != nil {
			t.Fatal(err)
		}
	}
	if again := s.Markers(); len(again) != len(ms) {
		t.Errorf("after seeks there are %d markers, were %d", len(again), len(ms))
	}
	// a new branch drops the markers after it and records its own
	if err := s.SeekEvent(out.Event + 1); err != nil {
		t.Fatal(err)
	}
	s.runLine("queue.declare queue=other")
	after := s.Markers()
	type seenMarker struct {
		event      int64
		kind, text string
	}
	seen := map[seenMarker]bool{}
	for i, m := range after {
		k := seenMarker{m.Event, m.Kind, m.Text()}
		if seen[k] || (i > 0 && m.Event < after[i-1].Event) {
			t.Fatalf("after a branch the markers repeat or go back in time at %d: %+v", i, m)
		}
		seen[k] = true
	}
	if len(after) < 2 || after[0].Event != ms[0].Event || after[0].Text() != ms[0].Text() {
		t.Errorf("the markers before the branch changed: %v", kinds(after))
	}
}

func TestMarkersAlarmCrashConfirm(t *testing.T) {
	s := runScript(t, `queue.declare queue=fragile
confirm.select
basic.publish key=fragile body=x
alarm set=memory
alarm clear=memory
crash queue=fragile
crash queue=fragile
crash queue=fragile
crash queue=fragile
crash queue=fragile
crash queue=fragile`)
	ms := s.Markers()
	got := strings.Join(kinds(ms), " ")
	want := "confirm alarm-raised alarm-cleared " + strings.Repeat("queue-crashed queue-restarted ", 5) + "queue-gave-up"
	if got != want {
		t.Errorf("markers %s\nwant %s", got, want)
	}
	for _, m := range ms {
		t.Logf("#%d %s: %s", m.Event, m.Kind, m.Text())
	}
	if m, _ := firstOf(ms, "queue-gave-up"); m.Text() != "queue fragile crashed again: its supervisor gives up, and no process runs it" {
		t.Errorf("gave up: %q", m.Text())
	}
	if m, _ := firstOf(ms, "confirm"); m.Text() != "channel c1.1 confirms publishes to its client" {
		t.Errorf("confirm: %q", m.Text())
	}
}

func TestMarkersFilesAndGC(t *testing.T) {
	s := runScript(t, `set file-size-limit=16384
queue.declare queue=orders durable x-queue-version=2
confirm.select
basic.publish key=orders size=5000 count=12 persistent
basic.get queue=orders no-ack
basic.get queue=orders no-ack
basic.get queue=orders no-ack
basic.get queue=orders no-ack
basic.get queue=orders no-ack
basic.get queue=orders no-ack
basic.get queue=orders no-ack
run ms=20000`)
	ms := s.Markers()
	var lines []string
	for _, m := range ms {
		if m.Kind != "confirm" {
			lines = append(lines, fmt.Sprintf("%s: %s", m.Kind, m.Text()))
		}
	}
	text := strings.Join(lines, "\n")
	for _, want := range []string{
		"file-rolled: msg_store_persistent rolls over to a new file: 0.rdq is full, writes go to 1.rdq",
		"gc-start: msg_store_persistent_gc starts delete 0",
		"gc-end: msg_store_persistent_gc finished delete 0",
	} {
		if !strings.Contains(text, want) {
			t.Errorf("no marker %q in\n%s", want, text)
		}
	}
	start, _ := firstOf(ms, "gc-start")
	end, _ := firstOf(ms, "gc-end")
	if end.Event < start.Event {
		t.Errorf("GC ends (%d) before it starts (%d)", end.Event, start.Event)
	}
}

// TestNoCopyHoldsANotice: the node's outbox is part of the state, and
// the engine empties it after each event before a checkpoint or a seek's
// copy is taken, so no copy holds a notice that a restored state would
// tell a second time.
func TestNoCopyHoldsANotice(t *testing.T) {
	// a checkpoint every third event, then none: the seek keeps its own
	for _, interval := range []int64{3, 1 << 40} {
		s := New(Options{Record: true})
		s.cps.interval, s.cps.next = interval, interval
		mustExec(t, s, "queue.declare queue=q", "confirm.select", "basic.consume queue=q tag=w on=c2.1",
			"basic.publish key=q body=m count=600", "alarm set=memory", "alarm clear=memory")
		if err := s.SeekEvent(s.Furthest() / 2); err != nil {
			t.Fatal(err)
		}
		copies := s.cps.list
		if s.cps.near != nil {
			copies = append(copies, s.cps.near)
		}
		if len(copies) < 1 || interval == 3 && len(copies) < 20 {
			t.Fatalf("%d copies with a checkpoint every %d events: too few to check", len(copies), interval)
		}
		for _, cp := range copies {
			if ns := cp.state.cluster.TakeNotices(nil); len(ns) > 0 {
				t.Errorf("the copy at event %d holds %d notices, the first %+v", cp.at, len(ns), ns[0])
			}
		}
	}
}
