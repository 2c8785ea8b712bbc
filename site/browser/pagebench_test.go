package browser_test

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/cdproto/emulation"
	"github.com/chromedp/chromedp"
)

// BenchmarkLessonPages measures every lesson page, English and Chinese, as
// a reader meets it (go run ./scripts/bench -pages, which runs go test
// ./site/browser -run '^$' -bench '^BenchmarkLessonPages$' -benchtime 1x
// -v): it is a measurement, not a test, so ./scripts/test does not run
// it. Each page opens in a browser of its own (nothing cached, nothing
// of another page in its memory) and is read top to bottom: each widget
// is scrolled into view, and the reader presses Step once it can be
// pressed. Per widget it prints the time from coming into view to the
// step answered (the slider at the event after; a lesson's block that
// opens at its moment runs the rest of its script behind the reader, and
// that is waited for before the seeks), and the worst seek (the slider moved to five points,
// from the input to the state drawn) and step back (Back pressed at each
// of them); per page, the first widget's step answered from navigation,
// the longest main-thread task, and the memory of the whole tab, every
// Chromium process summed (proportional set sizes, so shared pages count
// once), after the last widget. Every figure is on a line starting
// "bench: ".
//
// WARREN_BENCH_PAGES, a regular expression, picks pages by path;
// WARREN_BENCH_CPU lists the CPU slowdowns to measure at (DevTools'
// throttling of the page; default "1,4": the machine as it is, then
// roughly a mid-range phone).
func BenchmarkLessonPages(bb *testing.B) {
	var t testing.TB = bb
	say := func(format string, args ...any) { t.Logf("bench: "+format, args...) }
	pick := regexp.MustCompile(os.Getenv("WARREN_BENCH_PAGES"))
	rates := []float64{1, 4}
	if v := os.Getenv("WARREN_BENCH_CPU"); v != "" {
		rates = nil
		for _, f := range strings.Split(v, ",") {
			r, err := strconv.ParseFloat(strings.TrimSpace(f), 64)
			if err != nil || r < 1 {
				t.Fatalf("WARREN_BENCH_CPU: %q is not a slowdown of 1 or more", f)
			}
			rates = append(rates, r)
		}
	}
	var pages []string
	for _, p := range lessonPagesBothLanguages(t) {
		if pick.MatchString(p) {
			pages = append(pages, p)
		}
	}
	for _, rate := range rates {
		var rows []pageFigures
		for _, p := range pages {
			f := measurePage(t, p, rate)
			for _, w := range f.Widgets {
				answered := "no answer within the wait"
				if w.Ready {
					answered = fmt.Sprintf("%.0f ms", w.ViewToStep)
				}
				say("x%g %s widget %d %q (%d events): a step answered %s after it came into view; seek worst %.0f ms, step back worst %.0f ms",
					rate, p, w.Index+1, w.Title, w.End, answered, slicesMax(w.Seek), slicesMax(w.Back))
			}
			say("x%g %s: first widget's step answered %.0f ms after navigation; slowest widget %s; longest main-thread task %.0f ms; tab memory %.0f MB; worst seek %.0f ms, worst step back %.0f ms",
				rate, p, f.FirstFromNav, f.slowest(), f.LongestTask, f.MemoryMB, f.worst(func(w widgetFigures) []float64 { return w.Seek }), f.worst(func(w widgetFigures) []float64 { return w.Back }))
			rows = append(rows, f)
		}
		say("x%g summary: %d pages; every widget answered a step within %s of coming into view; the first widget of every page within %.0f ms of navigation; longest task %.0f ms; most memory %.0f MB (%s); worst seek %.0f ms, worst step back %.0f ms",
			rate, len(rows), worstOf(rows), maxOf(rows, func(f pageFigures) float64 { return f.FirstFromNav }), maxOf(rows, func(f pageFigures) float64 { return f.LongestTask }),
			maxOf(rows, func(f pageFigures) float64 { return f.MemoryMB }), heaviest(rows),
			maxOf(rows, func(f pageFigures) float64 { return f.worst(func(w widgetFigures) []float64 { return w.Seek }) }),
			maxOf(rows, func(f pageFigures) float64 { return f.worst(func(w widgetFigures) []float64 { return w.Back }) }))
	}
}

// lessonPagesBothLanguages lists the built site's lesson pages in English
// and in Chinese.
func lessonPagesBothLanguages(t testing.TB) []string {
	t.Helper()
	siteURL(t) // builds the site
	var pages []string
	for _, lang := range []string{"", "/zh"} {
		entries, err := os.ReadDir(filepath.Join(testSite.dir, filepath.FromSlash(strings.TrimPrefix(lang+"/lessons", "/"))))
		if err != nil {
			t.Fatal(err)
		}
		for _, e := range entries {
			if e.IsDir() {
				pages = append(pages, lang+"/lessons/"+e.Name()+"/")
			}
		}
	}
	sort.Strings(pages)
	return pages
}

type widgetFigures struct {
	Index      int       `json:"index"`
	Title      string    `json:"title"`
	End        int64     `json:"end"`
	Ready      bool      `json:"ready"`
	ViewToStep float64   `json:"viewToStep"`
	Seek       []float64 `json:"seek"`
	Back       []float64 `json:"back"`
}

type pageFigures struct {
	Widgets      []widgetFigures `json:"widgets"`
	FirstFromNav float64         `json:"firstFromNav"`
	LongestTask  float64
	MemoryMB     float64
	path         string
}

func (f pageFigures) slowest() string {
	worst, at := -1.0, ""
	for _, w := range f.Widgets {
		if !w.Ready {
			return fmt.Sprintf("%q gave no answer", w.Title)
		}
		if w.ViewToStep > worst {
			worst, at = w.ViewToStep, w.Title
		}
	}
	if worst < 0 {
		return "none (no widgets)"
	}
	return fmt.Sprintf("%q, %.0f ms", at, worst)
}

func (f pageFigures) worst(of func(widgetFigures) []float64) float64 {
	m := 0.0
	for _, w := range f.Widgets {
		m = max(m, slicesMax(of(w)))
	}
	return m
}

func worstOf(rows []pageFigures) string {
	m := 0.0
	for _, f := range rows {
		for _, w := range f.Widgets {
			if !w.Ready {
				return "no time: a widget of " + f.path + " gave no answer"
			}
			m = max(m, w.ViewToStep)
		}
	}
	return fmt.Sprintf("%.0f ms", m)
}

func maxOf(rows []pageFigures, of func(pageFigures) float64) float64 {
	m := 0.0
	for _, f := range rows {
		m = max(m, of(f))
	}
	return m
}

func heaviest(rows []pageFigures) string {
	m, at := 0.0, ""
	for _, f := range rows {
		if f.MemoryMB > m {
			m, at = f.MemoryMB, f.path
		}
	}
	return at
}

// readThrough is the reader: each widget in turn scrolled into view,
// Step pressed once it can be, then the slider moved to five points and
// Back pressed at each, each timed from the reader's act to the state
// drawn. A widget that gives no answer within waitMs is noted and left.
const readThrough = `(async (waitMs) => {
	const frame = () => new Promise((r) => requestAnimationFrame(() => r()));
	const within = (p) => Promise.race([p.then(() => true), new Promise((r) => setTimeout(() => r(false), waitMs))]);
	await customElements.whenDefined("warren-scenario");
	const out = {widgets: [], firstFromNav: 0};
	const ws = [...document.querySelectorAll("warren-scenario")];
	for (const [index, w] of ws.entries()) {
		w.scrollIntoView({block: "center"});
		const seen = performance.now();
		const fig = {index, title: w.getAttribute("aria-label") || "", end: 0, ready: false, viewToStep: 0, seek: [], back: []};
		out.widgets.push(fig);
		if (!(await within(w.ready))) continue;
		const r = w.shadowRoot, step = r.querySelector("button.step"), back = r.querySelector("button.back"), tl = r.querySelector(".timeline");
		while (step.disabled && performance.now() - seen < waitMs) await new Promise((d) => setTimeout(d, 5));
		// answered: the slider shows the event after, or the widget has
		// done all it was asked (a Step that says the story ends here);
		// what it still runs behind the reader is not waited for
		const from = Number(tl.value);
		step.click();
		const moved = (async () => { while (Number(tl.value) === from && performance.now() - seen < waitMs) await new Promise((d) => setTimeout(d, 5)); })();
		if (!(await within(Promise.race([moved, w.idle()])))) continue;
		await frame();
		fig.viewToStep = performance.now() - seen;
		fig.ready = true;
		if (index === 0) out.firstFromNav = performance.now();
		if (!(await within(w.idle()))) continue;
		const end = Number(tl.max);
		fig.end = end;
		for (let k = 1; k <= 5 && end > 1; k++) {
			let t0 = performance.now();
			tl.value = String(Math.round((end * k) / 6));
			tl.dispatchEvent(new Event("input"));
			await frame();
			if (!(await within(w.idle()))) break;
			await frame();
			fig.seek.push(performance.now() - t0);
			t0 = performance.now();
			back.click();
			if (!(await within(w.idle()))) break;
			await frame();
			fig.back.push(performance.now() - t0);
		}
	}
	return out;
})`

// measurePage reads one page in a fresh browser at a CPU slowdown.
func measurePage(t testing.TB, path string, rate float64) pageFigures {
	b := newBrowserFor(t, 30*time.Minute)
	b.watchLongTasks()
	if rate > 1 {
		if _, err := chromedp.Call(b.ctx, emulation.SetCPUThrottlingRate, emulation.SetCPUThrottlingRateParams{Rate: rate}); err != nil {
			t.Fatalf("throttling the CPU: %v", err)
		}
	}
	if err := chromedp.Do(b.ctx, chromedp.Navigate(siteURL(t)+path)); err != nil {
		t.Fatalf("navigate to %s: %v", path, err)
	}
	wait := 120_000 * rate
	v, err := chromedp.Run(b.ctx, chromedp.Evaluate[pageFigures](fmt.Sprintf("%s(%g)", readThrough, wait), chromedp.EvalAwaitPromise))
	if err != nil {
		t.Fatalf("%s: reading the page: %v", path, err)
	}
	v.path = path
	v.LongestTask = longest(b.longTasks())
	v.MemoryMB = tabMemoryMB(t, b)
	return v
}

// tabMemoryMB sums the proportional set size of the browser's processes
// (the browser, its renderer, GPU and utility processes): one tab is open,
// so that is the tab's memory in all its processes.
func tabMemoryMB(t testing.TB, b *browser) float64 {
	c := chromedp.FromContext(b.ctx)
	if c == nil || c.Browser == nil || c.Browser.Process() == nil {
		t.Fatal("no browser process to measure")
	}
	root := c.Browser.Process().Pid
	children := map[int][]int{}
	procs, _ := os.ReadDir("/proc")
	for _, p := range procs {
		pid, err := strconv.Atoi(p.Name())
		if err != nil {
			continue
		}
		stat, err := os.ReadFile(filepath.Join("/proc", p.Name(), "stat"))
		if err != nil {
			continue
		}
		// the fields after the command's name, which is in parentheses
		rest := stat[bytes.LastIndexByte(stat, ')')+1:]
		fields := strings.Fields(string(rest))
		if len(fields) > 1 {
			if ppid, err := strconv.Atoi(fields[1]); err == nil {
				children[ppid] = append(children[ppid], pid)
			}
		}
	}
	var kb int64
	for todo := []int{root}; len(todo) > 0; {
		pid := todo[0]
		todo = append(todo[1:], children[pid]...)
		rollup, err := os.ReadFile(fmt.Sprintf("/proc/%d/smaps_rollup", pid))
		if err != nil {
			continue // it ended meanwhile
		}
		for _, line := range strings.Split(string(rollup), "\n") {
			if rest, ok := strings.CutPrefix(line, "Pss:"); ok {
				n, _ := strconv.ParseInt(strings.TrimSuffix(strings.TrimSpace(rest), " kB"), 10, 64)
				kb += n
			}
		}
	}
	return float64(kb) / 1024
}
