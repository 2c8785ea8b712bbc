package browser_test

import (
	"fmt"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"warren/engine"
)

// probes are the links of issue 12 that froze a tab for minutes and then
// killed the engine: each is a script a stranger can put in a share link.
var probes = []struct{ name, script string }{
	{"run past the watermark", "set watermark=1000000000\nrun events=100000000"},
	{"ten million publishes", "queue.declare queue=q\nbasic.publish key=q count=10000000"},
}

// stoppedByBudget is what a widget says when a command reached a budget.
var stoppedByBudget = regexp.MustCompile(`stopped after|budget`)

// timeCut finds the events of a command the time budget stopped.
var timeCut = regexp.MustCompile(`stopped after ([\d,]+) events \(the time budget`)

// TestProbesLeaveTheTabResponsive: a widget running a probe's script as a
// share link does, on a page with other widgets: no task holds the page's
// main thread for freezeMs (on a CPU, from Chromium's trace, as
// TestEveryLessonPage judges), the probe stops with a message
// saying why within two seconds of the time budget of one command in the
// browser (engine.BrowserCommandTime) or at once when refused, the other
// widgets keep stepping meanwhile, and the probe's widget can be stepped
// afterwards. A run the time budget stopped is in the widget's share
// script as a #@cut of the events it ran, and a widget made from that
// script stops at the same event.
func TestProbesLeaveTheTabResponsive(t *testing.T) {
	for _, p := range probes {
		t.Run(p.name, func(t *testing.T) {
			b := newBrowser(t)
			b.open("/test-two.html")
			before := b.shown("#b")
			type outcome struct {
				Ms    float64 `json:"ms"`
				Said  string  `json:"said"`
				Gap   float64 `json:"gap"`
				Clock string  `json:"clock"`
			}
			var o outcome
			var stepMs float64
			tasks := b.traceMainThreads(func() {
				// The probe as a share link's script, in a widget added to the
				// page; a heartbeat notes the longest the main thread was away.
				evalJS[bool](b, fmt.Sprintf(`(() => {
					globalThis.__gap = 0;
					let last = performance.now();
					globalThis.__beat = setInterval(() => { const now = performance.now(); __gap = Math.max(__gap, now - last); last = now; }, 10);
					const w = document.createElement("warren-scenario");
					w.id = "probe";
					w.setAttribute("error-ok", "");
					w.textContent = %q;
					document.body.prepend(w);
					globalThis.__probeStart = performance.now();
					return true;
				})()`, p.script))
				// Meanwhile the other widget steps back, as a reader would.
				time.Sleep(time.Second)
				stepMs = evalJSRaw[float64](b, `(async () => {
					const w = document.querySelector("#b"), clock = w.shadowRoot.querySelector(".clock");
					const was = clock.textContent, t0 = performance.now();
					w.shadowRoot.querySelector("button.back").click();
					while (clock.textContent === was) {
						if (performance.now() - t0 > 60000) return -1;
						await new Promise((r) => setTimeout(r, 10));
					}
					return performance.now() - t0;
				})()`)
				o = evalJSRaw[outcome](b, `(async () => {
					const w = document.querySelector("#probe");
					const text = () => w.shadowRoot ? w.shadowRoot.querySelector(".log").textContent + " " + w.shadowRoot.querySelector(".problem").textContent : "";
					let stopped = true;
					while (!/stopped after|budget|engine stopped/.test(text())) {
						if (performance.now() - __probeStart > 150000) {
							stopped = false;
							break;
						}
						await new Promise((r) => setTimeout(r, 20));
					}
					const ms = performance.now() - __probeStart;
					if (stopped) await w.idle();
					clearInterval(__beat);
					return {ms, said: text(), gap: __gap, clock: w.shadowRoot.querySelector(".clock").textContent};
				})()`)
			})
			_, cpu := longestTasks(tasks)
			said := o.Said
			if i := strings.Index(said, "stopped after"); i >= 0 {
				said = said[i:min(len(said), i+160)]
			}
			t.Logf("%s: stopped after %.1f s, saying %q; the other widget stepped in %.0f ms meanwhile; the longest main-thread task ran %.0f ms on a CPU; two beats of a 10 ms timer on the page were at most %.0f ms apart",
				p.name, o.Ms/1000, said, stepMs, cpu, o.Gap)
			if !stoppedByBudget.MatchString(o.Said) {
				t.Errorf("after %.0f s the probe's widget says no budget stopped it: %.300q", o.Ms/1000, o.Said)
			}
			if o.Ms > 150000 {
				t.Fatalf("the probe ran %.0f s and had not stopped", o.Ms/1000)
			}
			if limit := engine.BrowserCommandTime + 2*time.Second; o.Ms > float64(limit.Milliseconds()) {
				t.Errorf("the probe's widget said why it stopped after %.1f s, more than two seconds past the time budget of %v", o.Ms/1000, engine.BrowserCommandTime)
			}
			if m := timeCut.FindStringSubmatch(o.Said); m != nil {
				// the cut is in the share script; replayed, it stops there
				n := strings.ReplaceAll(m[1], ",", "")
				script := evalJSRaw[string](b, `document.querySelector("#probe").shareScript()`)
				if !strings.Contains(script, "#@cut "+n+"\n") {
					t.Errorf("the share script does not carry the cut at %s events:\n%.400s", n, script)
				}
				again := evalJSRaw[string](b, fmt.Sprintf(`(async () => {
					const w = document.createElement("warren-scenario");
					w.id = "again";
					w.setAttribute("error-ok", "");
					w.textContent = %q;
					document.body.prepend(w);
					await w.ready;
					await w.idle();
					return w.shadowRoot.querySelector(".log").textContent;
				})()`, script))
				// it stops at the cut, or before it when this run is slower
				// than the first (a cut is a ceiling, the time budget holds)
				cut, _ := strconv.ParseInt(n, 10, 64)
				stop := timeCut.FindStringSubmatch(again)
				var at int64 = -1
				if stop != nil {
					at, _ = strconv.ParseInt(strings.ReplaceAll(stop[1], ",", ""), 10, 64)
				}
				if at < 0 || at > cut {
					t.Errorf("a widget made from the share script did not stop at %s events, or before them by its own time budget: %.300q", m[1], again)
				} else if at < cut {
					t.Logf("the widget made from the share script stopped at %d events, before the cut at %d: this run was slower", at, cut)
				}
			}
			if cpu > freezeMs {
				t.Errorf("a task held the page's main thread %.0f ms", cpu)
			}
			if stepMs < 0 || stepMs > 5000 {
				t.Errorf("while the probe ran, a step in the other widget took %.0f ms", stepMs)
			}
			if got := b.shown("#b"); got.Pos != before.Pos-1 {
				t.Errorf("the other widget is at %d after a step back from %d", got.Pos, before.Pos)
			}
			// The probe's widget is still usable: a step back, then a reset.
			evalJS[bool](b, in("#probe", "button.back")+".click(), true")
			after := b.shown("#probe")
			if after.Clock == o.Clock {
				t.Errorf("a step back in the probe's widget changed nothing (%s)", after.Clock)
			}
			b.noErrors()
		})
	}
}

// evalJSRaw evaluates an expression without first waiting for the
// widgets to settle (a probe may keep one busy).
func evalJSRaw[T any](b *browser, expr string) T {
	b.t.Helper()
	v, err := chromedp.Run(b.ctx, chromedp.Evaluate[T](expr, chromedp.EvalAwaitPromise))
	if err != nil {
		b.t.Fatalf("evaluating %.200s: %v", expr, err)
	}
	return v
}
