package engine

import (
	"strings"
	"testing"
)

// gcLines runs lines on a new simulation and returns what show gc prints
// before and after.
func gcLines(t *testing.T, lines ...string) (before, after []string) {
	t.Helper()
	s := New(Options{})
	mustExec(t, s, lines[:5]...)
	before = s.runLine("show gc")
	mustExec(t, s, lines[5:]...)
	return before, s.runLine("show gc")
}

// want checks that each line is printed, in this order (other lines may
// come between).
func wantInOrder(t *testing.T, got []string, want ...string) {
	t.Helper()
	i := 0
	for _, l := range got {
		if i < len(want) && strings.HasPrefix(l, want[i]) {
			i++
		}
	}
	if i < len(want) {
		t.Errorf("show gc prints\n%s\nwant a line starting %q (after the ones before it)", strings.Join(got, "\n"), want[i])
	}
}

// mergeScript fills four 16 kB files of the message store with twelve 5 kB
// messages and acks seven of them, so that 3.10 merges 1.rdq into 0.rdq.
var mergeScript = []string{
	"set file-size-limit=16384",
	"queue.declare queue=big durable x-queue-version=2",
	"confirm.select",
	"basic.publish key=big size=5000 count=12 persistent",
	"basic.consume queue=big tag=w on=c2.1",
	"basic.ack tag=1 on=c2.1", "basic.ack tag=2 on=c2.1", "basic.ack tag=3 on=c2.1",
	"basic.ack tag=5 on=c2.1", "basic.ack tag=6 on=c2.1", "basic.ack tag=7 on=c2.1", "basic.ack tag=9 on=c2.1",
	"run ms=1000",
}

// TestShowGCMerge: show gc says where the store stands before any job
// (instead of nothing), then frames 3.10's merge of 1.rdq into 0.rdq with
// its start (the files' live and dead bytes), each entry moved, and its
// end, around the step lines it printed before.
func TestShowGCMerge(t *testing.T) {
	before, after := gcLines(t, mergeScript...)
	wantInOrder(t, before, "gc store msg_store_persistent files=4 size=62268 live=62268 dead=0 (0.0% dead): merges two neighbouring files once the files hold more than 32768 bytes")
	wantInOrder(t, after,
		"gc combine 1 into 0: start t=",
		"gc combine 1 into 0: scan msg_store_persistent/0.rdq",
		"gc combine 1 into 0: copy msg_store_persistent/0.rdt (1 messages from 0.rdq@15567 to 0.rdt@0)",
		"gc combine 1 into 0: moved ",
		"gc combine 1 into 0: copy msg_store_persistent/0.rdq (1 messages from 1.rdq@15567 to 0.rdq@5189)",
		"gc combine 1 into 0: moved ",
		"gc combine 1 into 0: remove msg_store_persistent/1.rdq (merged into 0.rdq (10378 bytes); 31134 bytes reclaimed)",
		"gc combine 1 into 0: end t=",
		"gc store msg_store_persistent files=3 size=31134 live=25945 dead=5189 (16.7% dead)",
	)
	for _, l := range after {
		switch {
		case strings.HasPrefix(l, "gc combine 1 into 0: start"):
			if !strings.HasSuffix(l, " msg_store_persistent 0.rdq size=20756 live=5189 dead=15567, 1.rdq size=20756 live=5189 dead=15567") {
				t.Errorf("start line %q", l)
			}
		case strings.HasPrefix(l, "gc combine 1 into 0: end"):
			if !strings.HasSuffix(l, ", 2 moved; 0.rdq size=10378 live=10378 dead=0, 1.rdq gone") {
				t.Errorf("end line %q", l)
			}
		case strings.HasPrefix(l, "gc combine 1 into 0: moved") && strings.Contains(l, " to 0.rdq@5189"):
			if !strings.Contains(l, " from 1.rdq@15567 to 0.rdq@5189 (5189 bytes)") {
				t.Errorf("moved line %q", l)
			}
		}
	}
}

// TestShowGCCompaction: 3.13 compacts 1.rdq in place; show gc frames the
// job and names the entry it moved.
func TestShowGCCompaction(t *testing.T) {
	before, after := gcLines(t,
		"set version=3.13",
		"set file-size-limit=16384",
		"queue.declare queue=big durable x-queue-version=2",
		"basic.publish key=big size=5000 count=12 persistent",
		"basic.consume queue=big tag=w on=c2.1",
		"basic.ack tag=5 on=c2.1", "basic.ack tag=6 on=c2.1", "basic.ack tag=7 on=c2.1",
		"run ms=20000",
	)
	wantInOrder(t, before, "gc store msg_store_persistent files=4 size=62268 live=62268 dead=0 (0.0% dead): compacts a file in place when less than half of it is live")
	wantInOrder(t, after,
		"gc compact 1: start t=",
		"gc compact 1: move msg_store_persistent/1.rdq (5189 bytes from 15567 to 0)",
		"gc compact 1: moved ",
		"gc compact 1: end t=",
		"gc truncate 1: start t=",
		"gc truncate 1: end t=",
	)
	for _, l := range after {
		if strings.HasPrefix(l, "gc compact 1: start") && !strings.HasSuffix(l, "1.rdq size=20756 live=5189 dead=15567") {
			t.Errorf("start line %q", l)
		}
		if strings.HasPrefix(l, "gc compact 1: moved") && !strings.Contains(l, " from 1.rdq@15567 to 1.rdq@0 (5189 bytes)") {
			t.Errorf("moved line %q", l)
		}
		if strings.HasPrefix(l, "gc truncate 1: end") && !strings.HasSuffix(l, "1.rdq size=5189 live=5189 dead=0") {
			t.Errorf("end line %q", l)
		}
	}
}

// TestFilesViewDuringGC: while 3.10 merges 1.rdq into 0.rdq, the Files
// view names the job's latest step on both files, and on none once it is
// over.
func TestFilesViewDuringGC(t *testing.T) {
	s := New(Options{Record: true})
	mustExec(t, s, mergeScript...)
	end := s.Furthest()
	steps := map[string]bool{}
	for n := int64(1); n <= end; n++ {
		if err := s.SeekEvent(n); err != nil {
			t.Fatal(err)
		}
		gc := map[string]string{}
		for _, f := range s.Snapshot().Files {
			if f.GC != "" {
				gc[f.Path] = f.GC
			}
		}
		if len(gc) == 0 {
			continue
		}
		a, b := gc["msg_store_persistent/0.rdq"], gc["msg_store_persistent/1.rdq"]
		if len(gc) > 2 || !strings.HasPrefix(a, "combine 1 into 0: ") || (b != "" && b != a) {
			t.Fatalf("event %d: the files under GC say %v", n, gc)
		}
		steps[a] = true
	}
	if len(steps) < 5 {
		t.Errorf("the view showed %d steps of the merge: %v", len(steps), steps)
	}
	for _, f := range s.Snapshot().Files {
		if f.GC != "" {
			t.Errorf("at the end %s still says %q", f.Path, f.GC)
		}
	}
}
