package browser_test

import (
	"strconv"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"

	"warren/lessons"
)

// TestMarkersAndPlainWords: in the credit widget of the lesson on one
// queue ("Where messages wait"), the moment the reader's credit runs out is one
// key press from the start, at the event the engine found in Go; the
// marker names itself on screen and in the live region; ticks sit on the
// strip under the timeline; stepping is announced in plain words, not as
// the event line.
func TestMarkersAndPlainWords(t *testing.T) {
	all, err := lessons.All()
	if err != nil {
		t.Fatal(err)
	}
	var l lessons.Lesson
	var blocks []lessons.Scenario
	idx := -1
	for _, lesson := range all {
		bs, _ := lesson.Scenarios()
		for i, b := range bs {
			if b.Info.Title == "Where messages wait" && idx < 0 {
				l, blocks, idx = lesson, bs, i
			}
		}
	}
	if idx < 0 {
		t.Fatal("no lesson has a block \"Where messages wait\"")
	}
	steps, _ := blocks[idx].Steps()
	var script []string
	for _, s := range steps {
		script = append(script, s.Command)
	}
	sim := native(t, "set version="+l.Version+"\n"+strings.Join(script, "\n"))
	var want int64 = -1
	wantText := ""
	for _, m := range sim.Markers() {
		if m.Kind == "credit-out" {
			want, wantText = m.Event, m.Text()
			break
		}
	}
	if want < 0 {
		t.Fatal("the engine finds no credit-out marker")
	}

	for _, size := range []struct {
		name          string
		width, height int64
		mobile        bool
	}{{"desktop", 1280, 900, false}, {"phone", 390, 844, true}} {
		b := newBrowser(t)
		if size.mobile {
			if err := chromedp.Do(b.ctx, chromedp.EmulateViewport(size.width, size.height, chromedp.EmulateMobile, chromedp.EmulateScale(2))); err != nil {
				t.Fatal(err)
			}
		}
		b.open("/lessons/" + l.Slug + "/")
		w := "#scenario-" + strconv.Itoa(idx+1)
		type state struct {
			Pos   int64  `json:"pos"`
			Here  string `json:"here"`
			Live  string `json:"live"`
			Ticks int    `json:"ticks"`
			Shown bool   `json:"shown"`
		}
		read := func() state {
			evalJS[bool](b, `new Promise((r) => setTimeout(() => requestAnimationFrame(() => r(true)), 150))`)
			return evalJS[state](b, `(() => { const r = document.querySelector("`+w+`").shadowRoot;
				return {pos: r.querySelector(".timeline").valueAsNumber, here: r.querySelector("[data-role=marker]").textContent,
					live: r.querySelector("[data-role=announce]").textContent, ticks: r.querySelectorAll(".marker-strip .tick").length,
					shown: !r.querySelector("[data-role=markers]").hidden}; })()`)
		}
		evalJS[bool](b, in(w, ".stage")+".focus(), true")
		for _, k := range []string{kb.Home, "]"} {
			if err := chromedp.Do(b.ctx, chromedp.KeyEvent(k)); err != nil {
				t.Fatal(err)
			}
		}
		got := read()
		if got.Pos != want || !strings.HasPrefix(got.Here, wantText) || !strings.Contains(got.Live, wantText) {
			t.Errorf("%s: Home then ] goes to event %d (want %d), shows %q, says %q; want %q", size.name, got.Pos, want, got.Here, got.Live, wantText)
		}
		if !got.Shown || got.Ticks < 2 {
			t.Errorf("%s: the marker strip shows %d ticks (visible %v)", size.name, got.Ticks, got.Shown)
		}
		b.shotElement(w, "markers-credit-out-"+size.name)
		if err := chromedp.Do(b.ctx, chromedp.KeyEvent("]")); err != nil {
			t.Fatal(err)
		}
		if next := read(); next.Pos <= want {
			t.Errorf("%s: ] again stays at event %d", size.name, next.Pos)
		}
		if err := chromedp.Do(b.ctx, chromedp.KeyEvent("[")); err != nil {
			t.Fatal(err)
		}
		if back := read(); back.Pos != want {
			t.Errorf("%s: [ goes to event %d, want %d", size.name, back.Pos, want)
		}
		if err := chromedp.Do(b.ctx, chromedp.KeyEvent(kb.ArrowRight)); err != nil {
			t.Fatal(err)
		}
		step := read()
		if strings.Contains(step.Live, "sched=") || strings.Contains(step.Live, "µs)") || !strings.Contains(step.Live, "Event "+strconv.FormatInt(want+1, 10)+" of") {
			t.Errorf("%s: a step is announced as %q: want plain words", size.name, step.Live)
		}
		sim.SeekEvent(want + 1)
		if words := sim.NarrateNow().String(); !strings.Contains(strings.ToLower(step.Live), strings.ToLower(words)) {
			t.Errorf("%s: a step is announced as %q, want the engine's words %q", size.name, step.Live, words)
		}
		b.noErrors()
	}
}
