package browser_test

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
)

// wasmCap limits every WebAssembly memory of the browser to 96 MB (V8's
// pages are 64 KiB): enough for the test pages, and reached within
// seconds by a command that records millions of events, so that the Go
// program really runs out of memory and exits, as it does at 4 GB in a
// browser without the cap.
var wasmCap = chromedp.Flag("js-flags", "--wasm-max-mem-pages=1536")

// TestDeadEngineTakesNoWidgetWithIt: a command in one widget of a page
// kills the engine's worker (Go out of memory); the page starts another
// worker, the other widget comes back at the event it was showing, the
// first says what happened and is back where it was before the command,
// and both keep working.
func TestDeadEngineTakesNoWidgetWithIt(t *testing.T) {
	b := newBrowser(t, wasmCap)
	b.open("/test-two.html")
	// The second widget somewhere in the middle of its timeline, with a
	// command typed after a seek (a branch its share script must carry).
	b.scrubTo("#b", 3)
	evalJS[bool](b, `(document.querySelector("#b").typed("basic.publish key=jobs body=extra"), true)`)
	b.scrubTo("#b", 4)
	beforeB := b.shown("#b")
	b.scrubTo("#a", 20)
	beforeA := b.shown("#a")
	if beforeB.Pos != 4 || beforeA.Pos != 20 {
		t.Fatalf("before the crash: #a at %d, #b at %d", beforeA.Pos, beforeB.Pos)
	}

	start := time.Now()
	evalJS[bool](b, `(document.querySelector("#a").typed("basic.publish key=q count=1000000"), true)`)
	msg := evalJS[string](b, in("#a", ".problem")+".textContent")
	t.Logf("the engine died and every widget was back %.1f s after the command", time.Since(start).Seconds())
	t.Logf("the first widget says: %s", msg)
	if !strings.Contains(msg, "The simulation stopped") || !strings.Contains(msg, "restarted the engine") {
		t.Errorf("the widget whose command killed the engine says %q", msg)
	}
	afterA := b.shown("#a")
	afterB := b.shown("#b")
	if afterB.Pos != beforeB.Pos || afterB.End != beforeB.End || afterB.Clock != beforeB.Clock || !same(afterB.Ready, beforeB.Ready) {
		t.Errorf("the other widget came back as %+v, it showed %+v", afterB, beforeB)
	}
	if afterA.Pos != beforeA.Pos || !same(afterA.Ready, beforeA.Ready) || !same(afterA.Mailbox, beforeA.Mailbox) {
		t.Errorf("the widget that crashed came back as %+v, it showed %+v", afterA, beforeA)
	}
	if problem := evalJS[bool](b, in("#b", ".problem")+".hidden"); !problem {
		t.Errorf("the other widget shows a problem: %s", evalJS[string](b, in("#b", ".problem")+".textContent"))
	}
	if n := fetches("/widget/engine-worker.js"); n < 1 {
		t.Errorf("the worker module was fetched %d times", n)
	}
	b.shot("after-engine-restart")

	// Both work: a step in each, and the share link of the other still
	// reproduces what it shows.
	evalJS[bool](b, in("#b", "button.step")+".click(), true")
	if got := b.shown("#b"); got.Pos != beforeB.Pos+1 {
		t.Errorf("after the restart a step in the other widget went to %d, want %d", got.Pos, beforeB.Pos+1)
	}
	evalJS[bool](b, `(document.querySelector("#a").typed("basic.publish key=q body=after"), true)`)
	if got := b.shown("#a"); got.End <= beforeA.End && got.Pos == beforeA.Pos {
		t.Errorf("after the restart the first widget ran nothing: %+v", got)
	}
	link := evalJS[string](b, `document.querySelector("#b").shareURL()`)
	want := b.shown("#b")
	fresh := b.tab()
	fresh.open(link)
	if again := fresh.shown("warren-scenario"); again.Pos != want.Pos || again.End != want.End || !same(again.Ready, want.Ready) {
		t.Errorf("the other widget's share link after the restart opens as %+v, want %+v", again, want)
	}
	b.noErrors()
}

func same(a, b map[string]int) bool {
	if len(a) != len(b) {
		return false
	}
	for k, v := range a {
		if b[k] != v {
			return false
		}
	}
	return true
}

// TestFarWidgetRunsWhenNear: a widget far below the fold has not run its
// scenario while the reader is at the top; scrolled to, it runs it
// without anyone asking for ready.
func TestFarWidgetRunsWhenNear(t *testing.T) {
	b := newBrowser(t)
	if err := chromedp.Do(b.ctx, chromedp.Navigate(siteURL(t)+"/test-far.html")); err != nil {
		t.Fatal(err)
	}
	evalJS[bool](b, `(async () => { await customElements.whenDefined("warren-scenario"); await document.querySelector("#near").ready; return true; })()`)
	time.Sleep(500 * time.Millisecond)
	if got := b.shown("#near"); got.End == 0 || got.Pos != got.End {
		t.Errorf("the widget at the top shows %+v: it did not run", got)
	}
	farClock := func() string { return evalJS[string](b, in("#far", ".clock")+".textContent") }
	if c := farClock(); c != "" {
		t.Errorf("the widget 6000 px below the fold ran before the reader came near it: its clock says %q", c)
	}
	evalJS[bool](b, `(window.scrollTo(0, document.querySelector("#far").offsetTop - 1500), true)`)
	var c string
	for deadline := time.Now().Add(20 * time.Second); time.Now().Before(deadline); time.Sleep(100 * time.Millisecond) {
		if c = farClock(); c != "" {
			break
		}
	}
	s := native(t, scenarioOne)
	if want := fmt.Sprintf("event %d / %d", s.Furthest(), s.Furthest()); !strings.HasPrefix(c, want) {
		t.Errorf("scrolled near, the far widget's clock says %q, want %s", c, want)
	}
	b.noErrors()
}
