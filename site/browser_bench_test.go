package site_test

import (
	"bytes"
	"compress/gzip"
	"os"
	"path/filepath"
	"sort"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
)

// TestBrowserBench measures the widget in Chromium and prints the numbers
// (go test ./site -run TestBrowserBench -v): the time from navigation to
// an interactive widget, simulated messages per second through exec, the
// time to seek in a 100,000-event run (goal: under 100 ms), and the size of
// warren.wasm.
func TestBrowserBench(t *testing.T) {
	b := newBrowser(t)

	// Navigation to interactive: the page's own clock, from navigation start
	// to the widget having run its scenario, cold and then from the cache.
	for _, run := range []string{"first load", "reload"} {
		start := time.Now()
		b.open("/test-bench.html")
		wall := time.Since(start)
		inPage := evalJS[float64](b, `(async () => { await document.querySelector("warren-scenario").ready; return performance.now(); })()`)
		t.Logf("navigation to interactive widget (%s): %.0f ms in the page, %.0f ms as chromedp saw it", run, inPage, float64(wall.Milliseconds()))
	}

	// A transient publish-deliver-ack loop, through exec, as the console
	// runs it (events recorded, trace lines returned).
	type loop struct {
		Ms     float64 `json:"ms"`
		Lines  int     `json:"lines"`
		Events int64   `json:"events"`
		Ready  int     `json:"ready"`
	}
	run := func() loop {
		return evalJS[loop](b, `(() => {
		const w = globalThis.warren, id = w.create("{}");
		for (const line of ["queue.declare queue=bench", "basic.qos prefetch=200 on=c2.1",
			"basic.consume queue=bench tag=c on=c2.1 ack-every=1"]) w.exec(id, line);
		const t0 = performance.now();
		const out = JSON.parse(w.exec(id, "basic.publish key=bench size=16 count=20000"));
		const ms = performance.now() - t0;
		const snap = JSON.parse(w.snapshot(id));
		w.destroy(id);
		return {ms, lines: out.lines.length, events: snap.events, ready: snap.queues[0].ready};
	})()`)
	}
	for _, which := range []string{"first run", "second run"} {
		l := run()
		if l.Lines < 20000 || l.Ready != 0 {
			t.Errorf("the loop did not deliver everything: %+v", l)
		}
		t.Logf("publish-deliver-ack in Chromium (%s): 20000 messages in %.0f ms = %.0f msgs/s (%d events, %.0f events/s)",
			which, l.Ms, 20000/(l.Ms/1000), l.Events, float64(l.Events)/(l.Ms/1000))
	}

	// Seek in a run of 100,000 events.
	type seeks struct {
		Events int64     `json:"events"`
		Build  float64   `json:"build"`
		Mid    []float64 `json:"mid"`
		End    []float64 `json:"end"`
		Near   []float64 `json:"near"`
	}
	sk := evalJS[seeks](b, `(() => {
		const w = globalThis.warren, id = w.create("{}");
		for (const line of ["queue.declare queue=seek", "basic.qos prefetch=200 on=c2.1",
			"basic.consume queue=seek tag=c on=c2.1 ack-every=1"]) w.exec(id, line);
		const t0 = performance.now();
		let end = 0;
		while (end < 100000) {
			w.exec(id, "basic.publish key=seek size=16 count=2000");
			end = JSON.parse(w.snapshot(id)).furthest;
		}
		const build = performance.now() - t0;
		const time = (n) => { const t = performance.now(); const r = w.seek(id, n); if (r && r.error) throw new Error(r.error); return performance.now() - t; };
		const mid = [], endT = [], near = [];
		for (let i = 0; i < 5; i++) { mid.push(time(Math.floor(end / 2))); endT.push(time(end)); near.push(time(end - 1)); }
		w.destroy(id);
		return {events: end, build, mid, end: endT, near};
	})()`)
	med := func(v []float64) float64 {
		s := append([]float64(nil), v...)
		sort.Float64s(s)
		return s[len(s)/2]
	}
	t.Logf("a run of %d events took %.0f ms to build; seek (median of 5): to the middle %.0f ms, to the end %.0f ms, to the event before the end %.0f ms",
		sk.Events, sk.Build, med(sk.Mid), med(sk.End), med(sk.Near))
	if worst := max(med(sk.Mid), med(sk.End), med(sk.Near)); worst > 100 {
		t.Logf("seek goal missed: %.0f ms > 100 ms (seek replays from the start, or forward from the current event)", worst)
	}

	// The size of what a reader downloads.
	raw, err := os.ReadFile(filepath.Join(testSite.dir, "warren.wasm"))
	if err != nil {
		t.Fatal(err)
	}
	var gz bytes.Buffer
	w, _ := gzip.NewWriterLevel(&gz, gzip.BestCompression)
	w.Write(raw)
	w.Close()
	t.Logf("warren.wasm: %d bytes raw, %d bytes gzip (Go's best compression)", len(raw), gz.Len())
	if served, err := os.Stat(filepath.Join(testSite.dir, "warren.wasm.gz")); err == nil {
		t.Logf("warren.wasm.gz as served: %d bytes", served.Size())
	}

	if err := chromedp.Do(b.ctx, chromedp.Navigate("about:blank")); err != nil {
		t.Fatal(err)
	}
	b.noErrors()
}
