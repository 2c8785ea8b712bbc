package site_test

import (
	"bytes"
	"compress/gzip"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/cdproto/page"
	"github.com/chromedp/chromedp"

	"warren/engine"
)

// answeredProbe runs before any script of a page: once the page's first
// widget is ready it presses Back and notes, in the page's clock (ms from
// navigation), when the widget shows the event before.
const answeredProbe = `(() => {
	customElements.whenDefined("warren-scenario").then(async () => {
		const w = document.querySelector("warren-scenario");
		await w.ready;
		const clock = w.shadowRoot.querySelector(".clock");
		const before = clock.textContent;
		w.shadowRoot.querySelector("button.back").click();
		while (clock.textContent === before) await new Promise((r) => setTimeout(r, 1));
		globalThis.__answered = performance.now();
	});
})();`

// benchWorkload is the recorded publish-deliver-ack cycle, as the console
// runs it: its set-up lines, then the line measured.
var benchWorkload = []string{"queue.declare queue=bench", "basic.qos prefetch=200 on=c2.1", "basic.consume queue=bench tag=c on=c2.1 ack-every=1"}

const benchMessages = 20_000

// TestBrowserBench measures the widget in Chromium and prints the numbers
// (go test ./site -run TestBrowserBench -v, or scripts/bench -browser):
// the first widget answering a step after navigation, cold and warm; the
// longest main-thread task on each lesson page; the recorded
// publish-deliver-ack cycle in Chromium and natively, and their ratio;
// seek and one step back at 10 points of a 100,000-message run; what the
// history of that run holds in memory; the shipped wasm sizes. Every
// figure is printed on a line starting "bench: ".
func TestBrowserBench(t *testing.T) {
	say := func(format string, args ...any) { t.Logf("bench: "+format, args...) }

	// First widget answering a step, from navigation: a fresh browser
	// (cold: nothing cached), then the same page again (warm).
	for _, p := range []string{"/test-bench.html", "/lessons/one-queue-one-process/"} {
		b := newBrowser(t)
		if _, err := chromedp.Call(b.ctx, page.AddScriptToEvaluateOnNewDocument, page.AddScriptToEvaluateOnNewDocumentParams{Source: answeredProbe}); err != nil {
			t.Fatal(err)
		}
		var times []string
		for _, run := range []string{"cold", "warm"} {
			if err := chromedp.Do(b.ctx, chromedp.Navigate(siteURL(t)+p)); err != nil {
				t.Fatal(err)
			}
			ms := evalJS[float64](b, `(async () => { while (!globalThis.__answered) await new Promise((r) => setTimeout(r, 10)); return globalThis.__answered; })()`)
			times = append(times, fmt.Sprintf("%s %.0f ms", run, ms))
			if err := chromedp.Do(b.ctx, chromedp.Navigate("about:blank")); err != nil {
				t.Fatal(err)
			}
		}
		say("first widget answering a step after navigation, %s: %s", p, strings.Join(times, ", "))
		b.noErrors()
	}

	b := newBrowser(t)
	b.watchLongTasks()

	// The longest main-thread task of each lesson page, loading it and
	// playing each widget (as TestLessonPagesNeverFreeze does): on a CPU,
	// from Chromium's trace, and as the page's long-task entries saw it.
	for _, p := range lessonPages(t) {
		if err := chromedp.Do(b.ctx, chromedp.Navigate("about:blank")); err != nil {
			t.Fatal(err)
		}
		var observed []longTask
		tasks := b.traceMainThreads(func() {
			b.open(p)
			evalJS[int](b, playAll)
			observed = b.longTasks()
		})
		wall, cpu := longestTasks(tasks)
		say("longest main-thread task, %s: %.0f ms on a CPU, %.0f ms of wall time (goal: under 50 ms); long-task entries: %d, the longest %.0f ms",
			p, cpu, wall, len(observed), longest(observed))
	}

	// The recorded cycle in Chromium, through the worker (the time the
	// call took there), and natively on the same lines.
	b.open("/test-bench.html")
	type loop struct {
		Ms    float64 `json:"ms"`
		Lines int     `json:"lines"`
		Ready int     `json:"ready"`
	}
	setup := "[" + strings.Join(quoteAll(benchWorkload), ",") + "]"
	run := func() loop {
		return evalJS[loop](b, `(async () => {
			const e = document.querySelector("warren-scenario").engine;
			const id = await e.create({});
			for (const line of `+setup+`) await e.exec(id, line);
			const [r] = await e.batch([["exec", id, "basic.publish key=bench size=16 count=`+fmt.Sprint(benchMessages)+`"]]);
			if (r.error) throw new Error(r.error);
			const snap = await e.snapshot(id);
			e.destroy(id);
			return {ms: r.ms, lines: r.value.lines.length + (r.value.omitted || 0), ready: snap.queues[0].ready};
		})()`)
	}
	var browserRate float64
	for _, which := range []string{"first run", "second run"} {
		l := run()
		if l.Lines < benchMessages || l.Ready != 0 {
			t.Errorf("the loop did not deliver everything: %+v", l)
		}
		browserRate = max(browserRate, benchMessages/(l.Ms/1000))
		say("recorded publish-deliver-ack in Chromium (%s): %d messages in %.0f ms = %.0f msgs/s", which, benchMessages, l.Ms, benchMessages/(l.Ms/1000))
	}
	var nativeRate float64
	for range 2 {
		s := engine.New(engine.Options{Record: true})
		for _, l := range benchWorkload {
			s.ExecLine(l)
		}
		t0 := time.Now()
		s.ExecLine(fmt.Sprintf("basic.publish key=bench size=16 count=%d", benchMessages))
		nativeRate = max(nativeRate, benchMessages/time.Since(t0).Seconds())
	}
	say("recorded publish-deliver-ack natively: %.0f msgs/s; Chromium/native ratio %.2f (goal: at least 0.25)", nativeRate, browserRate/nativeRate)

	// Seek and one step back at 10 points of a run of 100,000 messages, in
	// a fresh worker (wasm memory never shrinks: the runs above would count).
	b.open("/test-bench.html")
	type seeks struct {
		Messages int       `json:"messages"`
		Events   int64     `json:"events"`
		Build    float64   `json:"build"`
		At       []int64   `json:"at"`
		Seek     []float64 `json:"seek"`
		Back     []float64 `json:"back"`
		Stats    struct {
			TimelineBytes      int64 `json:"timelineBytes"`
			Checkpoints        int   `json:"checkpoints"`
			CheckpointBytes    int64 `json:"checkpointBytes"`
			CheckpointInterval int64 `json:"checkpointInterval"`
		} `json:"stats"`
		Memory float64 `json:"memory"`
	}
	sk := evalJS[seeks](b, `(async () => {
		const e = document.querySelector("warren-scenario").engine;
		const id = await e.create({});
		for (const line of `+setup+`) await e.exec(id, line);
		let build = 0, messages = 0;
		while (messages < 100000) {
			const [r] = await e.batch([["exec", id, "basic.publish key=bench size=16 count=2000"]]);
			if (r.error) throw new Error(r.error);
			build += r.ms;
			messages += 2000;
		}
		const end = (await e.snapshot(id)).furthest;
		const at = [], seek = [], back = [];
		for (let k = 1; k <= 10; k++) {
			const n = Math.round((end * k) / 10 - end / 20);
			// from the end to n, then one back from n
			const [, s, bk] = await e.batch([["seek", id, end], ["seek", id, n], ["seek", id, n - 1]]);
			if (s.error || bk.error) throw new Error(s.error || bk.error);
			at.push(n); seek.push(s.ms); back.push(bk.ms);
		}
		const stats = await e.call("stats", id);
		const memory = await e.call("wasmMemory");
		e.destroy(id);
		return {messages, events: end, build, at, seek, back, stats, memory};
	})()`)
	say("a run of %d messages, %d events, built in %.0f ms", sk.Messages, sk.Events, sk.Build)
	var rows []string
	for i := range sk.At {
		rows = append(rows, fmt.Sprintf("%d: %.0f/%.0f", sk.At[i], sk.Seek[i], sk.Back[i]))
	}
	say("seek from the end / one step back, ms, at 10 events: %s", strings.Join(rows, ", "))
	say("seek: median %.0f ms, worst %.0f ms; step back: median %.0f ms, worst %.0f ms (goal: under 100 ms each)", median(sk.Seek), slicesMax(sk.Seek), median(sk.Back), slicesMax(sk.Back))
	say("history of that run: timeline %.1f MB; %d checkpoints, one every %d events, %.1f MB; the engine's wasm memory %.0f MB (goal: under 64 MB)",
		float64(sk.Stats.TimelineBytes)/1e6, sk.Stats.Checkpoints, sk.Stats.CheckpointInterval, float64(sk.Stats.CheckpointBytes)/1e6, sk.Memory/1e6)

	// What a reader downloads.
	raw, err := os.ReadFile(filepath.Join(testSite.dir, "warren.wasm"))
	if err != nil {
		t.Fatal(err)
	}
	var gz bytes.Buffer
	w, _ := gzip.NewWriterLevel(&gz, gzip.BestCompression)
	w.Write(raw)
	w.Close()
	sizes := []string{fmt.Sprintf("%d bytes raw", len(raw))}
	for _, enc := range []string{".gz", ".br"} {
		if st, err := os.Stat(filepath.Join(testSite.dir, "warren.wasm"+enc)); err == nil {
			sizes = append(sizes, fmt.Sprintf("%d bytes %s as shipped", st.Size(), enc))
		}
	}
	say("warren.wasm: %s (Go's best gzip: %d bytes)", strings.Join(sizes, ", "), gz.Len())

	if err := chromedp.Do(b.ctx, chromedp.Navigate("about:blank")); err != nil {
		t.Fatal(err)
	}
	b.noErrors()
}

func quoteAll(lines []string) []string {
	out := make([]string, len(lines))
	for i, l := range lines {
		out[i] = fmt.Sprintf("%q", l)
	}
	return out
}

func median(v []float64) float64 {
	s := append([]float64(nil), v...)
	sort.Float64s(s)
	return s[len(s)/2]
}

func slicesMax(v []float64) float64 {
	m := 0.0
	for _, x := range v {
		m = max(m, x)
	}
	return m
}
