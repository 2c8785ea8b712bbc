package engine

import (
	"io"
	"maps"
	"slices"
	"testing"

	"warren/engine/clone"
	"warren/engine/vfs"
)

// checkpointScript exercises what a checkpoint must hold: durable queues
// writing files, publisher confirms, priorities, TTL timers, a consumer
// acking as it goes, a queue crash and its recovery (a channel waits for
// it holding a closure), an alarm.
var checkpointScript = []string{
	"queue.declare queue=d durable",
	"queue.declare queue=p x-max-priority=5",
	"queue.declare queue=t x-message-ttl=20",
	"confirm.select on=c1.1",
	"basic.qos prefetch=20 on=c2.1",
	"basic.consume queue=d tag=cd on=c2.1 ack-every=3",
	"basic.publish key=d size=300 persistent count=300",
	"basic.publish key=p body=m{i} priority=3 count=60",
	"basic.publish key=t body=x count=40",
	"crash queue=d",
	"basic.publish key=d body=after{i} persistent count=150",
	"wait ms=50",
	"basic.get queue=p",
	"alarm set=memory",
	"alarm clear=memory",
	"basic.publish key=p body=late count=30 priority=1",
}

// checkpointSim records the script with checkpoints every interval events.
func checkpointSim(t *testing.T, interval int64) *Sim {
	t.Helper()
	s := New(Options{Record: true})
	s.cps.interval, s.cps.next = interval, interval
	mustExec(t, s, checkpointScript...)
	return s
}

// diskBytes reads every file of the node's disk.
func diskBytes(t *testing.T, s *Sim) map[string]string {
	t.Helper()
	out := map[string]string{}
	var walk func(fs *vfs.MemFS, dir string)
	walk = func(fs *vfs.MemFS, dir string) {
		names, err := fs.List(dir)
		if err != nil {
			t.Fatal(err)
		}
		for _, n := range names {
			p := dir + "/" + n
			if dir == "" || dir == "." {
				p = n
			}
			f, err := fs.Open(p)
			if err != nil {
				walk(fs, p) // a directory
				continue
			}
			b, err := io.ReadAll(io.NewSectionReader(f, 0, 1<<40))
			f.Close()
			if err != nil {
				t.Fatal(err)
			}
			out[p] = string(b)
		}
	}
	walk(s.node.Disk, ".")
	return out
}

// cpState is everything compared after a seek.
type cpState struct {
	snap  string
	disk  map[string]string
	state *state
}

func stateAt(t *testing.T, s *Sim, n int64, viaCheckpoints bool) cpState {
	t.Helper()
	if !viaCheckpoints {
		saved, near := s.cps.list, s.cps.near
		s.cps.list, s.cps.near = nil, nil
		s.head = nil // nor from a parked end (head.go)
		defer func() { s.cps.list, s.cps.near = saved, near }()
		if err := s.SeekEvent(0); err != nil {
			t.Fatal(err)
		}
	} else if err := s.SeekEvent(s.Furthest()); err != nil {
		t.Fatal(err)
	}
	if err := s.SeekEvent(n); err != nil {
		t.Fatal(err)
	}
	if got := s.rt.Events(); got != n {
		t.Fatalf("seek to %d landed on %d", n, got)
	}
	st, _, err := s.copyState(0)
	if err != nil {
		// a state holding a closure cannot be copied: compare it as seen
		st = nil
	}
	return cpState{snap: snapJSON(t, s), disk: diskBytes(t, s), state: st}
}

func sameState(t *testing.T, n int64, a, b cpState) {
	t.Helper()
	if a.snap != b.snap {
		t.Fatalf("event %d: snapshot through a checkpoint\n%s\nfrom the start\n%s", n, a.snap, b.snap)
	}
	if len(a.disk) != len(b.disk) {
		t.Fatalf("event %d: %d files against %d", n, len(a.disk), len(b.disk))
	}
	for name, bytes := range a.disk {
		if b.disk[name] != bytes {
			t.Fatalf("event %d: file %s differs (%d bytes against %d)", n, name, len(bytes), len(b.disk[name]))
		}
	}
	if (a.state == nil) != (b.state == nil) {
		t.Fatalf("event %d: one state holds a closure, the other not", n)
	}
	if a.state != nil {
		if d := clone.Diff(a.state, b.state); d != "" {
			t.Fatalf("event %d: the state through a checkpoint differs from a replay from the start at %s", n, d)
		}
	}
}

// TestCheckpointSeekMatchesReplay: a seek that starts from a checkpoint
// gives exactly the state a replay from the start gives (every field of
// the runtime, the node, its disk and the client, the snapshot, the file
// bytes) at every checkpoint, on either side of it, and at points between.
func TestCheckpointSeekMatchesReplay(t *testing.T) {
	s := checkpointSim(t, 500)
	end := s.Furthest()
	if len(s.cps.list) < 5 {
		t.Fatalf("only %d checkpoints in %d events", len(s.cps.list), end)
	}
	points := map[int64]bool{end: true, 1: true}
	for _, cp := range s.cps.list {
		points[cp.at], points[cp.at-1], points[min(cp.at+1, end)] = true, true, true
	}
	for n := int64(0); n < end; n += end / 13 {
		points[n] = true
	}
	compared := 0
	for n := range points {
		sameState(t, n, stateAt(t, s, n, true), stateAt(t, s, n, false))
		compared++
	}
	t.Logf("%d points compared over %d events, %d checkpoints", compared, end, len(s.cps.list))
}

// TestCheckpointSeekThenContinue: after a seek through a checkpoint, new
// commands print the same trace and reach the same state as after a seek
// by a replay from the start.
func TestCheckpointSeekThenContinue(t *testing.T) {
	probe := checkpointSim(t, 300)
	end := probe.Furthest()
	for _, n := range []int64{end / 5, end / 3, end / 2, 2 * end / 3, end - 1} {
		a, b := checkpointSim(t, 300), checkpointSim(t, 300)
		stateAt(t, a, n, true)
		stateAt(t, b, n, false)
		var outA, outB []string
		for _, l := range []string{"step n=40", "basic.publish key=p body=z{i} count=25", "basic.get queue=p", "run"} {
			outA = append(outA, a.runLine(l)...)
			outB = append(outB, b.runLine(l)...)
		}
		if len(outA) != len(outB) {
			t.Fatalf("from event %d: %d lines against %d", n, len(outA), len(outB))
		}
		for i := range outA {
			if outA[i] != outB[i] {
				t.Fatalf("from event %d, line %d: %q against %q", n, i, outA[i], outB[i])
			}
		}
		ta, tb := a.Transcript(), b.Transcript()
		if len(ta) != len(tb) {
			t.Fatalf("from event %d: transcripts of %d and %d lines", n, len(ta), len(tb))
		}
		for i := range ta {
			if ta[i] != tb[i] {
				t.Fatalf("from event %d, transcript line %d: %+v against %+v", n, i, ta[i], tb[i])
			}
		}
		sameState(t, a.rt.Events(), stateAt(t, a, a.rt.Events(), true), stateAt(t, b, b.rt.Events(), false))
	}
}

// here is the state s is in now, for sameState.
func here(t *testing.T, s *Sim) cpState {
	t.Helper()
	st, _, err := s.copyState(0)
	if err != nil {
		st = nil
	}
	return cpState{snap: snapJSON(t, s), disk: diskBytes(t, s), state: st}
}

// TestStepBackThroughTheSeeksCopy: a seek keeps a copy nearGap events
// before where it went; stepping back from there starts from that copy,
// and every state on the way, across the copy and past it, is the state
// a replay from the start gives.
func TestStepBackThroughTheSeeksCopy(t *testing.T) {
	s := checkpointSim(t, 1<<40) // no checkpoint of the run's own
	ref := checkpointSim(t, 1<<40)
	end := s.Furthest()
	for _, n := range []int64{end / 2, end - 1} {
		if err := s.SeekEvent(n); err != nil {
			t.Fatal(err)
		}
		if s.cps.near == nil || s.cps.near.at != n-nearGap {
			t.Fatalf("seek to %d kept no copy at %d: %+v", n, n-nearGap, s.cps.near)
		}
		back := func(to int64) {
			t.Helper()
			for s.rt.Events() > to {
				want := s.rt.Events() - 1
				if err := s.StepBack(); err != nil {
					t.Fatal(err)
				}
				if s.rt.Events() != want {
					t.Fatalf("step back to %d landed on %d", want, s.rt.Events())
				}
				sameState(t, want, here(t, s), stateAt(t, ref, want, false))
			}
		}
		back(n - 3)
		if err := s.SeekEvent(n - nearGap + 2); err != nil {
			t.Fatal(err)
		}
		back(n - nearGap - 2) // across the copy, then from the start
	}
	// new history drops a copy past where it branches
	if err := s.SeekEvent(end / 4); err != nil {
		t.Fatal(err)
	}
	s.runLine("step n=3")
	if s.cps.near != nil && s.cps.near.at > end/4 {
		t.Fatalf("a copy at %d survived a branch at %d", s.cps.near.at, end/4)
	}
}

// TestCheckpointCountsWhatItShares: a checkpoint shares its files' chunks
// with the state it was taken from rather than copying them, and counts
// them in the memory it holds, as it keeps them alive once the state has
// moved on: at least every full chunk of every file beside what its copy
// allocated.
func TestCheckpointCountsWhatItShares(t *testing.T) {
	s := checkpointSim(t, 500)
	checked := 0
	for _, cp := range slices.Clone(s.cps.list) {
		_, copied, err := clone.Copy(cp.state)
		if err != nil {
			t.Fatal(err)
		}
		if err := s.SeekEvent(cp.at); err != nil {
			t.Fatal(err)
		}
		var chunks int64
		for _, b := range diskBytes(t, s) {
			chunks += int64(len(b)) / 4096 * 4096
		}
		if chunks == 0 {
			continue
		}
		checked++
		if cp.bytes < copied+chunks {
			t.Errorf("the checkpoint at %d counts %d bytes: its copy allocates %d and its files hold %d in full chunks", cp.at, cp.bytes, copied, chunks)
		}
	}
	if checked == 0 {
		t.Fatal("no checkpoint with a file of a full chunk")
	}
	if cs := s.Checkpoints(); cs.Bytes < s.cps.bytes() {
		t.Fatalf("the stats say %d bytes of %d", cs.Bytes, s.cps.bytes())
	}
}

// TestCheckpointsCountSharedOnce: the checkpoints' bytes count what their
// copies allocated, and each value they share once, however many of them
// share it, as they keep the run through thinning and a new branch.
func TestCheckpointsCountSharedOnce(t *testing.T) {
	s := checkpointSim(t, 500)
	recount := func(when string) {
		t.Helper()
		var copied, whole int64
		union := map[uintptr]int{}
		for _, cp := range s.cps.list {
			_, size, err := clone.CopySized(cp.state, 0)
			if err != nil {
				t.Fatal(err)
			}
			copied += size.Copied
			whole += cp.bytes
			maps.Copy(union, size.Shares)
		}
		var shared int64
		for _, n := range union {
			shared += int64(n)
		}
		if s.cps.bytes() != copied+shared {
			t.Fatalf("%s: the checkpoints count %d bytes; their copies allocate %d and share %d", when, s.cps.bytes(), copied, shared)
		}
		if len(s.cps.list) > 1 && s.cps.bytes() >= whole {
			t.Fatalf("%s: %d checkpoints count %d bytes, as much as each counted whole (%d): nothing counted once", when, len(s.cps.list), s.cps.bytes(), whole)
		}
	}
	if len(s.cps.list) < 4 {
		t.Fatalf("%d checkpoints", len(s.cps.list))
	}
	recount("recorded")
	s.cps.thin()
	recount("thinned")
	s.cps.dropAfter(s.cps.list[len(s.cps.list)/2].at)
	recount("a branch")
	s.cps.dropAfter(0)
	if s.cps.bytes() != 0 || len(s.cps.held) != 0 {
		t.Fatalf("with no checkpoint, %d bytes and %d shared values are counted", s.cps.bytes(), len(s.cps.held))
	}
}
