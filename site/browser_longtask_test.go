package site_test

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/cdproto/page"
	"github.com/chromedp/chromedp"
)

// longTaskProbe runs before any script of a page: it records every task
// that held the main thread over 50 ms (the browser's own long-task
// entries), and the time the first widget answered a step.
const longTaskProbe = `(() => {
	globalThis.__longTasks = [];
	try {
		new PerformanceObserver((list) => {
			for (const e of list.getEntries()) globalThis.__longTasks.push({start: e.startTime, ms: e.duration});
		}).observe({type: "longtask", buffered: true});
	} catch (e) {
		globalThis.__longTasks = null;
	}
})();`

// watchLongTasks installs longTaskProbe in every page this tab opens.
func (b *browser) watchLongTasks() {
	b.t.Helper()
	if _, err := chromedp.Call(b.ctx, page.AddScriptToEvaluateOnNewDocument, page.AddScriptToEvaluateOnNewDocumentParams{Source: longTaskProbe}); err != nil {
		b.t.Fatalf("installing the long-task observer: %v", err)
	}
}

// longTask is one main-thread task over 50 ms, in the page's clock (ms).
type longTask struct {
	Start float64 `json:"start"`
	Ms    float64 `json:"ms"`
}

// longTasks returns the long tasks the page has had so far.
func (b *browser) longTasks() []longTask {
	b.t.Helper()
	// A task is reported once it has ended: give the last one a frame.
	return evalJS[[]longTask](b, `new Promise((done) => requestAnimationFrame(() => setTimeout(() => {
		if (globalThis.__longTasks === null) throw new Error("this Chromium has no long-task entries");
		done(globalThis.__longTasks);
	}, 50)))`)
}

func longest(tasks []longTask) (ms float64) {
	for _, t := range tasks {
		ms = max(ms, t.Ms)
	}
	return ms
}

// lessonPages lists the built site's lesson pages and the playground.
func lessonPages(t *testing.T) []string {
	t.Helper()
	entries, err := os.ReadDir(filepath.Join(testSite.dir, "lessons"))
	if err != nil {
		t.Fatal(err)
	}
	var pages []string
	for _, e := range entries {
		if e.IsDir() {
			pages = append(pages, "/lessons/"+e.Name()+"/")
		}
	}
	return append(pages, "/playground/")
}

// playAll plays every widget of the page, one after another, for a while
// at 200 events a second, scrolled into view as a reader would.
const playAll = `(async () => {
	const ws = [...document.querySelectorAll("warren-scenario")];
	for (const w of ws) {
		w.scrollIntoView({block: "center"});
		await w.ready;
		const s = w.shadowRoot.querySelector(".speed");
		s.value = "200";
		s.dispatchEvent(new Event("change"));
		w.shadowRoot.querySelector("button.play").click();
		await new Promise((r) => setTimeout(r, 600));
		w.pause();
	}
	return ws.length;
})()`

// TestLessonPagesNeverFreeze: while each lesson page loads, while the
// reader scrolls through it and while each of its widgets plays, no task
// holds the page's main thread over 50 ms.
func TestLessonPagesNeverFreeze(t *testing.T) {
	b := newBrowser(t)
	b.watchLongTasks()
	siteURL(t)
	var report []string
	for _, p := range lessonPages(t) {
		if err := chromedp.Do(b.ctx, chromedp.Navigate("about:blank")); err != nil {
			t.Fatal(err)
		}
		start := time.Now()
		b.open(p)
		loaded := time.Since(start)
		load := b.longTasks()
		n := evalJS[int](b, playAll)
		all := b.longTasks()
		report = append(report, fmt.Sprintf("%s: %d widgets ready after %.0f ms; longest main-thread task %.0f ms loading, %.0f ms in all (%d over 50 ms)",
			p, n, float64(loaded.Milliseconds()), longest(load), longest(all), len(all)))
		if len(all) > 0 {
			var s []string
			for _, lt := range all {
				s = append(s, fmt.Sprintf("%.0f ms at %.0f ms", lt.Ms, lt.Start))
			}
			t.Errorf("%s: the main thread was held over 50 ms: %s", p, strings.Join(s, ", "))
		}
	}
	for _, r := range report {
		t.Log(r)
	}
	b.noErrors()
}
