package browser_test

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
	"warren/lessons"
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
	testPages["test-props.html"] = `<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8"><title>message properties</title>
<meta name="viewport" content="width=device-width, initial-scale=1">
<link rel="stylesheet" href="/widget.css"><script src="/widget.js" defer></script></head>
<body><warren-scenario id="p" title="What a message carries"><pre>queue.declare queue=props x-max-priority=5
basic.publish key=props body=a priority=9 persistent content-type=application/json message-id=m1 expiration=60000
basic.publish key=props body=b</pre></warren-scenario></body></html>`
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
		[...li.querySelectorAll(".strip .mark[data-changed]")].flatMap((m) =>
			Array.from({length: Number(m.dataset.n)}, (_, k) => li.dataset.path + "#" + (Number(m.dataset.at) + k))))`)
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

// smallTargets lists every visible button, select and disclosure of every
// widget of the page whose box is under 44 px either way.
func smallTargets(b *browser) []string {
	return evalJS[[]string](b, `[...document.querySelectorAll("warren-scenario")].flatMap((w) =>
		[...w.shadowRoot.querySelectorAll("button, select, summary")].filter((e) => e.checkVisibility()).map((e) => {
			const r = e.getBoundingClientRect();
			return r.width < 44 || r.height < 44 ? (e.className || e.tagName) + " " + JSON.stringify(e.textContent.trim().slice(0, 30)) + " " + Math.round(r.width) + "x" + Math.round(r.height) : "";
		}).filter((x) => x))`)
}

// TestPhoneControlsStayOverTheDiagram: on a 390x844 phone, scrolled so
// that the diagram fills the screen, the timeline controls are on screen
// over it and take a tap (Step steps); every button, select and
// disclosure of a lesson, an exercise and the playground is at least 44
// px each way.
func TestPhoneControlsStayOverTheDiagram(t *testing.T) {
	b := newBrowser(t)
	if err := chromedp.Do(b.ctx, chromedp.EmulateViewport(390, 844, chromedp.EmulateMobile, chromedp.EmulateScale(2))); err != nil {
		t.Fatal(err)
	}
	b.open("/test-one.html")
	const w = "warren-scenario"
	evalJS[bool](b, in(w, "button.reset")+".click(), true")
	// Scroll the top of the process columns to the top of the screen.
	evalJS[bool](b, `(() => { const f = `+in(w, ".flow")+`; scrollTo(0, f.getBoundingClientRect().top + scrollY); return true; })()`)
	type box struct {
		Top, Bottom, Height float64
		Hit                 bool
		FlowTop             float64
	}
	at := evalJS[box](b, `new Promise((done) => requestAnimationFrame(() => {
		const s = `+in(w, "button.step")+`, r = s.getBoundingClientRect();
		const hit = document.querySelector("`+w+`").shadowRoot.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
		done({Top: r.top, Bottom: r.bottom, Height: innerHeight, Hit: !!hit && s.contains(hit), FlowTop: `+in(w, ".flow")+`.getBoundingClientRect().top});
	}))`)
	if at.FlowTop > 5 || at.Top < 0 || at.Bottom > at.Height || !at.Hit {
		t.Errorf("scrolled to the diagram (its top at %.0f px), the Step button is at %.0f-%.0f px of %.0f (on top: %v): want it on screen", at.FlowTop, at.Top, at.Bottom, at.Height, at.Hit)
	}
	// What stays on the screen is what one presses while watching: the
	// buttons and the slider, not the views, in an eighth of the screen.
	type bar struct{ Height, ViewsTop, BarTop float64 }
	got := evalJS[bar](b, `(() => {
		const top = `+in(w, ".controls .buttons")+`.getBoundingClientRect().top;
		return {Height: `+in(w, ".controls .scrub")+`.getBoundingClientRect().bottom - top, BarTop: top,
			ViewsTop: `+in(w, ".controls .views")+`.getBoundingClientRect().top};
	})()`)
	if got.Height > 0.125*at.Height || got.ViewsTop < got.BarTop+got.Height {
		t.Errorf("on a phone the bar that stays on the screen is %.0f px of %.0f, with the views at %.0f px and the bar at %.0f: want at most an eighth, and the views in the widget's flow", got.Height, at.Height, got.ViewsTop, got.BarTop)
	}
	// a step back first (a button, not a scroll): at its end a lesson's
	// scenario has told its story, and Step says so before it goes on
	evalJS[bool](b, in(w, "button.back")+".click(), true")
	before := b.shown(w).Pos
	x := evalJS[float64](b, `(() => { const r = `+in(w, "button.step")+`.getBoundingClientRect(); return r.left + r.width / 2; })()`)
	if err := chromedp.Do(b.ctx, chromedp.MouseClickXY(x, (at.Top+at.Bottom)/2)); err != nil {
		t.Fatal(err)
	}
	if after := b.shown(w).Pos; after != before+1 {
		t.Errorf("a tap on Step, scrolled to the diagram, goes from event %d to %d", before, after)
	}
	b.shotViewport("phone-controls-over-diagram")
	if small := smallTargets(b); len(small) > 0 {
		t.Errorf("on a phone these targets are under 44 px: %v", small)
	}
	for _, page := range []string{"/test-goals.html", "/playground/", "/lessons/one-queue-one-process/"} {
		b.open(page)
		if small := smallTargets(b); len(small) > 0 {
			t.Errorf("%s: on a phone these targets are under 44 px: %v", page, small)
		}
	}
	b.shot("phone-lesson")
	b.noErrors()
}

// TestPlaygroundEditorAndPaste: the playground has a scenario editor
// beside the console: a script pasted into it runs from the top with
// Ctrl+Enter and shows what the engine shows natively, the live region
// says so, and its share link opens the same state; a block of lines
// pasted into the console runs line by line, and the editor follows.
func TestPlaygroundEditorAndPaste(t *testing.T) {
	b := newBrowser(t)
	if err := chromedp.Do(b.ctx, chromedp.EmulateViewport(1280, 800)); err != nil {
		t.Fatal(err)
	}
	b.open("/playground/")
	const w = "warren-scenario"
	type layout struct {
		EditorLeft, ConsoleRight, EditorTop, ConsoleBottom float64
		Script                                             string
	}
	l := evalJS[layout](b, `(() => { const e = `+in(w, ".editor")+`.getBoundingClientRect(), c = `+in(w, ".console")+`.getBoundingClientRect();
		return {EditorLeft: e.left, ConsoleRight: c.right, EditorTop: e.top, ConsoleBottom: c.bottom, Script: `+in(w, "textarea.script")+`.value}; })()`)
	if l.EditorLeft < l.ConsoleRight-1 || l.EditorTop > l.ConsoleBottom {
		t.Errorf("the editor is not beside the console: %+v", l)
	}
	if !strings.Contains(l.Script, "queue.declare") {
		t.Errorf("the editor shows %q: want the playground's scenario", l.Script)
	}
	script := "queue.declare queue=pasted\nbasic.publish key=pasted body=p{i} count=5\nbasic.get queue=pasted no-ack"
	evalJS[bool](b, `(() => { const a = `+in(w, "textarea.script")+`; a.focus(); a.select(); document.execCommand("insertText", false, `+"`"+script+"`"+`); return true; })()`)
	if s := evalJS[string](b, in(w, ".editor-state")+".textContent"); !strings.HasPrefix(s, "Edited") {
		t.Errorf("after an edit the editor says %q", s)
	}
	if err := chromedp.Do(b.ctx, chromedp.KeyEvent("\r", chromedp.KeyModifiers(2))); err != nil { // Ctrl+Enter
		t.Fatal(err)
	}
	sim := native(t, script)
	got := b.shown(w)
	if got.End != sim.Furthest() || got.Ready["pasted"] != 4 {
		t.Errorf("after Run from the top the widget is at %d/%d with %v ready; the engine ends at %d with 4 ready in pasted", got.Pos, got.End, got.Ready, sim.Furthest())
	}
	evalJS[bool](b, `new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(() => r(true))))`)
	if live := evalJS[string](b, in(w, "[data-role=announce]")+".textContent"); !strings.Contains(live, "Ran from the top.") || !strings.Contains(live, fmt.Sprintf("of %d", sim.Furthest())) {
		t.Errorf("the live region says %q after Run from the top", live)
	}
	b.shot("playground-editor-desktop")
	link := evalJS[string](b, `document.querySelector("`+w+`").shareURL()`)
	fresh := b.tab()
	fresh.open(link)
	if again := fresh.shown(w); again.End != got.End || again.Ready["pasted"] != 4 {
		t.Errorf("the share link of the edited scenario opens at %d/%d with %v ready", again.Pos, again.End, again.Ready)
	}
	fresh.noErrors()

	// A block pasted into the console: three commands, one by one.
	block := "queue.declare queue=second\n# a comment\n\nbasic.publish key=second body=s{i} count=2\nbasic.get queue=second no-ack\n"
	evalJS[bool](b, `(() => { const i = `+in(w, "input.cmd")+`; i.focus(); const dt = new DataTransfer(); dt.setData("text/plain", `+"`"+block+"`"+`);
		i.dispatchEvent(new ClipboardEvent("paste", {clipboardData: dt, bubbles: true, cancelable: true})); return true; })()`)
	cmds := evalJS[[]string](b, `[...`+in(w, ".log")+`.querySelectorAll(".cmdline")].slice(-3).map((e) => e.textContent.replace(/^› /, ""))`)
	if fmt.Sprint(cmds) != fmt.Sprint([]string{"queue.declare queue=second", "basic.publish key=second body=s{i} count=2", "basic.get queue=second no-ack"}) {
		t.Errorf("a pasted block ran as %q: want its three commands, one by one", cmds)
	}
	if errs := evalJS[int](b, in(w, ".log")+`.querySelectorAll(".err").length`); errs != 0 {
		t.Errorf("the pasted block printed %d errors", errs)
	}
	if got := b.shown(w); got.Ready["second"] != 1 {
		t.Errorf("after the pasted block queue second has %d ready, want 1", got.Ready["second"])
	}
	if s := evalJS[string](b, in(w, "textarea.script")+".value"); !strings.HasSuffix(strings.TrimSpace(s), "basic.get queue=second no-ack") || !strings.HasPrefix(s, "queue.declare queue=pasted") {
		t.Errorf("after the pasted block the editor shows %q: want the scenario and the three commands", s)
	}
	b.noErrors()

	// On a phone the editor comes under the console.
	phone := newBrowser(t)
	if err := chromedp.Do(phone.ctx, chromedp.EmulateViewport(390, 844, chromedp.EmulateMobile, chromedp.EmulateScale(2))); err != nil {
		t.Fatal(err)
	}
	phone.open(link)
	if overflow := evalJS[int](phone, `document.documentElement.scrollWidth - document.documentElement.clientWidth`); overflow > 0 {
		t.Errorf("the playground scrolls sideways by %d px on a phone", overflow)
	}
	evalJS[bool](phone, in(w, ".editor")+".scrollIntoView(), true")
	phone.shot("playground-editor-phone")
	phone.noErrors()
}

// termsShown is the terms a widget shows: their kind, their words, the
// explanation aria-describedby names, and their colours.
type termShown struct {
	Kind  string `json:"kind"`
	Text  string `json:"text"`
	Tip   string `json:"tip"`
	Where string `json:"where"`
	Look  string `json:"look"`
}

func (b *browser) terms(widget string) []termShown {
	return evalJS[[]termShown](b, `(() => { const r = document.querySelector("`+widget+`").shadowRoot;
		return [...r.querySelectorAll("[data-term]")].filter((e) => e.checkVisibility()).map((e) => {
			const d = r.getElementById(e.getAttribute("aria-describedby")); const s = getComputedStyle(e);
			return {kind: e.dataset.term, text: e.textContent, tip: d ? d.textContent : "",
				where: (e.closest(".proc, .credit, .consumer, .memory, td") || {className: "?"}).className.split(" ")[0],
				look: s.backgroundColor + " " + s.borderTopStyle + " " + s.color};
		}); })()`)
}

// TestOneWordOneMeaning: flow control, a consumer at its prefetch limit,
// publishers blocked by an alarm and credit below zero each read their
// own way wherever they show, each is focusable and described by its
// one-line explanation, which shows beside it on focus and hides on
// Escape; a message chip shows the priority it was published with, its
// persistence and its properties.
func TestOneWordOneMeaning(t *testing.T) {
	all, err := lessons.All()
	if err != nil {
		t.Fatal(err)
	}
	// A lesson block where four publishers share a queue, and the first
	// event (to 10 events) where a credit is below zero, found in Go.
	var slug string
	idx := -1
	var script []string
	for _, l := range all {
		blocks, _ := l.Scenarios()
		for i, bl := range blocks {
			if bl.Info.Title == "Four publishers, one queue, one core" && idx < 0 {
				slug, idx = l.Slug, i
				steps, _ := bl.Steps()
				script = append(script, "set version="+l.Version)
				for _, st := range steps {
					script = append(script, st.Command)
				}
			}
		}
	}
	if idx < 0 {
		t.Fatal("no lesson block \"Four publishers, one queue, one core\"")
	}
	sim := native(t, strings.Join(script, "\n"))
	var below int64 = -1
	for n := int64(1); n <= sim.Furthest() && below < 0; n += 10 {
		sim.SeekEvent(n)
		for _, c := range sim.Snapshot().Credit {
			if c.Credit < 0 && c.Blocked {
				below = n
			}
		}
	}
	if below < 0 {
		t.Fatal("the credit scenario never shows a credit below zero")
	}

	b := newBrowser(t)
	// Focus events as in a window that has the focus (headless has none).
	if err := chromedp.Do(b.ctx, chromedp.EmulateViewport(1280, 800)); err != nil {
		t.Fatal(err)
	}
	if _, err := chromedp.Call(b.ctx, emulation.SetFocusEmulationEnabled, emulation.SetFocusEmulationEnabledParams{Enabled: true}); err != nil {
		t.Fatal(err)
	}
	b.open("/lessons/" + slug + "/")
	w := "#scenario-" + fmt.Sprint(idx+1)
	b.scrubTo(w, int(below))
	terms := b.terms(w)
	kinds := map[string]termShown{}
	for _, tm := range terms {
		if tm.Tip == "" {
			t.Errorf("the term %q (%s) is described by nothing", tm.Text, tm.Kind)
		}
		kinds[tm.Kind+"/"+tm.Where] = tm
	}
	if _, ok := kinds["flow/credit"]; !ok {
		t.Errorf("at event %d (a credit below zero) no credit row says flow control: %+v", below, terms)
	}
	neg, ok := kinds["negative/credit"]
	if !ok || !strings.Contains(neg.Tip, "keeps sending") || !strings.Contains(neg.Tip, "reader is what stops") {
		t.Errorf("at event %d credit below zero is not explained where it shows: %+v", below, terms)
	}
	// Keyboard: focus the term, its explanation shows beside it; Escape hides it.
	type tip struct {
		Shown bool    `json:"shown"`
		Text  string  `json:"text"`
		Gap   float64 `json:"gap"`
	}
	readTip := func() tip {
		return evalJS[tip](b, `(() => { const r = document.querySelector("`+w+`").shadowRoot, t = r.querySelector(".term-tip"), f = r.activeElement;
			return {shown: !t.hidden && t.checkVisibility(), text: t.textContent, gap: f ? t.getBoundingClientRect().top - f.getBoundingClientRect().bottom : -1}; })()`)
	}
	evalJS[bool](b, in(w, ".credit .term-negative")+".focus(), true")
	if got := readTip(); !got.Shown || got.Text != neg.Tip || got.Gap < 0 || got.Gap > 12 {
		t.Errorf("focusing below zero shows the tip %+v: want its explanation just under it", got)
	}
	b.shotElement(w, "term-below-zero-desktop")
	if err := chromedp.Do(b.ctx, chromedp.KeyEvent(kb.Escape)); err != nil {
		t.Fatal(err)
	}
	if got := readTip(); got.Shown {
		t.Errorf("Escape leaves the tip shown")
	}
	// The table view names the same terms.
	evalJS[bool](b, in(w, "button.view")+".click(), true")
	tableTerms := b.terms(w)
	hasTd := func(kind string, ts []termShown) bool {
		for _, tm := range ts {
			if tm.Kind == kind && tm.Where == "" {
				return true
			}
		}
		return false
	}
	if !hasTd("flow", tableTerms) || !hasTd("negative", tableTerms) {
		t.Errorf("the table view shows the terms %+v: want flow control and below zero in its cells", tableTerms)
	}
	b.noErrors()

	// A consumer at its prefetch limit, and an alarm: each its own look.
	looks := map[string]termShown{"flow": kinds["flow/credit"]}
	b.open("/test-one.html")
	for _, tm := range b.terms("warren-scenario") {
		if tm.Kind == "prefetch" && tm.Where == "consumer" {
			looks["prefetch"] = tm
		}
	}
	b.open("/test-cluster.html")
	for _, tm := range b.terms("warren-scenario") {
		if tm.Kind == "alarm" && tm.Where == "memory" {
			looks["alarm"] = tm
		}
	}
	if len(looks) != 3 || looks["prefetch"].Text == "" || looks["alarm"].Text == "" {
		t.Fatalf("want flow control, the prefetch limit and an alarm shown: %+v", looks)
	}
	seen := map[string]string{}
	for k, tm := range looks {
		if other, dup := seen[tm.Text]; dup {
			t.Errorf("%s and %s read the same: %q", k, other, tm.Text)
		}
		seen[tm.Text] = k
		if other, dup := seen[tm.Look]; dup {
			t.Errorf("%s and %s look the same: %q", k, other, tm.Look)
		}
		seen[tm.Look] = k
		if strings.Contains(strings.ToLower(tm.Text), "blocked") && k != "alarm" {
			t.Errorf("%s reads %q: only an alarm blocks", k, tm.Text)
		}
	}
	b.shotElement("warren-scenario", "term-alarm-desktop")
	b.noErrors()

	// Chips: the priority published with, persistence, properties.
	b.open("/test-props.html")
	type chips struct {
		Chips []string `json:"chips"`
		Cls   []string `json:"cls"`
		Next  string   `json:"next"`
		Lane  string   `json:"lane"`
	}
	got := evalJS[chips](b, `(() => { const r = document.querySelector("#p").shadowRoot, ms = [...r.querySelectorAll(".lane .msg")];
		return {chips: ms.map((m) => m.textContent), cls: ms.map((m) => m.className), next: r.querySelector("[data-role=next-message]").textContent,
			lane: r.querySelector(".lane .msg").closest(".lane").querySelector(".k").textContent}; })()`)
	if fmt.Sprint(got.Chips) != "[a p9 + b]" || got.Cls[0] != "msg persistent props" || got.Cls[1] != "msg transient" || got.Lane != "priority 5" {
		t.Errorf("the chips read %v with classes %v in lane %q: want a published with priority 9 (in lane 5), persistent, with properties, then b", got.Chips, got.Cls, got.Lane)
	}
	for _, want := range []string{"a", "published with priority 9", "persistent (delivery mode 2)", "content_type application/json", "message_id m1", "expiration 60000"} {
		if !strings.Contains(got.Next, want) {
			t.Errorf("the next message reads %q: want %q in it", got.Next, want)
		}
	}
	b.shotElement("#p", "chips-props-desktop")
	b.noErrors()
}

// TestDocumentationColumn: in a documentation column of 700 px, a small
// scenario's widget keeps its picture and controls together, in about
// 600 px of height: the caption above the picture, the controls right
// under it (two rows), and the events list and the console below them.
func TestDocumentationColumn(t *testing.T) {
	b := newBrowser(t)
	site := siteURL(t)
	script := "queue.declare queue=q\nbasic.qos prefetch=2 on=c2.1\nbasic.consume queue=q tag=c on=c2.1\nbasic.publish key=q body=m{i} count=4\n#@caption Four published, two delivered: the consumer is at its prefetch limit.\nbasic.ack tag=1 on=c2.1"
	host := hostPages(t, site, map[string]string{"/col.html": `<main style="max-width: 700px; margin: 0 auto"><h1>A page of docs</h1>
<warren-scenario id="w" title="A small scenario">` + script + `</warren-scenario><p>After the widget.</p></main>`})
	b.open(host + "/col.html")
	evalJS[bool](b, `(() => { document.querySelector("#w").scrollIntoView({ block: "start" }); return true; })()`)
	type layout struct{ Width, Picture, Caption, Stage, ControlsTop, Events float64 }
	got := evalJS[layout](b, settled(`(() => {
		const w = document.querySelector("#w"), r = w.shadowRoot, top = w.getBoundingClientRect().top;
		const y = (sel, edge) => r.querySelector(sel).getBoundingClientRect()[edge] - top;
		return {Width: w.getBoundingClientRect().width, Picture: y(".controls .views", "bottom"), Caption: y(".caption", "top"),
			Stage: y(".stage", "top"), ControlsTop: y(".controls .buttons", "top"), Events: y(".events", "top")};
	})()`))
	if got.Width > 700 || got.Picture > 640 {
		t.Errorf("in a %.0f px column the picture and controls take %.0f px of height: want about 600", got.Width, got.Picture)
	}
	if !(got.Caption < got.Stage && got.Stage < got.ControlsTop && got.ControlsTop < got.Events) {
		t.Errorf("in a documentation column the caption is at %.0f px, the picture at %.0f, the controls at %.0f and the events at %.0f: want them in that order", got.Caption, got.Stage, got.ControlsTop, got.Events)
	}
	b.shotElement("#w", "documentation-column")
	b.noErrors()
}
