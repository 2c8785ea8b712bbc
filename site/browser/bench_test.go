package browser_test

import (
	"bytes"
	"compress/gzip"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/cdproto/page"
	"github.com/chromedp/chromedp"

	"warren/engine"
	"warren/engine/jsonenc"
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

// BenchmarkBrowser measures the widget in Chromium and prints the numbers
// (go run ./scripts/bench -browser, which runs go test ./site/browser
// -run '^$' -bench '^BenchmarkBrowser$' -benchtime 1x -v): it is a
// measurement, not a test, so ./scripts/test does not run it:
// the first widget answering a step after navigation, cold and warm; the
// longest main-thread task on each lesson page; the recorded
// publish-deliver-ack cycle in Chromium and natively, and their ratio;
// seek and one step back at 10 points of a 100,000-message run; what the
// history of that run holds in memory; the shipped wasm sizes. Every
// figure is printed on a line starting "bench: ". How the recorded cycle
// is compared is said at benchRecordedRatio.
func BenchmarkBrowser(bb *testing.B) {
	var t testing.TB = bb
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

	// Every lesson page played, then the recorded runs and the seeks: up to
	// six minutes on a loaded machine, so more than newBrowser allows.
	b := newBrowserFor(t, 15*time.Minute)
	b.watchLongTasks()

	// The longest main-thread task of each lesson page, loading it and
	// playing each widget (as TestEveryLessonPage does): on a CPU,
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

	// The recorded cycle in Chromium and natively, interleaved.
	b.open("/test-bench.html")
	benchRecordedRatio(t, b, say)

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
		End      []float64 `json:"end"`
		Stats    struct {
			TimelineBytes      int64 `json:"timelineBytes"`
			Checkpoints        int   `json:"checkpoints"`
			CheckpointBytes    int64 `json:"checkpointBytes"`
			CheckpointInterval int64 `json:"checkpointInterval"`
		} `json:"stats"`
		Memory float64 `json:"memory"`
	}
	setup := "[" + strings.Join(quoteAll(benchWorkload), ",") + "]"
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
		const at = [], seek = [], back = [], toEnd = [];
		for (let k = 1; k <= 10; k++) {
			const n = Math.round((end * k) / 10 - end / 20);
			// from the end to n, then one back from n (and, from the
			// second on, back to the end first, from the last one's n - 1)
			const [te, s, bk] = await e.batch([["seek", id, end], ["seek", id, n], ["seek", id, n - 1]]);
			if (te.error || s.error || bk.error) throw new Error(te.error || s.error || bk.error);
			at.push(n); seek.push(s.ms); back.push(bk.ms);
			if (k > 1) toEnd.push(te.ms);
		}
		const stats = await e.call("stats", id);
		const memory = await e.call("wasmMemory");
		e.destroy(id);
		return {messages, events: end, build, at, seek, back, end: toEnd, stats, memory};
	})()`)
	say("a run of %d messages, %d events, built in %.0f ms", sk.Messages, sk.Events, sk.Build)
	var rows []string
	for i := range sk.At {
		rows = append(rows, fmt.Sprintf("%d: %.0f/%.0f", sk.At[i], sk.Seek[i], sk.Back[i]))
	}
	say("seek from the end / one step back, ms, at 10 events: %s", strings.Join(rows, ", "))
	say("seek: median %.0f ms, worst %.0f ms; step back: median %.0f ms, worst %.0f ms; back to the end: median %.0f ms, worst %.0f ms (goal: under 100 ms each)", median(sk.Seek), slicesMax(sk.Seek), median(sk.Back), slicesMax(sk.Back), median(sk.End), slicesMax(sk.End))
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

// benchWarmUps and benchRuns are how many runs of the recorded command
// each side makes to warm up, and then to be measured.
const benchWarmUps, benchRuns = 2, 5

// benchRecordedRatio measures the recorded publish-deliver-ack command,
// 20,000 messages on the lines of benchWorkload, in Chromium and natively,
// and prints each run and the ratio of the two.
//
// The two sides do the same work. Each run starts a fresh simulation
// recorded as the browser records it, under the browser's time budget,
// runs the set-up lines, and times one command that prints the first
// 1,000 lines of its output and counts the others, as the worker's exec
// does (engine-worker.js passes maxLinesSent to the bridge). In Chromium
// the time is the call as the worker measured it (r.ms: the bridge's
// exec, the JSON text of its answer and the parse of that text);
// natively it is Sim.Run and the same JSON text, in this
// process. Between runs each side collects its garbage outside the time
// measured: the worker's idle call does in Chromium, runtime.GC natively.
//
// The runs are interleaved, native then Chromium, so that both meet the
// same load on a shared machine: benchWarmUps runs each first, not
// counted (in a page V8 first runs the engine's code from its baseline
// compiler and optimises the hot functions while they run, so the first
// runs are up to three times slower), then benchRuns runs each. The
// ratio is that of the medians; the ratio of the best runs is printed
// beside it.
func benchRecordedRatio(t testing.TB, b *browser, say func(string, ...any)) {
	type loop struct {
		Ms    float64 `json:"ms"`
		Lines int     `json:"lines"`
		Ready int     `json:"ready"`
	}
	setup := "[" + strings.Join(quoteAll(benchWorkload), ",") + "]"
	line := fmt.Sprintf("basic.publish key=bench size=16 count=%d", benchMessages)
	inChromium := func() float64 {
		l := evalJS[loop](b, `(async () => {
			const e = document.querySelector("warren-scenario").engine;
			const id = await e.create({});
			for (const line of `+setup+`) await e.exec(id, line);
			const [r] = await e.batch([["exec", id, `+fmt.Sprintf("%q", line)+`]]);
			if (r.error) throw new Error(r.error);
			const snap = await e.snapshot(id);
			e.destroy(id);
			await new Promise((r) => setTimeout(r, 50)); // the worker's idle collection
			return {ms: r.ms, lines: r.value.lines.length + (r.value.omitted || 0), ready: snap.queues[0].ready};
		})()`)
		if l.Lines < benchMessages || l.Ready != 0 {
			t.Errorf("the command in Chromium did not deliver everything: %+v", l)
		}
		return l.Ms
	}
	natively := func() float64 {
		runtime.GC()
		s := engine.New(engine.Options{Record: true})
		began := time.Now()
		s.SetTimeBudget(engine.BrowserCommandTime, func() time.Duration { return time.Since(began) })
		for _, l := range benchWorkload {
			s.Run(l, engine.RunOptions{})
		}
		t0 := time.Now()
		r := s.Run(line, engine.RunOptions{Most: benchShown})
		shown, omitted := r.Lines, r.Omitted
		answer := jsonenc.Answer(r) // the answer's text, as the bridge's exec makes it
		ms := time.Since(t0).Seconds() * 1000
		if !strings.HasPrefix(answer, `{"lines":[`) {
			t.Errorf("the command's answer natively: %.100s", answer)
		}
		if len(shown)+omitted < benchMessages || s.Snapshot().Queues[0].Ready+s.Snapshot().Queues[0].Unacked != 0 {
			t.Errorf("the command natively did not deliver everything: %d lines shown, %d omitted", len(shown), omitted)
		}
		return ms
	}
	if js, err := os.ReadFile(filepath.Join("..", "static", "widget", "engine-worker.js")); err != nil || !bytes.Contains(js, []byte(fmt.Sprintf("maxLinesSent = %d;", benchShown))) {
		t.Fatalf("engine-worker.js no longer passes on %d lines a command (benchShown): %v", benchShown, err)
	}
	rate := func(ms float64) float64 { return benchMessages / (ms / 1000) }
	for i := range benchWarmUps {
		n, c := natively(), inChromium()
		say("recorded publish-deliver-ack, warm-up %d of %d (not counted): natively %.1f ms, in Chromium %.1f ms", i+1, benchWarmUps, n, c)
	}
	var native, chromium []float64
	for i := range benchRuns {
		n, c := natively(), inChromium()
		native, chromium = append(native, rate(n)), append(chromium, rate(c))
		say("recorded publish-deliver-ack, run %d of %d: natively %d messages in %.1f ms = %.0f msgs/s; in Chromium %.1f ms = %.0f msgs/s; ratio %.2f",
			i+1, benchRuns, benchMessages, n, rate(n), c, rate(c), rate(c)/rate(n))
	}
	say("recorded publish-deliver-ack in Chromium: median %.0f msgs/s, best %.0f", median(chromium), slicesMax(chromium))
	say("recorded publish-deliver-ack natively: median %.0f msgs/s, best %.0f; Chromium/native ratio %.2f of the medians (goal: at least 0.25), %.2f of the best runs",
		median(native), slicesMax(native), median(chromium)/median(native), slicesMax(chromium)/slicesMax(native))
}

// benchShown is how many lines of a command the worker passes on to the
// page (maxLinesSent in engine-worker.js), so the most the bridge prints.
const benchShown = 1000
