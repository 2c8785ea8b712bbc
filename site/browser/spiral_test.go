package browser_test

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/page"
	"github.com/chromedp/cdproto/profiler"
	"github.com/chromedp/chromedp"
)

// workerLog is JavaScript run before a page's own: it keeps, in
// window.workerLog, every message between the page and its engine
// workers (when, which worker, which way, what: the calls a message
// carries and how long each took in the worker), and which workers the
// page started and ended.
const workerLog = `(() => {
	const W = window.Worker;
	if (!W || window.workerLog) return;
	const log = window.workerLog = [];
	window.workerCount = 0;
	window.Worker = class extends W {
		constructor(...a) {
			super(...a);
			const me = window.workerCount++;
			log.push([Math.round(performance.now()), me, "start"]);
			const post = this.postMessage.bind(this);
			this.postMessage = (m) => {
				log.push([Math.round(performance.now()), me, ">", m.type, m.id || 0, (m.calls || []).map((c) => c[0] + "@" + c[1] + (c[0] === "exec" ? " " + String(c[2]).slice(0, 40) : "")).join(", ")]);
				post(m);
			};
			this.addEventListener("message", (e) => {
				const m = e.data || {};
				log.push([Math.round(performance.now()), me, "<", m.type, m.id || 0, (m.results || []).map((r) => Math.round(r.ms) + ("error" in r ? " error" : "")).join(", ")]);
			});
			const end = this.terminate.bind(this);
			this.terminate = () => { log.push([Math.round(performance.now()), me, "end"]); end(); };
		}
	};
})()`

// proc is one process as /proc tells it (Linux): its parent, its
// resident memory in bytes, and the CPU time it used in seconds.
type proc struct {
	parent int
	rss    int64
	cpu    float64
}

// procTable is every process running, by pid.
type procTable map[int]proc

// procs reads every process of /proc once.
func procs() procTable {
	t := procTable{}
	page := int64(os.Getpagesize())
	dirs, _ := filepath.Glob("/proc/[0-9]*/stat")
	for _, d := range dirs {
		b, err := os.ReadFile(d)
		if err != nil {
			continue
		}
		s := string(b)
		i := strings.LastIndexByte(s, ')')
		if i < 0 {
			continue
		}
		f := strings.Fields(s[i+2:])
		if len(f) < 22 {
			continue
		}
		p, _ := strconv.Atoi(strings.Fields(s)[0])
		pp, _ := strconv.Atoi(f[1])
		r, _ := strconv.ParseInt(f[21], 10, 64)
		u, _ := strconv.ParseFloat(f[11], 64)
		k, _ := strconv.ParseFloat(f[12], 64)
		t[p] = proc{parent: pp, rss: r * page, cpu: (u + k) / 100}
	}
	return t
}

// under lists pid and every process under it.
func (t procTable) under(pid int) []int {
	out := []int{pid}
	for i := 0; i < len(out); i++ {
		for p, pr := range t {
			if pr.parent == out[i] {
				out = append(out, p)
			}
		}
	}
	return out
}

// treeRSS is the resident memory of process pid and all its descendants,
// in bytes, and the CPU time they used, in seconds.
func treeRSS(pid int) (rss int64, cpu float64) {
	t := procs()
	for _, p := range t.under(pid) {
		rss += t[p].rss
		cpu += t[p].cpu
	}
	return rss, cpu
}

// chromiums lists the pids of the Chromium browser processes running
// (not their renderers and helpers).
func chromiums() map[int]bool {
	out := map[int]bool{}
	dirs, _ := filepath.Glob("/proc/[0-9]*/cmdline")
	for _, d := range dirs {
		b, err := os.ReadFile(d)
		if err != nil || !strings.HasPrefix(string(b), "/usr/lib/chromium/chromium") || strings.Contains(string(b), "--type=") {
			continue
		}
		p, _ := strconv.Atoi(strings.Split(d, "/")[2])
		out[p] = true
	}
	return out
}

// engineState is JavaScript that says what the page's engine connection
// holds: its workers (alive, the calls waiting, how long the first has
// run), its handles, and the end of the worker log.
const engineState = `(async () => {
	const m = await import("/widget/bridge-loader.js");
	const e = await m.loadEngine("/");
	const c = e.conn, lanes = [...c.lanes];
	return JSON.stringify({lanes: lanes.map((l) => ({alive: l.alive, current: l === c.lane, pending: [...l.pending.keys()], running: l.runningSince ? Date.now() - l.runningSince : 0})),
		handles: [...c.handles.entries()].map(([k, h]) => [k, lanes.indexOf(h.lane), h.id, h.lost]),
		log: (window.workerLog || []).slice(-120),
		first: (window.workerLog || []).filter((l) => l[1] === 0).slice(-40)});
})()`

// TestHeavyPageProbe does, on the backlog spiral page, what the Chinese
// sweep does on every widget, SPIRAL_ROUNDS times, logging how long each
// action took, the workers' messages and Chromium's memory and CPU.
func TestHeavyPageProbe(t *testing.T) {
	if os.Getenv("SPIRAL_PROBE") == "" {
		t.Skip("a probe: SPIRAL_PROBE=1")
	}
	rounds, _ := strconv.Atoi(os.Getenv("SPIRAL_ROUNDS"))
	rounds = max(rounds, 1)
	path := os.Getenv("SPIRAL_PATH")
	if path == "" {
		path = "/zh/lessons/the-backlog-spiral/"
	}
	before := chromiums()
	b := newBrowserFor(t, 20*time.Minute)
	if _, err := chromedp.Call(b.ctx, page.AddScriptToEvaluateOnNewDocument, page.AddScriptToEvaluateOnNewDocumentParams{Source: workerLog}); err != nil {
		t.Fatal(err)
	}
	pid := 0
	for p := range chromiums() {
		if !before[p] {
			pid = p
		}
	}
	t.Logf("Chromium's pid: %d", pid)
	stop := make(chan struct{})
	done := make(chan struct{})
	go func() {
		defer close(done)
		var peak int64
		for {
			select {
			case <-stop:
				t.Logf("peak RSS %d MB", peak>>20)
				return
			case <-time.After(2 * time.Second):
			}
			rss, cpu := treeRSS(pid)
			peak = max(peak, rss)
			t.Logf("chromium: RSS %d MB, CPU %.1f s", rss>>20, cpu)
		}
	}()
	defer func() { close(stop); <-done }()
	for round := 0; round < rounds; round++ {
		start := time.Now()
		opened := make(chan struct{})
		go func() {
			for k := 0; ; k++ {
				select {
				case <-opened:
					return
				case <-time.After(20 * time.Second):
					v, err := chromedp.Run(b.ctx, chromedp.Evaluate[string](engineState, chromedp.EvalAwaitPromise))
					os.WriteFile(fmt.Sprintf("/tmp/spiral-opening-%d-%d.json", round, k), []byte(v), 0o644)
					if k == 1 && os.Getenv("SPIRAL_PROFILE") != "" {
						profileWorkers(t, b)
					}
					t.Logf("round %d: opening for %s: %.1500s %v", round, time.Since(start).Round(time.Second), v, err)
				}
			}
		}()
		b.open(path)
		close(opened)
		t.Logf("round %d: open took %s", round, time.Since(start).Round(time.Millisecond))
		n := evalJS[int](b, `document.querySelectorAll("warren-scenario").length`)
		for i := 0; i < n; i++ {
			w := fmt.Sprintf(`document.querySelectorAll("warren-scenario")[%d]`, i)
			evalJS[bool](b, w+`.scrollIntoView(), true`)
			for _, a := range zhWidgetActions {
				began := time.Now()
				finished := make(chan struct{})
				go func() {
					select {
					case <-finished:
					case <-time.After(30 * time.Second):
						v, err := chromedp.Run(b.ctx, chromedp.Evaluate[string](engineState, chromedp.EvalAwaitPromise))
						os.WriteFile(fmt.Sprintf("/tmp/spiral-stuck-%d-%d.json", round, i), []byte(v), 0o644)
						t.Logf("round %d widget %d: %s stuck 30 s: %.3000s %v", round, i+1, a.name, v, err)
					}
				}()
				evalJS[bool](b, `(async () => { const w = `+w+`, r = w.shadowRoot; `+a.js+`; return true; })()`)
				close(finished)
				d := time.Since(began)
				if d > 2*time.Second {
					t.Logf("round %d widget %d: %s took %s; end %d", round, i+1, a.name, d.Round(time.Millisecond), evalJS[int](b, w+".end"))
				}
			}
		}
		var log [][]any
		raw := evalJS[string](b, `JSON.stringify(window.workerLog)`)
		if err := json.Unmarshal([]byte(raw), &log); err != nil {
			t.Fatal(err)
		}
		slow := 0
		for _, l := range log {
			if len(l) >= 6 && l[2] == "<" {
				for _, ms := range strings.Split(fmt.Sprint(l[5]), ", ") {
					if v, _ := strconv.Atoi(strings.Fields(ms + " 0")[0]); v > 300 {
						slow++
						t.Logf("slow answer: %v", l)
					}
				}
			} else if len(l) >= 3 && (l[2] == "start" || l[2] == "end") {
				t.Logf("worker: %v", l)
			}
		}
		t.Logf("round %d: %d messages, %d slow calls, %d workers, in %s", round, len(log), slow, evalJS[int](b, "window.workerCount"), time.Since(start).Round(time.Millisecond))
		if os.Getenv("SPIRAL_DUMP") != "" {
			os.WriteFile(fmt.Sprintf("/tmp/spiral-log-%d.json", round), []byte(raw), 0o644)
		}
	}
}

// readyTimes is JavaScript that scrolls through a page as a reader does,
// a screen at a time every 400 ms from the top to the bottom, and resolves
// with when (ms since navigation) each widget's ready settled. It reads
// the element's promise itself: asking for ready would run every widget
// at once, where a reader's scrolling runs each as it comes near.
const readyTimes = `(async () => {
	await customElements.whenDefined("warren-scenario");
	const ws = [...document.querySelectorAll("warren-scenario")];
	const at = ws.map(() => 0);
	const all = Promise.all(ws.map((w, i) => w.readyPromise.then(() => (at[i] = Math.round(performance.now())))));
	while (window.scrollY + innerHeight < document.documentElement.scrollHeight - 2) {
		scrollBy(0, innerHeight);
		await new Promise((r) => setTimeout(r, 400));
	}
	await all;
	return {at, ends: ws.map((w) => w.end), problems: ws.map((w) => (w.el.problem.hidden ? "" : w.el.problem.textContent))};
})()`

// TestReadyWhileScrolling measures, on every lesson page, when each
// widget is ready after navigation for a reader who scrolls through the
// page: WARREN_READY_BENCH=1 (a measurement; nothing here is timed).
// WARREN_READY_ONLY=part measures only the pages whose path holds part.
func TestReadyWhileScrolling(t *testing.T) {
	if os.Getenv("WARREN_READY_BENCH") == "" {
		t.Skip("a measurement: WARREN_READY_BENCH=1")
	}
	b := newBrowserFor(t, 20*time.Minute)
	for _, path := range lessonPages(t) {
		if only := os.Getenv("WARREN_READY_ONLY"); only != "" && !strings.Contains(path, only) {
			continue
		}
		if err := chromedp.Do(b.ctx, chromedp.Navigate(siteURL(t)+path)); err != nil {
			t.Fatal(err)
		}
		type times struct {
			At       []int64  `json:"at"`
			Ends     []int64  `json:"ends"`
			Problems []string `json:"problems"`
		}
		v, err := chromedp.Run(b.ctx, chromedp.Evaluate[times](readyTimes, chromedp.EvalAwaitPromise))
		if err != nil {
			t.Fatalf("%s: %v", path, err)
		}
		var last int64
		for i, p := range v.Problems {
			last = max(last, v.At[i])
			if p != "" {
				t.Errorf("%s widget %d: %s", path, i+1, p)
			}
		}
		t.Logf("ready %s: all %d widgets by %.1f s; each (s, events): %s", path, len(v.At), float64(last)/1000, readyList(v.At, v.Ends))
	}
	b.noErrors()
}

func readyList(at, ends []int64) string {
	var parts []string
	for i := range at {
		parts = append(parts, fmt.Sprintf("%.1f/%d", float64(at[i])/1000, ends[i]))
	}
	return strings.Join(parts, " ")
}

// profileWorkers samples each engine worker of b's page for 3 s and logs
// the functions it spent most of that time in.
func profileWorkers(t *testing.T, b *browser) {
	targets, err := chromedp.Targets(b.ctx)
	if err != nil {
		t.Logf("targets: %v", err)
		return
	}
	for _, tg := range targets {
		if tg.Type != "worker" {
			continue
		}
		wctx, cancel := chromedp.NewContext(b.ctx, chromedp.WithTargetID(tg.TargetID))
		func() {
			defer cancel()
			if _, err := chromedp.Call(wctx, profiler.Enable, cdp.Empty{}); err != nil {
				t.Logf("worker %s: enable: %v", tg.TargetID, err)
				return
			}
			chromedp.Call(wctx, profiler.Start, cdp.Empty{})
			time.Sleep(3 * time.Second)
			r, err := chromedp.Call(wctx, profiler.Stop, cdp.Empty{})
			if err != nil || r.Profile == nil {
				t.Logf("worker %s: stop: %v", tg.TargetID, err)
				return
			}
			self := map[int64]int{}
			for _, id := range r.Profile.Samples {
				self[id]++
			}
			type fn struct {
				name string
				n    int
			}
			var fns []fn
			for _, nd := range r.Profile.Nodes {
				if c := self[nd.ID]; c > 0 {
					fns = append(fns, fn{nd.CallFrame.FunctionName, c})
				}
			}
			sort.Slice(fns, func(i, j int) bool { return fns[i].n > fns[j].n })
			t.Logf("worker %s (%s): %d samples; top: %v", tg.TargetID, tg.URL, len(r.Profile.Samples), fns[:min(len(fns), 25)])
		}()
	}
}
