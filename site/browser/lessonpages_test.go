package browser_test

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"

	"warren/engine"
	"warren/lessons"
)

// TestEveryLessonPage opens each lesson page once, as a reader who scrolls
// through it and plays each widget, and checks there everything a lesson
// page promises; the playground and the embedding pages get the checks
// that are not about lessons. Opening the heavy pages is most of what the
// browser tests cost, so each page is opened once for all of these:
//   - every widget ran without a message (but those marked error-ok) and
//     the page without an exception;
//   - each widget opens at the event its block names (open=, worked out on
//     the engine in Go), shows the caption in force there, and stepping on
//     with the keyboard shows and announces the next caption;
//   - no command of a widget was stopped by the time budget of one command
//     in the browser (a lesson cut short teaches nothing);
//   - while the page loads, while the reader steps and while each widget
//     plays, no task of the page's main thread runs for freezeMs on a CPU
//     (from Chromium's trace; the page's own long-task entries, which
//     count the time the thread waited for a CPU, are printed beside).
//
// It prints, per page, how long until every widget was ready and idle, and
// the longest task; and takes a screenshot of each page and of its first
// widget.
func TestEveryLessonPage(t *testing.T) {
	// the two sweeps of every page, this and the Chinese reader's, share
	// nothing and wait on their pages' workers: they run side by side
	t.Parallel()
	b := newBrowserFor(t, 15*time.Minute)
	b.watchLongTasks()
	siteURL(t)
	all, err := lessons.All()
	if err != nil {
		t.Fatal(err)
	}
	type page struct {
		path   string
		lesson *lessons.Lesson
	}
	var pages []page
	for i := range all {
		pages = append(pages, page{"/lessons/" + all[i].Slug + "/", &all[i]})
	}
	for _, p := range []string{"/playground/", "/embed.html", "/embedding/"} {
		pages = append(pages, page{path: p})
	}
	if built := lessonPages(t); len(built) != len(all)+1 {
		t.Errorf("the site has %d lesson pages and the playground, and the course %d lessons", len(built), len(all))
	}
	var report []string
	checked, narrated := 0, 0
	for _, p := range pages {
		if err := chromedp.Do(b.ctx, chromedp.Navigate("about:blank")); err != nil {
			t.Fatal(err)
		}
		var ready, idle time.Duration
		var observed []longTask
		var n int
		tasks := b.traceMainThreads(func() {
			start := time.Now()
			b.open(p.path)
			ready = time.Since(start)
			for _, m := range evalJS[[]string](b, `[...document.querySelectorAll("warren-scenario")]
				.filter((w) => !w.hasAttribute("error-ok"))
				.map((w) => w.shadowRoot.querySelector(".problem"))
				.filter((m) => m && !m.hidden).map((m) => m.textContent)`) {
				t.Errorf("%s: a widget says %q", p.path, m)
			}
			if p.lesson != nil {
				c, nr := b.checkMoments(t, *p.lesson)
				checked, narrated = checked+c, narrated+nr
			}
			for _, c := range evalJS[[]string](b, `(async () => {
				const cuts = [];
				for (const [i, w] of [...document.querySelectorAll("warren-scenario")].entries()) {
					await w.idle();
					const m = /stopped after [\d,]+ events \(the time budget[^)]*\)/.exec(w.shadowRoot.querySelector(".log").textContent);
					if (m) cuts.push("widget " + (i + 1) + ": " + m[0]);
				}
				return cuts;
			})()`) {
				t.Errorf("%s, %s", p.path, c)
			}
			idle = time.Since(start)
			n = evalJS[int](b, playAll)
			observed = b.longTasks()
		})
		wall, cpu := longestTasks(tasks)
		report = append(report, fmt.Sprintf("%s: %d widgets ready after %.1f s, idle after %.1f s; longest main-thread task %.0f ms on a CPU (%.0f ms of wall time); the page's long-task entries: %d, the longest %.0f ms",
			p.path, n, ready.Seconds(), idle.Seconds(), cpu, wall, len(observed), longest(observed)))
		var over []string
		for _, lt := range tasks {
			if lt.CPUMs > freezeMs {
				over = append(over, fmt.Sprintf("%.0f ms (%.0f ms wall)", lt.CPUMs, lt.WallMs))
			}
		}
		if len(over) > 0 {
			t.Errorf("%s: main-thread tasks ran over %d ms on a CPU: %s", p.path, freezeMs, strings.Join(over, ", "))
		}
		name := "page-" + strings.TrimSuffix(strings.Trim(strings.ReplaceAll(p.path, "/", "-"), "-"), ".html")
		b.shot(name)
		if n > 0 {
			b.shotElement("warren-scenario", name+"-widget1")
		}
	}
	if checked < 20 || narrated < 3 {
		t.Errorf("checked %d widgets and %d captions reached by stepping: the lessons have more", checked, narrated)
	}
	for _, r := range report {
		t.Log(r)
	}
	t.Logf("the time budget of one command is %v past %d events", engine.BrowserCommandTime, engine.TimeBudgetFloor)
	b.noErrors()
}

// checkMoments checks, on the open page of lesson l, that each widget
// opens at the event its block names, shows the caption in force there,
// and that stepping on with the keyboard shows and announces the next
// caption. It returns how many widgets and captions it checked.
func (b *browser) checkMoments(t *testing.T, l lessons.Lesson) (checked, narrated int) {
	t.Helper()
	type widget struct {
		Pos     int64  `json:"pos"`
		End     int64  `json:"end"`
		Caption string `json:"caption"`
		Shown   bool   `json:"shown"`
		Live    string `json:"live"`
	}
	read := func(sel string) widget {
		return evalJS[widget](b, fmt.Sprintf(`(() => {
			const r = document.querySelector(%q).shadowRoot, c = r.querySelector(".caption");
			return {pos: r.querySelector(".timeline").valueAsNumber, end: Number(r.querySelector(".timeline").max),
				caption: c.textContent, shown: !c.hidden && c.offsetHeight > 0,
				live: r.querySelector("[data-role=announce]").textContent};
		})()`, sel))
	}
	blocks, err := l.Scenarios()
	if err != nil {
		t.Fatal(err)
	}
	for i, blk := range blocks {
		sel := fmt.Sprintf("#scenario-%d", i+1)
		m := blockMoments(t, l, blk)
		got := read(sel)
		where := fmt.Sprintf("%s:%d (%q, open=%s)", l.File, blk.Line, blk.Info.Title, blk.Info.Open)
		if got.Pos != m.open {
			t.Errorf("%s: the widget opens at event %d of %d, want %d", where, got.Pos, got.End, m.open)
		}
		if want := m.captionAt(m.open); got.Caption != want || got.Shown != (want != "") {
			t.Errorf("%s: the caption shown is %q (visible %v), want %q", where, got.Caption, got.Shown, want)
		}
		checked++
		// the next caption after the opening moment, reached with the
		// keyboard, is shown and spoken
		for _, c := range m.captions {
			if c.at <= m.open || c.at-m.open > 40 || c.text == m.captionAt(m.open) {
				continue
			}
			evalJS[bool](b, in(sel, ".stage")+".focus(), true")
			for range c.at - m.open {
				if err := chromedp.Do(b.ctx, chromedp.KeyEvent(kb.ArrowRight)); err != nil {
					t.Fatal(err)
				}
			}
			evalJS[bool](b, `new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(() => r(true))))`)
			got := read(sel)
			if got.Pos != c.at || got.Caption != c.text || !strings.Contains(got.Live, c.text) {
				t.Errorf("%s: stepped to event %d (want %d): caption %q, live region %q; want the caption %q in both", where, got.Pos, c.at, got.Caption, got.Live, c.text)
			}
			narrated++
			if l.Order == 1 && i == 0 {
				b.shotElement(sel, "caption-one-message-desktop")
			}
			break
		}
	}
	return checked, narrated
}
