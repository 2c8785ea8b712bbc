package engine

import (
	"encoding/json"
	"testing"
)

func snapJSON(t *testing.T, s *Sim) string {
	t.Helper()
	snap := s.Snapshot()
	snap.Furthest = 0 // the timeline's end is not part of the state
	b, err := json.Marshal(snap)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// TestSeekReproducesEveryEvent steps a scenario one event at a time,
// remembers the snapshot after each, then seeks back to every event and
// checks the state is the same.
func TestSeekReproducesEveryEvent(t *testing.T) {
	s := New(Options{Record: true})
	mustExec(t, s, "queue.declare queue=q x-max-priority=3", "basic.qos prefetch=2 on=c2.1", "basic.consume queue=q tag=c on=c2.1")
	if err := s.Run("basic.publish key=q body=m{i} count=5 priority=2", RunOptions{Hold: true}).Err; err != nil {
		t.Fatal(err)
	}
	var want []string
	for s.Step(1) == 1 {
		want = append(want, snapJSON(t, s))
	}
	mustExec(t, s, "basic.ack tag=1 on=c2.1")
	end := s.Furthest()
	final := snapJSON(t, s)
	stepStart := stepStartOf(t, want)
	for i, w := range want {
		if err := s.SeekEvent(stepStart + int64(i) + 1); err != nil {
			t.Fatal(err)
		}
		if got := snapJSON(t, s); got != w {
			t.Fatalf("after seek to event %d:\n got %s\nwant %s", stepStart+int64(i)+1, got, w)
		}
	}
	if err := s.SeekEvent(end); err != nil {
		t.Fatal(err)
	}
	if got := snapJSON(t, s); got != final {
		t.Fatalf("seek to the end:\n got %s\nwant %s", got, final)
	}
	if err := s.SeekEvent(end + 1); err == nil {
		t.Fatal("seek past the end succeeded")
	}
}

// stepStartOf finds the event count before the stepped run: the snapshot
// records its own event number.
func stepStartOf(t *testing.T, want []string) int64 {
	var v struct {
		Events int64 `json:"events"`
	}
	if err := json.Unmarshal([]byte(want[0]), &v); err != nil {
		t.Fatal(err)
	}
	return v.Events - 1
}

// TestSeekThenBranch: after seeking back, a new command replaces the
// history that followed.
func TestSeekThenBranch(t *testing.T) {
	s := New(Options{Record: true})
	mustExec(t, s, "queue.declare queue=q", "basic.publish key=q body=a")
	mid := s.Furthest()
	mustExec(t, s, "basic.publish key=q body=b", "basic.publish key=q body=c")
	if err := s.SeekEvent(mid); err != nil {
		t.Fatal(err)
	}
	out := s.runLine("basic.get queue=q no-ack")
	if len(out) != 1 || out[0] != "c1.1 get-ok tag=1 exchange= key=q messages=0 body=a" {
		t.Fatalf("after branch: %q", out)
	}
	if err := s.SeekEvent(s.Furthest()); err != nil {
		t.Fatal(err)
	}
	if got := s.Snapshot().Queues[0].Ready; got != 0 {
		t.Fatalf("replayed branch has %d ready, want 0", got)
	}
}
