//go:build sweeps

package browser_test

import (
	"fmt"
	"os"
	"strconv"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
)

// The sweeps tier: go test -tags sweeps -run TestSweeps -timeout 12h
// ./site/browser. It reads every lesson page, English and Chinese,
// WARREN_SWEEPS times (10 by default), and does to every widget what a
// restless reader would: it takes hours, so ./scripts/test leaves it out,
// and it is run before a release and after a change to the widget's
// runtime (the workers, the bridge, checkpoints and seeking).

// sweepWait is how long one act on a widget may take before it counts as
// a hang: a lesson's command runs whole, with no time budget, so the
// heaviest take seconds; a reset runs a whole scenario again.
const sweepWait = 120 * time.Second

// sweep is the reader: every widget of the page in turn, brought into
// view, then stepped, stepped back, played for a moment, sought to the
// middle of its timeline and back to its start, shown in every view and
// reset, each act awaited until the widget is idle again. An act that
// does not end within waitMs is a hang: it is noted, with what the
// page's engine connection held, and the sweep goes on to the next
// widget. It returns the hangs and the slowest act.
const sweep = `(async (waitMs) => {
	const within = (p) => Promise.race([Promise.resolve(p).then(() => true), new Promise((r) => setTimeout(() => r(false), waitMs))]);
	const frame = () => new Promise((r) => requestAnimationFrame(() => r()));
	await customElements.whenDefined("warren-scenario");
	const out = {widgets: 0, acts: 0, hangs: [], slowest: {ms: 0, what: ""}};
	const acts = [
		["step", (w, r) => r.querySelector("button.step").click()],
		["back", (w, r) => r.querySelector("button.back").click()],
		["play", async (w, r) => { r.querySelector("button.play").click(); await new Promise((s) => setTimeout(s, 300)); if (w.player.playing) r.querySelector("button.play").click(); }],
		["seek to the middle", (w, r) => { const tl = r.querySelector(".timeline"); tl.value = String(Math.round(Number(tl.max) / 2)); tl.dispatchEvent(new Event("input")); }],
		["seek to the start", (w, r) => { const tl = r.querySelector(".timeline"); tl.value = "0"; tl.dispatchEvent(new Event("input")); }],
		["rates view", (w, r) => r.querySelector("button.view-rates").click()],
		["files view", (w, r) => r.querySelector("button.view-files").click()],
		["table view", (w, r) => r.querySelector("button.view").click()],
		["diagram", (w, r) => { r.querySelector("button.view").click(); if (w.view !== "diagram") r.querySelector("button.view-" + w.view).click(); }],
		["reset", (w, r) => r.querySelector("button.reset").click()],
	];
	// what the widget's engine connection holds: its workers, each with
	// the calls waiting and how long the first has run
	const engineState = (w) => {
		try {
			const c = w.engine.conn;
			return JSON.stringify([...c.lanes].map((l) => ({alive: l.alive, pending: l.pending.size, running: l.runningSince ? Date.now() - l.runningSince : 0})));
		} catch (e) {
			return String(e);
		}
	};
	for (const [i, w] of [...document.querySelectorAll("warren-scenario")].entries()) {
		const title = (i + 1) + " " + JSON.stringify(w.getAttribute("aria-label") || "");
		w.scrollIntoView({block: "center"});
		out.widgets++;
		if (!(await within(w.ready))) {
			out.hangs.push({widget: title, act: "opening", engine: engineState(w)});
			continue;
		}
		const r = w.shadowRoot;
		for (const [name, act] of acts) {
			const t0 = performance.now();
			await act(w, r);
			await frame();
			if (!(await within(w.idle()))) {
				out.hangs.push({widget: title, act: name, engine: engineState(w)});
				break;
			}
			out.acts++;
			const ms = performance.now() - t0;
			if (ms > out.slowest.ms) out.slowest = {ms, what: title + " " + name};
		}
	}
	return out;
})`

type sweepResult struct {
	Widgets int `json:"widgets"`
	Acts    int `json:"acts"`
	Hangs   []struct {
		Widget string `json:"widget"`
		Act    string `json:"act"`
		Engine string `json:"engine"`
	} `json:"hangs"`
	Slowest struct {
		Ms   float64 `json:"ms"`
		What string  `json:"what"`
	} `json:"slowest"`
}

// TestSweeps: WARREN_SWEEPS full sweeps of every lesson page (ten by
// default), each page in a browser of its own, give no hang: every act
// on every widget ends within sweepWait, and the page reports no error.
func TestSweeps(t *testing.T) {
	rounds := 10
	if v := os.Getenv("WARREN_SWEEPS"); v != "" {
		n, err := strconv.Atoi(v)
		if err != nil || n < 1 {
			t.Fatalf("WARREN_SWEEPS=%q: want a number of sweeps, 1 or more", v)
		}
		rounds = n
	}
	pages := lessonPagesBothLanguages(t)
	for round := 1; round <= rounds; round++ {
		start := time.Now()
		widgets, acts := 0, 0
		for _, p := range pages {
			t.Run(fmt.Sprintf("sweep %d %s", round, p), func(t *testing.T) {
				b := newBrowserFor(t, 60*time.Minute)
				if err := chromedp.Do(b.ctx, chromedp.Navigate(siteURL(t)+p)); err != nil {
					t.Fatalf("navigate to %s: %v", p, err)
				}
				v, err := chromedp.Run(b.ctx, chromedp.Evaluate[sweepResult](fmt.Sprintf("%s(%d)", sweep, sweepWait.Milliseconds()), chromedp.EvalAwaitPromise))
				if err != nil {
					t.Fatalf("sweeping %s: %v", p, err)
				}
				for _, h := range v.Hangs {
					t.Errorf("%s widget %s: %s gave no answer within %s; the engine's workers: %s", p, h.Widget, h.Act, sweepWait, h.Engine)
				}
				b.noErrors()
				widgets += v.Widgets
				acts += v.Acts
				t.Logf("%s: %d widgets, %d acts; the slowest %s, %.0f ms", p, v.Widgets, v.Acts, v.Slowest.What, v.Slowest.Ms)
			})
		}
		t.Logf("sweep %d: %d pages, %d widgets, %d acts in %s", round, len(pages), widgets, acts, time.Since(start).Round(time.Second))
	}
}
