package browser_test

import (
	"strings"
	"testing"

	"github.com/chromedp/chromedp"
)

// TestLessonOpensBeforeItsEnd: a lesson's block that opens at a mark is
// ready once its script reaches the mark, and runs the rest behind the
// reader. "The two ends, on the engine" opens at event 100,608 of
// 301,232: at ready the slider stands there, at the end of what has run
// so far; Step answers at once with the event after; the rest then runs
// on to the whole timeline, the slider staying where the reader is, and
// its last caption is there at the end. A reset runs it the same way, and
// a command typed before the rest has run ends the rest: what the reader
// typed follows the moment shown, and nothing of the rest follows it.
func TestLessonOpensBeforeItsEnd(t *testing.T) {
	b := newBrowser(t)
	if err := chromedp.Do(b.ctx, chromedp.Navigate(siteURL(t)+"/lessons/what-persistence-costs/")); err != nil {
		t.Fatal(err)
	}
	const open, whole = 100_608, 301_232
	type state struct {
		Pos     int64  `json:"pos"`
		End     int64  `json:"end"`
		Step    bool   `json:"step"`
		Caption string `json:"caption"`
	}
	const read = `({pos: tl.valueAsNumber, end: Number(tl.max), step: !r.querySelector("button.step").disabled, caption: r.querySelector(".caption").textContent})`
	const first = `const w = document.querySelector("warren-scenario"), r = w.shadowRoot, tl = r.querySelector(".timeline");`
	at := func(what, js string) state {
		t.Helper()
		return evalJS[state](b, `(async () => { await customElements.whenDefined("warren-scenario"); const w0 = document.querySelector("warren-scenario"); w0.scrollIntoView({block: "center"}); await w0.ready; `+first+js+`; return `+read+`; })()`)
	}
	// ready, and Step pressed at once, in one go: the rest is still running
	two := evalJS[[2]state](b, `(async () => { await customElements.whenDefined("warren-scenario"); const w0 = document.querySelector("warren-scenario"); w0.scrollIntoView({block: "center"}); await w0.ready; `+first+`
		const ready = `+read+`;
		const from = tl.valueAsNumber; r.querySelector("button.step").click(); while (tl.valueAsNumber === from) await new Promise((d) => setTimeout(d, 5));
		return [ready, `+read+`]; })()`)
	s := two[0]
	if s.Pos != open || s.End != open || !s.Step {
		t.Fatalf("at ready: event %d of %d, Step enabled %v; want %d of %d (the rest still to run), enabled", s.Pos, s.End, s.Step, open, open)
	}
	s = two[1]
	if s.Pos != open+1 || s.End <= open+1 || s.End >= whole {
		t.Fatalf("after Step: event %d of %d, want %d of more, the rest still running (%d in all)", s.Pos, s.End, open+1, whole)
	}
	s = at("the rest", `await w.idle()`)
	if s.Pos != open+1 || s.End != whole {
		t.Fatalf("once the rest has run: event %d of %d, want %d of %d", s.Pos, s.End, open+1, whole)
	}
	s = at("the end", `tl.value = tl.max; tl.dispatchEvent(new Event("input")); await new Promise((d) => requestAnimationFrame(d)); await w.idle()`)
	if s.Pos != whole || !strings.Contains(s.Caption, "about a third as fast") {
		t.Fatalf("at the end: event %d, caption %q; want %d and the block's last caption", s.Pos, s.Caption, whole)
	}
	s = at("reset", `r.querySelector("button.reset").click(); await new Promise((d) => setTimeout(d, 0)); await w.idle()`)
	if s.Pos != open || s.End != whole {
		t.Fatalf("after a reset and its rest: event %d of %d, want %d of %d", s.Pos, s.End, open, whole)
	}
	// a command typed before the rest has run: the rest is not run after it
	s = at("typed", `r.querySelector("button.reset").click(); await new Promise((d) => setTimeout(d, 0)); while (tl.valueAsNumber !== `+"100608"+` || Number(tl.max) !== 100608) await new Promise((d) => setTimeout(d, 1)); w.typed("queue.declare queue=mine"); await w.idle()`)
	if s.Pos != s.End || s.End <= open || s.End >= open+1000 {
		t.Fatalf("a command typed at %d before the rest ran: event %d of %d, want the end of the declare, a few events past %d", open, s.Pos, s.End, open)
	}
	b.noErrors()
}
