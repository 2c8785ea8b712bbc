package engine

import (
	"fmt"
	"hash/fnv"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"

	"warren/engine/script"
)

// fuzzLimits are the budgets of a simulation under FuzzWholePath: the
// browser's, scaled down so that an input runs in a second or two.
var fuzzLimits = limits{events: 200_000, held: 100_000, timeline: 64 << 20, bytes: 64 << 20, seek: 200_000}

// fuzzStepTime is the longest one step of FuzzWholePath may take: a
// command of fuzzLimits.events events, a scan of as many, a seek or a
// goal take a fraction of it natively (and five times longer under wasm);
// past it, something runs outside its budget.
func fuzzStepTime() time.Duration {
	if runtime.GOOS == "js" {
		return 25 * time.Second
	}
	return 5 * time.Second
}

// fuzzHeap is the most Go heap an input may leave in use after a step:
// fuzzLimits' bytes and timeline, and room for the rest of the state and
// the checkpoints.
const fuzzHeap = 512 << 20

// FuzzWholePath runs a stranger's script the way a share link does,
// parsing it, running each line (a "#@when GOAL" line scans the timeline
// for a goal), seeking back and forth and checking a goal, and fails
// when a step runs past its time or memory budget, not only when
// something panics: each step within fuzzStepTime, the simulation's
// messages and files within its budget of bytes (and one check's worth of
// growth), the heap within fuzzHeap. The seeds are the reproductions of
// what once ran past a budget, and the conformance scenarios. CI runs it
// for a minute:
//
//	go test ./engine -run '^$' -fuzz FuzzWholePath -fuzztime 60s
func FuzzWholePath(f *testing.F) {
	var args strings.Builder
	args.WriteString("queue.declare queue=q")
	for range 80_000 {
		args.WriteString(" x-a=1")
	}
	for _, seed := range []string{
		"queue.declare queue=q2 x-queue-mode=lazy\nbasic.publish key=q2 size=134217728 count=40",
		strings.Repeat("submit ", 12_000) + "basic.get queue=q",
		args.String(),
		"list_queues " + strings.Repeat(`"`, 1_000_000),
		"set watermark=1000000000\nqueue.declare queue=q\nbasic.consume queue=q tag=c\nrun events=3000000\n#@when queue=q messages=99999\n#@when queue=q messages=99999",
		"cluster nodes=3\nconnect on=c2 node=2\nqueue.declare queue=q durable x-queue-version=2 on=c2.1\nbasic.publish key=q persistent count=100 on=c2.1\nfault sync-fail path=*.qi node=2\nstop_app node=2\nlist_connections",
		"exchange.declare exchange=f type=fanout\nqueue.declare queue=a durable\nqueue.bind queue=a exchange=f\nqueue.declare queue=b durable\nqueue.bind queue=b exchange=f\nbasic.publish exchange=f size=100000 count=1000 persistent",
	} {
		f.Add(seed)
	}
	files, _ := filepath.Glob(filepath.Join("testdata", "conformance", "*.txt"))
	for _, name := range files[:min(len(files), 20)] {
		f.Add(strings.Join(seedCommands(readCaseFile(f, name)), "\n"))
	}
	f.Fuzz(func(t *testing.T, text string) {
		if msg := wholePathOverBudget(text); msg != "" {
			t.Fatal(msg)
		}
	})
}

// wholePathOverBudget runs text as FuzzWholePath does and says which
// step passed a budget ("" when none did).
func wholePathOverBudget(text string) string {
	s := New(Options{Record: true})
	lim := fuzzLimits
	s.budgetLimits = &lim
	var ms runtime.MemStats
	step := func(what string, do func()) string {
		start := time.Now()
		do()
		if took := time.Since(start); took > fuzzStepTime() {
			return fmt.Sprintf("%.80s: took %v, past the %v a step may take", what, took, fuzzStepTime())
		}
		if n := s.heldBytes(); n > lim.bytes+lim.bytes/2 {
			return fmt.Sprintf("%.80s: the simulation holds %d MB of messages and files, past its budget of %d MB", what, n>>20, lim.bytes>>20)
		}
		if n := s.TimelineBytes(); n > lim.timeline+lim.timeline/2 {
			return fmt.Sprintf("%.80s: the timeline holds %d MB, past its budget of %d MB", what, n>>20, lim.timeline>>20)
		}
		runtime.ReadMemStats(&ms)
		if ms.HeapAlloc > fuzzHeap {
			runtime.GC()
			if runtime.ReadMemStats(&ms); ms.HeapAlloc > fuzzHeap {
				return fmt.Sprintf("%.80s: the heap holds %d MB, past %d MB", what, ms.HeapAlloc>>20, fuzzHeap>>20)
			}
		}
		return ""
	}
	if msg := step("parse", func() { script.Parse(text) }); msg != "" {
		return msg
	}
	h := fnv.New64a()
	h.Write([]byte(text))
	seed := h.Sum64()
	lines := strings.Split(text, "\n")
	for i, line := range lines[:min(len(lines), 40)] {
		line = strings.TrimSpace(line)
		var msg string
		switch {
		case strings.HasPrefix(line, "#@when "):
			msg = step(line, func() { s.FirstEventWhere("expect "+strings.TrimPrefix(line, "#@when "), 0) })
		case line == "" || strings.HasPrefix(line, "#"):
		default:
			msg = step(line, func() { s.runLine(line) })
		}
		if msg != "" {
			return fmt.Sprintf("line %d: %s", i+1, msg)
		}
		// now and then, seek back to an event of the timeline and forth
		// to its end, and check a goal there
		if (seed>>(i%60))&1 == 1 && s.Furthest() > 0 {
			at := int64(seed % uint64(s.Furthest()+1))
			if msg := step(fmt.Sprintf("seek %d", at), func() { s.SeekEvent(at) }); msg != "" {
				return fmt.Sprintf("line %d: %s", i+1, msg)
			}
			if msg := step("goal", func() { s.Expect("expect queue=q messages=1") }); msg != "" {
				return fmt.Sprintf("line %d: %s", i+1, msg)
			}
			if msg := step("seek to the end", func() { s.SeekEvent(s.Furthest()) }); msg != "" {
				return fmt.Sprintf("line %d: %s", i+1, msg)
			}
		}
	}
	return ""
}
