package site_test

import (
	"fmt"
	"slices"
	"sort"
	"strings"
	"testing"

	"github.com/chromedp/cdproto/emulation"
	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"

	"warren/engine"
)

func init() {
	testPages["test-goals.html"] = `<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8"><title>goals in words</title>
<meta name="viewport" content="width=device-width, initial-scale=1">
<link rel="stylesheet" href="/widget.css"><script src="/widget.js" defer></script></head>
<body><warren-scenario id="g" title="Empty the queue" goals="expect queue=jobs messages_ready=0
expect credit=&quot;reader c1 -> channel c1.1&quot; left=0 blocked=yes
expect never=dropped on=c1.1" solution="basic.get queue=jobs no-ack">queue.declare queue=jobs
basic.publish key=jobs body=j1</warren-scenario></body></html>`
}

// changedProcs is the names of the processes whose drawing differs
// between two snapshots of the engine: state, mailbox, what waits in it,
// the socket, the flow mark, and a queue's counts.
func changedProcs(a, b engine.Snapshot) []string {
	before := map[int32]engine.ProcessView{}
	for _, p := range a.Processes {
		before[p.PID] = p
	}
	queues := map[int32][2]int{}
	for _, q := range a.Queues {
		queues[q.PID] = [2]int{q.Ready, q.Unacked}
	}
	var out []string
	for _, p := range b.Processes {
		o, ok := before[p.PID]
		changed := !ok || o.State != p.State || o.Mailbox != p.Mailbox || o.Blocked != p.Blocked || o.Socket != p.Socket || !slices.Equal(o.Head, p.Head)
		for _, q := range b.Queues {
			if q.PID == p.PID && queues[q.PID] != [2]int{q.Ready, q.Unacked} {
				changed = true
			}
		}
		if changed {
			out = append(out, p.Name)
		}
	}
	sort.Strings(out)
	return out
}

// TestWhatChangedIsMarked: after each step the process boxes marked as
// changed are exactly those the engine says changed; nothing is marked
// when the widget opens or resets; with reduced motion the mark stays and
// nothing moves; the table view marks the same rows.
func TestWhatChangedIsMarked(t *testing.T) {
	sim := native(t, scenarioOne)
	b := newBrowser(t)
	b.open("/test-one.html")
	const w = "warren-scenario"
	marked := func() []string {
		got := evalJS[[]string](b, `[...`+in(w, ".diagram")+`.querySelectorAll(".proc[data-changed]")].map((e) => e.dataset.name).sort()`)
		if got == nil {
			got = []string{}
		}
		return got
	}
	if got := marked(); len(got) != 0 {
		t.Errorf("the widget opens with %v marked as changed: want nothing", got)
	}
	evalJS[bool](b, in(w, ".stage")+".focus(), true")
	if err := chromedp.Do(b.ctx, chromedp.KeyEvent(kb.Home)); err != nil {
		t.Fatal(err)
	}
	sim.SeekEvent(0)
	prev := sim.Snapshot()
	sawSome := 0
	for n := int64(1); n <= 14; n++ {
		if err := chromedp.Do(b.ctx, chromedp.KeyEvent(kb.ArrowRight)); err != nil {
			t.Fatal(err)
		}
		sim.SeekEvent(n)
		next := sim.Snapshot()
		wantNames := changedProcs(prev, next)
		if wantNames == nil {
			wantNames = []string{}
		}
		got := marked()
		if fmt.Sprint(got) != fmt.Sprint(wantNames) {
			t.Errorf("after step %d the marked processes are %v; the engine changed %v", n, got, wantNames)
		}
		if len(got) > 0 {
			sawSome++
		}
		if n == 6 {
			b.shotElement(w, "changed-step-desktop")
		}
		prev = next
	}
	if sawSome < 5 {
		t.Errorf("only %d of 14 steps marked anything", sawSome)
	}
	anim := evalJS[string](b, `getComputedStyle(`+in(w, ".proc[data-changed]")+`).animationName`)
	if !strings.HasPrefix(anim, "changed-") {
		t.Errorf("a changed box has animation %q: want the glow when motion is welcome", anim)
	}
	// The table view marks the same processes.
	evalJS[bool](b, in(w, "button.view")+".click(), true")
	rows := evalJS[[]string](b, `[...`+in(w, ".tables")+`.querySelectorAll("table")[1].querySelectorAll("tr[data-changed] th")].map((e) => e.textContent).sort()`)
	if fmt.Sprint(rows) != fmt.Sprint(marked()) || len(rows) == 0 {
		t.Errorf("the Processes table marks %v, the diagram %v", rows, marked())
	}
	desc := evalJS[string](b, `(`+in(w, ".tables")+`.querySelector("tr[data-changed] th") || {getAttribute: () => ""}).getAttribute("aria-description")`)
	if desc != "changed in the last step" {
		t.Errorf("a changed row says %q to a screen reader", desc)
	}
	evalJS[bool](b, in(w, "button.view")+".click(), true")
	// Reset opens the widget again: nothing is marked.
	evalJS[bool](b, in(w, "button.reset")+".click(), true")
	if got := marked(); len(got) != 0 {
		t.Errorf("after Reset %v are marked as changed: want nothing", got)
	}

	// With reduced motion: the same marks, no animation.
	if _, err := chromedp.Call(b.ctx, emulation.SetEmulatedMedia, emulation.SetEmulatedMediaParams{
		Features: []*emulation.MediaFeature{{Name: "prefers-reduced-motion", Value: "reduce"}},
	}); err != nil {
		t.Fatal(err)
	}
	evalJS[bool](b, in(w, ".stage")+".focus(), true")
	if err := chromedp.Do(b.ctx, chromedp.KeyEvent(kb.Home), chromedp.KeyEvent(kb.ArrowRight), chromedp.KeyEvent(kb.ArrowRight)); err != nil {
		t.Fatal(err)
	}
	if len(marked()) == 0 {
		t.Fatal("with reduced motion a step marks nothing")
	}
	style := evalJS[[]string](b, `(() => { const s = getComputedStyle(`+in(w, ".proc[data-changed]")+`); return [s.animationName, s.outlineStyle]; })()`)
	if style[0] != "none" || style[1] != "solid" {
		t.Errorf("with reduced motion a changed box has animation %q and outline %q: want none and a solid outline", style[0], style[1])
	}
	b.noErrors()
}

// TestFileEntriesChangedAreMarked: in the Files view, stepping onto the
// event that acks a stored message marks that file and that entry, as the
// engine's files differ.
func TestFileEntriesChangedAreMarked(t *testing.T) {
	sim := native(t, scenarioFiles)
	end := sim.Snapshot().Events
	// The first event after which some entry of some file changes state.
	var at int64 = -1
	var wantEntry string
	sim.SeekEvent(0)
	prev := sim.Snapshot()
	for n := int64(1); n <= end && at < 0; n++ {
		sim.SeekEvent(n)
		next := sim.Snapshot()
		old := map[string]string{}
		for _, f := range prev.Files {
			old[f.Path] = f.Marks
		}
		for _, f := range next.Files {
			was, ok := old[f.Path]
			if !ok || len(was) == 0 {
				continue
			}
			for i := 0; i < len(was) && i < len(f.Marks); i++ {
				if was[i] != f.Marks[i] {
					at, wantEntry = n, fmt.Sprintf("%s#%d", f.Path, i)
					break
				}
			}
			if at >= 0 {
				break
			}
		}
		prev = next
	}
	if at < 0 {
		t.Fatal("no entry of any file changes state in the files scenario")
	}
	b := newBrowser(t)
	b.open("/test-files.html")
	const w = "warren-scenario"
	evalJS[bool](b, in(w, "button.view-files")+".click(), true")
	b.scrubTo(w, int(at-1))
	evalJS[bool](b, in(w, ".stage")+".focus(), true")
	if err := chromedp.Do(b.ctx, chromedp.KeyEvent(kb.ArrowRight)); err != nil {
		t.Fatal(err)
	}
	got := evalJS[[]string](b, `[...`+in(w, ".files")+`.querySelectorAll("li.file")].flatMap((li) =>
		[...li.querySelectorAll(".strip .mark")].map((m, i) => m.hasAttribute("data-changed") ? li.dataset.path + "#" + i : "").filter((x) => x))`)
	if !slices.Contains(got, wantEntry) {
		t.Errorf("stepping onto event %d marks entries %v: want %s among them", at, got, wantEntry)
	}
	path := strings.Split(wantEntry, "#")[0]
	if !evalJS[bool](b, `!!`+in(w, ".files")+`.querySelector('li.file[data-path="`+path+`"][data-changed]')`) {
		t.Errorf("the file %s is not marked as changed", path)
	}
	b.shotElement(w, "changed-file-entry-desktop")
	b.noErrors()
}

// TestGoalsReadInWords: each goal of an exercise reads as a sentence made
// from its expect line; the line itself is behind a disclosure that the
// keyboard opens.
func TestGoalsReadInWords(t *testing.T) {
	for _, size := range []struct {
		name          string
		width, height int64
	}{{"desktop", 1280, 800}, {"phone", 390, 844}} {
		b := newBrowser(t)
		if size.name == "phone" {
			if err := chromedp.Do(b.ctx, chromedp.EmulateViewport(size.width, size.height, chromedp.EmulateMobile, chromedp.EmulateScale(2))); err != nil {
				t.Fatal(err)
			}
		} else if err := chromedp.Do(b.ctx, chromedp.EmulateViewport(size.width, size.height)); err != nil {
			t.Fatal(err)
		}
		b.open("/test-goals.html")
		const w = "#g"
		type goal struct {
			Words string `json:"words"`
			Line  string `json:"line"`
			Open  bool   `json:"open"`
			Shown bool   `json:"shown"`
		}
		read := func() []goal {
			return evalJS[[]goal](b, `[...`+in(w, ".goal-list")+`.querySelectorAll("li.goal")].map((li) => ({
				words: li.querySelector(".goal-words").textContent, line: li.querySelector(".goal-line").textContent,
				open: li.querySelector("details").open, shown: li.querySelector(".goal-line").checkVisibility()}))`)
		}
		goals := read()
		want := []goal{
			{Words: "Queue jobs holds 0 ready messages.", Line: "expect queue=jobs messages_ready=0"},
			{Words: "Reader c1 towards channel c1.1 has 0 credits left and is out of credit (flow control).", Line: `expect credit="reader c1 -> channel c1.1" left=0 blocked=yes`},
			{Words: "Channel c1.1 never has a publish dropped (no nack, no return).", Line: "expect never=dropped on=c1.1"},
		}
		if fmt.Sprint(goals) != fmt.Sprint(want) {
			t.Errorf("%s: the goals read %+v, want %+v", size.name, goals, want)
		}
		// Keyboard: Tab to the first disclosure, Enter opens it.
		evalJS[bool](b, in(w, ".goal-list summary")+".focus(), true")
		if err := chromedp.Do(b.ctx, chromedp.KeyEvent(kb.Enter)); err != nil {
			t.Fatal(err)
		}
		if g := read(); !g[0].Open || !g[0].Shown || g[1].Open {
			t.Errorf("%s: Enter on the first disclosure leaves the goals %+v: want the first expect line shown", size.name, g)
		}
		b.shotElement(w+"", "goals-in-words-"+size.name)
		b.noErrors()
	}
}
