package engine

import (
	"fmt"
	"math/rand/v2"
	"runtime/debug"
	"strconv"
	"strings"
	"testing"

	"warren/engine/beam"
	"warren/engine/script"
)

// The metrics read the node's memory and the cluster's depth from totals
// the queues and the runtime keep as messages come and go. These tests
// hold them to the count found by visiting every queue and process (what
// the samples were made of before), after every event of the corpora and
// of random scripts, and after seeks: the samples cannot differ.

// heldChecker compares the totals with the count after every event.
type heldChecker struct {
	s      *Sim
	events int64
	bad    string
}

func (h *heldChecker) check(where string) {
	if h.bad != "" {
		return
	}
	c := h.s.cluster
	if got, want := c.Depth(), c.CountDepth(); got != want {
		h.bad = fmt.Sprintf("%s: depth %d, counted %d", where, got, want)
		return
	}
	for _, n := range c.Members() {
		if got, want := n.Memory(), n.CountMemory(); got != want {
			h.bad = fmt.Sprintf("%s: memory of %s %d, counted %d", where, n.Name, got, want)
			return
		}
	}
}

// exec runs one line with the check on the runtime the line runs on.
func (h *heldChecker) exec(line string) []string {
	return h.around(line, func() ([]string, string) { return exec(h.s, line) })
}

// around runs a command (what names it) with the check on the runtime it
// runs on.
func (h *heldChecker) around(what string, run func() (out []string, panicked string)) []string {
	n := 0
	h.s.rt.Observe = func(e *beam.Event) {
		// after every event of a line's first 20,000, then before every
		// sample (a count visits every message of every mailbox)
		if n++; n <= 20_000 || h.s.rt.Now() >= h.s.metrics.next {
			h.events++
			h.check(fmt.Sprintf("event #%d of %q", e.N, what))
		}
	}
	out, p := run()
	if p != "" {
		h.bad = p
	}
	h.s.rt.Observe = nil
	h.check(fmt.Sprintf("after %q", what))
	return out
}

// execCase runs one command of a scenario file for TestConformance,
// TestEngineOnly and TestTutorials. Built with -tags invariants
// (checkHeld), it also holds the node's running totals to the count after
// every event, as heldChecker does: the corpora are checked where they
// run, not run again for it.
func execCase(t *testing.T, s *Sim, cmd script.Command) []string {
	if !checkHeld {
		return s.Run(cmd.Text, RunOptions{Line: cmd.Line}).Lines
	}
	h := &heldChecker{s: s}
	out := h.around(cmd.Text, func() (out []string, panicked string) {
		defer func() {
			if r := recover(); r != nil {
				panicked = fmt.Sprintf("%q panicked: %v\n%s", cmd.Text, r, debug.Stack())
			}
		}()
		return s.Run(cmd.Text, RunOptions{Line: cmd.Line}).Lines, ""
	})
	if h.bad != "" {
		t.Fatal(h.bad)
	}
	return out
}

func TestHeldTotalsMatchTheCountOnRandomScripts(t *testing.T) {
	events := int64(0)
	for seed := uint64(1); seed <= uint64(*randomScripts); seed++ {
		lines := randomScript(seed, *randomLines)
		r := rand.New(rand.NewPCG(seed, 0x4e1d))
		h := &heldChecker{s: New(Options{Record: true})}
		for i, line := range lines {
			h.exec(line)
			if r.IntN(3) == 0 {
				// a seek restores a checkpoint: its copies of the totals
				// must still be the queues' own
				end := h.s.Furthest()
				if err := h.s.SeekEvent(r.Int64N(end + 1)); err != nil {
					t.Fatalf("seed %d line %d: %v", seed, i+1, err)
				}
				h.check(fmt.Sprintf("after a seek after line %d", i+1))
				if err := h.s.SeekEvent(end); err != nil {
					t.Fatalf("seed %d line %d: %v", seed, i+1, err)
				}
				h.check(fmt.Sprintf("after a seek back after line %d", i+1))
			}
			if h.bad != "" {
				t.Fatalf("seed %d: %s\nthe script:\n%s", seed, h.bad, strings.Join(lines[:i+1], "\n"))
			}
		}
		events += h.events
	}
	t.Logf("%d events checked", events)
}

// The markers read the queues' lives from the node's notices, folded at
// each command's end; a run that seeks back and forth (restoring
// checkpoints, whose copies hold the node's outbox) must mark the same
// moments as one that never seeks.
func TestQueueLifeMarkersFromNoticesSurviveSeeks(t *testing.T) {
	var scripts [][]string
	for seed := uint64(1); seed <= uint64(*randomScripts); seed++ {
		lines := randomScript(seed, *randomLines)
		// crashes enough to restart and give up
		q := "q" + strconv.Itoa(int(seed%3))
		lines = append(lines, "queue.declare queue="+q+" durable", "crash queue="+q, "crash queue="+q,
			"queue.delete queue="+q, "queue.declare queue="+q, "crash queue="+q, "crash queue="+q, "crash queue="+q, "crash queue="+q)
		scripts = append(scripts, lines)
	}
	marked := 0
	for i, lines := range scripts {
		r := rand.New(rand.NewPCG(uint64(i), 0x11fe))
		logged, full := New(Options{Record: true}), New(Options{Record: true})
		for k, line := range lines {
			exec(logged, line)
			exec(full, line)
			if r.IntN(4) == 0 {
				end := logged.Furthest()
				if err := logged.SeekEvent(end / 2); err != nil {
					t.Fatal(err)
				}
				if err := logged.SeekEvent(end); err != nil {
					t.Fatal(err)
				}
			}
			a, b := fmt.Sprint(logged.Markers()), fmt.Sprint(full.Markers())
			if a != b {
				t.Fatalf("script %d line %d %q: markers with seeks\n%s\nwithout\n%s\nthe script:\n%s", i, k+1, line, a, b, strings.Join(lines[:k+1], "\n"))
			}
		}
		for _, m := range logged.Markers() {
			if strings.HasPrefix(m.Kind, "queue-") {
				marked++
			}
		}
	}
	if marked == 0 {
		t.Fatal("no queue marker in any script: the test compares nothing")
	}
	t.Logf("%d queue markers compared", marked)
}
