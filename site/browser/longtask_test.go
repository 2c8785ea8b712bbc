package browser_test

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/page"
	"github.com/chromedp/cdproto/tracing"
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
func lessonPages(t testing.TB) []string {
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
// (0.4 s) at 200 events a second, scrolled into view as a reader would.
const playAll = `(async () => {
	const ws = [...document.querySelectorAll("warren-scenario")];
	for (const w of ws) {
		w.scrollIntoView({block: "center"});
		await w.ready;
		const s = w.shadowRoot.querySelector(".speed");
		s.value = "200";
		s.dispatchEvent(new Event("change"));
		w.shadowRoot.querySelector("button.play").click();
		await new Promise((r) => setTimeout(r, 400));
		w.pause();
	}
	return ws.length;
})()`

// freezeMs is how long a main-thread task may run on a CPU before a
// reader sees the page freeze: four times the 50 ms a task should take.
const freezeMs = 200

// traceEvent is one event of Chromium's trace (the JSON trace format).
type traceEvent struct {
	Name string  `json:"name"`
	Ph   string  `json:"ph"`
	Pid  int64   `json:"pid"`
	Tid  int64   `json:"tid"`
	Dur  float64 `json:"dur"`  // µs of wall time
	Tdur float64 `json:"tdur"` // µs the thread was on a CPU
	Args struct {
		Name string `json:"name"`
	} `json:"args"`
}

// mainTask is one task of a page's main thread: wall time, and the part
// of it the thread ran on a CPU (the rest it waited for one: on a machine
// whose cores are busy with other work a 10 ms task can take 100 ms).
type mainTask struct{ WallMs, CPUMs float64 }

// traceMainThreads runs fn while Chromium traces its top-level tasks, and
// returns the tasks of the renderers' main threads.
func (b *browser) traceMainThreads(fn func()) []mainTask {
	b.t.Helper()
	ctx, cancel := context.WithCancel(b.ctx)
	defer cancel()
	var mu sync.Mutex
	var events []traceEvent
	done := make(chan bool, 1)
	if err := chromedp.Listen(ctx, func(ev any) {
		switch e := ev.(type) {
		case *tracing.EventDataCollected:
			mu.Lock()
			for _, v := range e.Value {
				var te traceEvent
				if json.Unmarshal(v, &te) == nil {
					events = append(events, te)
				}
			}
			mu.Unlock()
		case *tracing.EventTracingComplete:
			done <- true
		}
	}); err != nil {
		b.t.Fatalf("listening for the trace: %v", err)
	}
	if _, err := chromedp.Call(b.ctx, tracing.Start, tracing.StartParams{TransferMode: tracing.StartTransferModeReportEvents,
		TraceConfig: &tracing.TraceConfig{IncludedCategories: []string{"toplevel", "__metadata"}}}); err != nil {
		b.t.Fatalf("starting the trace: %v", err)
	}
	fn()
	if _, err := chromedp.Call(b.ctx, tracing.End, cdp.Empty{}); err != nil {
		b.t.Fatalf("ending the trace: %v", err)
	}
	select {
	case <-done:
	case <-time.After(30 * time.Second):
		b.t.Fatal("the trace did not complete")
	}
	mu.Lock()
	defer mu.Unlock()
	type thread struct{ pid, tid int64 }
	main := map[thread]bool{}
	for _, e := range events {
		if e.Ph == "M" && e.Name == "thread_name" && e.Args.Name == "CrRendererMain" {
			main[thread{e.Pid, e.Tid}] = true
		}
	}
	var tasks []mainTask
	for _, e := range events {
		// Every top-level slice: a task, and the microtask checkpoint
		// after it, which Chromium traces beside it.
		if e.Ph == "X" && main[thread{e.Pid, e.Tid}] {
			tasks = append(tasks, mainTask{e.Dur / 1000, e.Tdur / 1000})
		}
	}
	if len(tasks) == 0 {
		b.t.Fatalf("the trace has no main-thread tasks (%d events)", len(events))
	}
	return tasks
}

// longestTasks is the longest wall time and the most CPU of any task.
func longestTasks(tasks []mainTask) (wall, cpu float64) {
	for _, t := range tasks {
		wall = max(wall, t.WallMs)
		cpu = max(cpu, t.CPUMs)
	}
	return wall, cpu
}
