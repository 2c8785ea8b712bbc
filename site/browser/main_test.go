package browser_test

// Browser tests: the real site, built into a temporary folder and served on
// 127.0.0.1, driven in Debian's Chromium (headless) through chromedp. Each
// test checks what the widget shows against the engine run natively on the
// same script, and saves screenshots into $WARREN_SCREENSHOTS (default: a
// temporary folder, printed with -v).

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/cdproto/emulation"
	"github.com/chromedp/cdproto/page"
	"github.com/chromedp/cdproto/runtime"
	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"

	"warren/engine"
	"warren/site"
)

const chromiumPath = "/usr/bin/chromium"

// testSite is the built site and its server, shared by every test.
var testSite struct {
	once    sync.Once
	dir     string
	url     string
	err     error
	mu      sync.Mutex
	fetched map[string]int // requests by path
}

// fetches is how many times the server was asked for path so far, at that
// address or in a build's versioned folder (/v/<hash>/path).
func fetches(path string) int {
	testSite.mu.Lock()
	defer testSite.mu.Unlock()
	n := testSite.fetched[path]
	for k, c := range testSite.fetched {
		// the same file in a build's versioned folder, /v/<hash>/
		if rest, ok := strings.CutPrefix(k, "/v/"); ok && len(rest) > 12 && rest[12:] == path {
			n += c
		}
	}
	return n
}

// siteURL builds the site (with warren.wasm) and the test pages once, and
// serves them on a loopback port.
func siteURL(t testing.TB) string {
	t.Helper()
	testSite.once.Do(func() {
		testSite.fetched = map[string]int{}
		dir, err := os.MkdirTemp("", "warren-site-")
		if err != nil {
			testSite.err = err
			return
		}
		testSite.dir = dir
		if err := site.Build(dir, site.BuildOptions{}); err != nil {
			testSite.err = fmt.Errorf("site.Build: %w", err)
			return
		}
		for name, body := range testPages {
			if err := os.WriteFile(filepath.Join(dir, name), []byte(body), 0o644); err != nil {
				testSite.err = err
				return
			}
		}
		handler := site.Handler(dir)
		testSite.url = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			testSite.mu.Lock()
			testSite.fetched[r.URL.Path]++
			testSite.mu.Unlock()
			handler.ServeHTTP(w, r)
		})).URL
	})
	if testSite.err != nil {
		t.Fatal(testSite.err)
	}
	return testSite.url
}

func TestMain(m *testing.M) {
	flag.Parse()
	if testing.Short() {
		fmt.Println("site/browser: the tests in Chromium are not part of the quick tier (-short); ./scripts/test runs them")
		os.Exit(0)
	}
	code := m.Run()
	if shared.stop != nil {
		shared.stop()
	}
	if testSite.dir != "" {
		os.RemoveAll(testSite.dir)
	}
	os.Exit(code)
}

// scenarioOne is the script of the one-widget test page.
const scenarioOne = `# A consumer with prefetch 2 on a priority queue.
queue.declare queue=q x-max-priority=3
basic.qos prefetch=2 on=c2.1
basic.consume queue=q tag=c on=c2.1
basic.publish key=q body=m{i} count=6 priority=2
basic.publish key=q body=low count=2`

const scenarioTwo = `queue.declare queue=jobs
basic.publish key=jobs body=j{i} count=4`

// scenarioRates moves messages for long enough to fill the charts: a slow
// consumer, and a watermark the queue stays over until the memory monitor
// (which looks once a second) raises the alarm.
const scenarioRates = `set schedulers=2
set watermark=21500000
queue.declare queue=q
basic.qos prefetch=100 on=c2.1
basic.consume queue=q tag=c on=c2.1 ack-every=1 work-us=500
basic.publish key=q size=4000 count=3000`

// scenarioFiles writes files: a durable version-2 queue whose large
// messages go to the shared message store (rolled every 16 KiB) and small
// ones to the queue's own store; three are then fetched and acked.
const scenarioFiles = `set file-size-limit=16384
queue.declare queue=orders durable x-queue-version=2
confirm.select
basic.publish key=orders size=5000 count=6 persistent
basic.publish key=orders size=100 count=4 persistent
basic.get queue=orders no-ack
basic.get queue=orders no-ack
basic.get queue=orders no-ack`

// scenarioCluster fills a queue on the second node of a cluster past its
// watermark: that node's memory monitor raises the alarm, which blocks the
// publishers of both nodes.
const scenarioCluster = `cluster nodes=2
connect on=c2 node=2
set watermark=21200000
queue.declare queue=far on=c2.1
basic.publish key=far size=1000 count=3000 on=c2.1
run ms=1500`

// testPages are plain HTML pages, as anyone embedding the widget writes
// them: one script tag, one style sheet, elements.
var testPages = map[string]string{
	"test-one.html": `<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8"><title>one widget</title>
<meta name="viewport" content="width=device-width, initial-scale=1">
<link rel="stylesheet" href="/widget.css"><script src="/widget.js" defer></script></head>
<body><h1>One widget</h1>
<warren-scenario title="Prefetch and priorities"><pre>` + scenarioOne + `</pre></warren-scenario>
</body></html>`,
	"test-two.html": `<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8"><title>two widgets</title>
<link rel="stylesheet" href="/test-two.css">
<link rel="stylesheet" href="/widget.css"><script src="/widget.js" defer></script></head>
<body><h1>Two widgets, one page</h1>
<p>The page's own style must not reach into the widgets.</p>
<warren-scenario id="a" title="First"><pre>` + scenarioOne + `</pre></warren-scenario>
<warren-scenario id="b" title="Second" view="table">` + scenarioTwo + `</warren-scenario>
</body></html>`,
	// the page's own style, in a file: the site's Content-Security-Policy
	// allows no <style> element
	"test-two.css": `body { font: 16px Georgia, serif; color: #700; } button { background: hotpink; } table { border: 5px solid lime; }`,
	"test-guided.html": `<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8"><title>guided</title>
<link rel="stylesheet" href="/widget.css"><script src="/widget.js" defer></script></head>
<body><warren-scenario id="plain" title="Plain">` + scenarioCaptioned + `</warren-scenario>
<warren-scenario id="guided" title="Guided" guided>` + scenarioCaptioned + `</warren-scenario>
</body></html>`,
	"test-inline.html": `<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8"><title>inline</title>
<link rel="stylesheet" href="/widget.css"><script src="/widget.js" defer></script>
<script>document.title = "inline script ran";</script></head>
<body><warren-scenario>queue.declare queue=q</warren-scenario></body></html>`,
	"test-bad.html": `<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8"><title>bad embeds</title>
<link rel="stylesheet" href="/widget.css"><script src="/widget.js" defer></script></head>
<body>
<warren-scenario id="missing" src="/no-such-scenario.txt"></warren-scenario>
<warren-scenario id="typo">queue.declare queue=q
basic.publsh key=q body=x</warren-scenario>
</body></html>`,
	"test-autoplay.html": `<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8"><title>autoplay</title>
<link rel="stylesheet" href="/widget.css"><script src="/widget.js" defer></script></head>
<body><warren-scenario autoplay speed="5"><pre>` + scenarioTwo + `</pre></warren-scenario></body></html>`,
	"test-rates.html": `<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8"><title>rates</title>
<meta name="viewport" content="width=device-width, initial-scale=1">
<link rel="stylesheet" href="/widget.css"><script src="/widget.js" defer></script></head>
<body><warren-scenario title="Rates"><pre>` + scenarioRates + `</pre></warren-scenario></body></html>`,
	"test-files.html": `<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8"><title>files</title>
<meta name="viewport" content="width=device-width, initial-scale=1">
<link rel="stylesheet" href="/widget.css"><script src="/widget.js" defer></script></head>
<body><warren-scenario title="Files"><pre>` + scenarioFiles + `</pre></warren-scenario></body></html>`,
	"test-cluster.html": `<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8"><title>cluster</title>
<link rel="stylesheet" href="/widget.css"><script src="/widget.js" defer></script></head>
<body><warren-scenario title="Cluster"><pre>` + scenarioCluster + `</pre></warren-scenario></body></html>`,
	"test-far.html": `<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8"><title>far below</title>
<link rel="stylesheet" href="/widget.css"><script src="/widget.js" defer></script></head>
<body><warren-scenario id="near"><pre>` + scenarioTwo + `</pre></warren-scenario>
<div style="height: 6000px">A long text.</div>
<warren-scenario id="far"><pre>` + scenarioOne + `</pre></warren-scenario></body></html>`,
	"test-bench.html": `<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8"><title>bench</title>
<link rel="stylesheet" href="/widget.css"><script src="/widget.js" defer></script></head>
<body><warren-scenario>queue.declare queue=q
basic.publish key=q body=hello count=3</warren-scenario></body></html>`,
}

// browser is one Chromium for a test, with what the page threw.
type browser struct {
	t    testing.TB
	ctx  context.Context
	mu   sync.Mutex
	errs []string
}

// newBrowser opens a tab for a test, in a browser context of its own (its
// storage and cache as a fresh browser's) in the headless Chromium the
// tests share; a test with flags of its own gets a Chromium of its own.
// Without Chromium the test fails under CI (CI=true) and is skipped
// elsewhere.
//
// NB: starting Chromium for each test cost about 0.3 s, and its first
// page another 0.25 s, in each of some 70 tests.
func newBrowser(t testing.TB, flags ...chromedp.ExecAllocatorOption) *browser {
	t.Helper()
	if len(flags) > 0 {
		return newBrowserFor(t, 6*time.Minute, flags...)
	}
	needChromium(t)
	shared.once.Do(func() {
		alloc, cancelAlloc := chromedp.NewExecAllocator(context.Background(), chromiumFlags()...)
		ctx, cancelCtx := chromedp.NewContext(alloc)
		shared.ctx, shared.stop = ctx, func() { cancelCtx(); cancelAlloc() }
		shared.err = chromedp.Do(ctx)
	})
	if shared.err != nil {
		t.Fatalf("starting Chromium: %v", shared.err)
	}
	ctx, cancelCtx := chromedp.NewContext(shared.ctx, chromedp.WithNewBrowserContext())
	return tabFor(t, ctx, 6*time.Minute, cancelCtx)
}

// shared is the Chromium that newBrowser's tests share: its first tab,
// and what stops it (TestMain, at the end).
var shared struct {
	once sync.Once
	ctx  context.Context
	stop func()
	err  error
}

// newBrowserFor starts a headless Chromium of its own for a test that may
// take up to d: one that measures Chromium's processes, or runs beside
// others.
func newBrowserFor(t testing.TB, d time.Duration, flags ...chromedp.ExecAllocatorOption) *browser {
	t.Helper()
	needChromium(t)
	allocCtx, cancelAlloc := chromedp.NewExecAllocator(context.Background(), append(chromiumFlags(), flags...)...)
	ctx, cancelCtx := chromedp.NewContext(allocCtx)
	return tabFor(t, ctx, d, func() { cancelCtx(); cancelAlloc() })
}

// tabFor opens the tab of ctx for a test that may take up to d, and
// closes it with stop when the test ends.
func tabFor(t testing.TB, ctx context.Context, d time.Duration, stop func()) *browser {
	t.Helper()
	ctx, cancelTimeout := context.WithTimeout(ctx, d)
	t.Cleanup(func() {
		cancelTimeout()
		stop()
	})
	b := &browser{t: t, ctx: ctx}
	b.start(ctx)
	return b
}

// needChromium fails the test without Chromium under CI, and skips it
// elsewhere; and builds the site.
func needChromium(t testing.TB) {
	t.Helper()
	if _, err := os.Stat(chromiumPath); err != nil {
		if os.Getenv("CI") == "true" {
			t.Fatalf("%s is missing: CI must run the browser tests (apt-get install chromium)", chromiumPath)
		}
		t.Skipf("skipping the browser tests: %s is missing (apt-get install chromium); under CI=true this fails", chromiumPath)
	}
	if _, err := exec.LookPath("go"); err != nil {
		t.Fatal("the go command is needed to build warren.wasm")
	}
	siteURL(t)
}

// chromiumFlags are the flags every test's Chromium starts with.
func chromiumFlags() []chromedp.ExecAllocatorOption {
	return []chromedp.ExecAllocatorOption{
		chromedp.ExecPath(chromiumPath),
		chromedp.Headless,
		chromedp.NoSandbox,
		chromedp.DisableGPU,
		chromedp.NoFirstRun,
		chromedp.Flag("disable-background-networking", true),
		chromedp.Flag("disable-component-update", true),
		chromedp.Flag("disable-sync", true),
		chromedp.Flag("disable-dev-shm-usage", true),
		chromedp.WindowSize(1280, 900),
	}
}

// start opens the tab and records every exception the page throws,
// every console.error it prints and every breach of its
// Content-Security-Policy (site.Handler sends the site's with every page).
func (b *browser) start(ctx context.Context) {
	b.t.Helper()
	if err := chromedp.Do(ctx); err != nil {
		b.t.Fatalf("starting Chromium: %v", err)
	}
	if _, err := chromedp.Call(ctx, page.AddScriptToEvaluateOnNewDocument, page.AddScriptToEvaluateOnNewDocumentParams{Source: cspReporter}); err != nil {
		b.t.Fatalf("installing the policy reporter: %v", err)
	}
	exceptions := chromedp.Events(ctx, runtime.ExceptionThrown)
	console := chromedp.Events(ctx, runtime.ConsoleAPICalled)
	go func() {
		for ev, err := range exceptions {
			if err != nil {
				return
			}
			d := ev.ExceptionDetails
			text := d.Text
			if d.Exception != nil && d.Exception.Description != "" {
				text += " " + d.Exception.Description
			}
			b.mu.Lock()
			b.errs = append(b.errs, "exception: "+text)
			b.mu.Unlock()
		}
	}()
	go func() {
		for ev, err := range console {
			if err != nil {
				return
			}
			if ev.Type != runtime.ConsoleAPICalledTypeError {
				continue
			}
			var parts []string
			for _, a := range ev.Args {
				parts = append(parts, string(a.Value)+a.Description)
			}
			b.mu.Lock()
			b.errs = append(b.errs, "console.error: "+strings.Join(parts, " "))
			b.mu.Unlock()
		}
	}()
}

// cspReporter turns every Content-Security-Policy violation of a page (in
// a shadow root too: the event is composed) into a console.error.
const cspReporter = `document.addEventListener("securitypolicyviolation", (e) =>
	console.error("Content-Security-Policy: " + e.violatedDirective + " blocked " + (e.blockedURI || "inline code") + " at " + e.sourceFile + ":" + e.lineNumber), true);`

// tab opens another tab in the same browser.
func (b *browser) tab() *browser {
	ctx, cancel := chromedp.NewContext(b.ctx)
	b.t.Cleanup(cancel)
	nb := &browser{t: b.t, ctx: ctx}
	nb.start(ctx)
	return nb
}

// noErrors fails the test if the page threw or logged an error.
func (b *browser) noErrors() {
	b.t.Helper()
	time.Sleep(100 * time.Millisecond) // let the events arrive
	b.mu.Lock()
	defer b.mu.Unlock()
	for _, e := range b.errs {
		b.t.Errorf("the page reported: %s", e)
	}
}

// open navigates and waits until every widget of the page has run its
// scenario.
func (b *browser) open(path string) {
	b.t.Helper()
	url := path
	if strings.HasPrefix(path, "/") {
		url = siteURL(b.t) + path
	}
	if err := chromedp.Do(b.ctx, chromedp.Navigate(url)); err != nil {
		b.t.Fatalf("navigate to %s: %v", url, err)
	}
	b.waitReady()
}

// waitReady waits until every widget of the page has run its scenario
// (ready, then idle: a lesson's block opens at its moment and runs the
// rest of its script behind the reader). A
// widget runs when it comes near the screen (load="visible") and keeps
// its room meanwhile, so one far down a page waits for the reader: it is
// scrolled to each that has not run, as a reader would, and back. A raw
// form (a writer's <script type="text/warren"> or pre.warren) becomes its
// widget once the page has loaded and the browser is idle: it is waited
// for too (20 s at most: a page whose widget.js cannot run keeps them).
func (b *browser) waitReady() {
	b.t.Helper()
	evalJS[bool](b, `(async () => {
		await customElements.whenDefined("warren-scenario");
		for (const end = Date.now() + 20000; !(`+rawFormsDone+`) && Date.now() < end; ) await new Promise((r) => setTimeout(r, 20));
		const x = scrollX, y = scrollY;
		for (const e of document.querySelectorAll("warren-scenario")) {
			if (!e.hasAttribute("data-drawn") && e.getAttribute("load") !== "click") {
				e.scrollIntoView({ block: "nearest" });
			}
			await e.ready;
			await e.idle();
		}
		scrollTo(x, y);
		return true;
	})()`)
}

// settled wraps an expression so that it runs once every widget of the
// page has done what it was asked (the engine answers in a worker, so a
// click or a key is done a moment after it), and awaits its promise.
func settled(expr string) string {
	return `(async () => {
		for (const w of document.querySelectorAll("warren-scenario")) if (w.idle) await w.idle();
		return (` + expr + `);
	})()`
}

// evalJS evaluates an expression in the page (awaiting a promise) once
// the widgets have settled.
func evalJS[T any](b *browser, expr string) T {
	b.t.Helper()
	v, err := chromedp.Run(b.ctx, chromedp.Evaluate[T](settled(expr), chromedp.EvalAwaitPromise))
	if err != nil {
		b.t.Fatalf("evaluating %.200s: %v", strings.Join(strings.Fields(expr), " "), err) // on one line: scripts/bench -browser prints it
	}
	return v
}

// scrubTo moves a widget's timeline slider as a reader drags it, and waits
// for the widget to follow.
func (b *browser) scrubTo(widget string, n int) {
	b.t.Helper()
	// a reader drags a slider they see: the widget comes into view (far
	// from it, the browser skips drawing it, content-visibility: auto);
	// the slider seeks on the next frame, and the engine answers from its
	// worker: wait for the widget to be idle, then for it to draw
	evalJS[bool](b, fmt.Sprintf(`(async () => {
		const w = document.querySelector(%q), r = w.shadowRoot.querySelector(".timeline");
		const frame = () => new Promise((done) => requestAnimationFrame(done));
		w.scrollIntoView({ block: "nearest" });
		r.value = "%d";
		r.dispatchEvent(new Event("input"));
		await frame();
		await w.idle();
		await frame();
		return true;
	})()`, widget, n))
}

// jsString is s as a JavaScript string literal.
func jsString(s string) string {
	b, _ := json.Marshal(s) // a string always marshals
	return string(b)
}

// in returns JavaScript for an element in the shadow root of widget sel.
func in(widget, sel string) string {
	return fmt.Sprintf("document.querySelector(%q).shadowRoot.querySelector(%q)", widget, sel)
}

// shot saves a PNG of the page.
func (b *browser) shot(name string) {
	b.t.Helper()
	b.saveShot(name, chromedp.FullScreenshot(100))
}

// saveShot lets transitions finish, takes the picture capture takes, and
// saves it as name.png in the screenshots' folder.
func (b *browser) saveShot(name string, capture chromedp.Action[[]byte]) {
	b.t.Helper()
	time.Sleep(300 * time.Millisecond)
	png, err := chromedp.Run(b.ctx, capture)
	if err != nil {
		b.t.Fatalf("screenshot %s: %v", name, err)
	}
	path := filepath.Join(screenshotDir(b.t), name+".png")
	if err := os.WriteFile(path, png, 0o644); err != nil {
		b.t.Fatal(err)
	}
	b.t.Logf("screenshot: %s", path)
}

// shotElement saves a PNG of one element, brought into view first: far
// from the screen a widget is not drawn (content-visibility: auto), and
// its picture would be blank.
func (b *browser) shotElement(sel, name string) {
	b.t.Helper()
	evalJS[bool](b, fmt.Sprintf(`new Promise((done) => {
		document.querySelector(%q).scrollIntoView({ block: "start" });
		requestAnimationFrame(() => requestAnimationFrame(() => done(true)));
	})`, sel))
	b.saveShot(name, chromedp.Screenshot(chromedp.CSS(sel)))
}

var shotDir struct {
	once sync.Once
	dir  string
}

func screenshotDir(t testing.TB) string {
	shotDir.once.Do(func() {
		shotDir.dir = os.Getenv("WARREN_SCREENSHOTS")
		if shotDir.dir == "" {
			shotDir.dir = filepath.Join(os.TempDir(), "warren-screenshots")
		}
		os.MkdirAll(shotDir.dir, 0o755)
	})
	return shotDir.dir
}

// native runs a script on the engine in Go, as the widget does in the
// browser, and returns the simulation.
func native(t *testing.T, script string) *engine.Sim {
	t.Helper()
	s := engine.New(engine.Options{Record: true})
	for _, l := range strings.Split(script, "\n") {
		l = strings.TrimSpace(l)
		if l == "" || strings.HasPrefix(l, "#") {
			continue
		}
		s.Run(l, engine.RunOptions{})
	}
	return s
}

// shown is what a widget draws for the checks: its position, the ready
// count of each queue box and each process's mailbox length.
type shown struct {
	Pos      int64          `json:"pos"`
	End      int64          `json:"end"`
	Clock    string         `json:"clock"`
	Ready    map[string]int `json:"ready"`
	Mailbox  map[string]int `json:"mailbox"`
	Consumer map[string]string
}

func (b *browser) shown(widget string) shown {
	b.t.Helper()
	return evalJS[shown](b, fmt.Sprintf(`(() => {
		const w = document.querySelector(%q), r = w.shadowRoot;
		const ready = {}, mailbox = {};
		for (const box of r.querySelectorAll(".proc")) {
			mailbox[box.dataset.name] = Number(box.querySelector(".mailbox .len").textContent);
			const q = box.querySelector(".counts .ready");
			if (q) ready[box.dataset.name.replace(/^queue /, "")] = Number(q.textContent.split(" ")[0]);
		}
		return {pos: Number(r.querySelector(".timeline").value), end: Number(r.querySelector(".timeline").max),
			clock: r.querySelector(".clock").textContent, ready, mailbox};
	})()`, widget))
}

// want is what the engine says at event n.
func want(t *testing.T, s *engine.Sim, n int64) (ready, mailbox map[string]int) {
	t.Helper()
	if err := s.SeekEvent(n); err != nil {
		t.Fatal(err)
	}
	snap := s.Snapshot()
	ready, mailbox = map[string]int{}, map[string]int{}
	for _, q := range snap.Queues {
		ready[q.Name] = q.Ready
	}
	for _, p := range snap.Processes {
		mailbox[p.Name] = p.Mailbox
	}
	return ready, mailbox
}

func sameCounts(t *testing.T, what string, got, want map[string]int) {
	t.Helper()
	if fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("%s: the widget shows %v, the engine has %v", what, got, want)
	}
}

// TestWidgetStepsAndShows: the widget runs its scenario, shows the end of
// it, steps from the start with the keyboard and shows each state as the
// engine has it.
func TestWidgetStepsAndShows(t *testing.T) {
	b := newBrowser(t)
	b.open("/test-one.html")
	s := native(t, scenarioOne)
	end := s.Furthest()
	got := b.shown("warren-scenario")
	if got.Pos != end || got.End != end {
		t.Fatalf("the widget is at event %d of %d, want %d of %d", got.Pos, got.End, end, end)
	}
	ready, mailbox := want(t, s, end)
	sameCounts(t, "ready at the end", got.Ready, ready)
	sameCounts(t, "mailboxes at the end", got.Mailbox, mailbox)
	if got.Ready["q"] != 6 {
		t.Errorf("queue q shows %d ready, want 6 (8 published, 2 delivered)", got.Ready["q"])
	}
	lanes := evalJS[[]string](b, `[...`+in("warren-scenario", ".kind-queue")+`.querySelectorAll(".lane")].map((l) => l.textContent)`)
	if len(lanes) != 4 || !strings.HasPrefix(lanes[1], "priority 24") || !strings.HasPrefix(lanes[3], "priority 02") {
		t.Errorf("priority lanes: %q", lanes)
	}
	consumer := evalJS[string](b, in("warren-scenario", ".consumer .v")+".textContent")
	if !strings.HasPrefix(consumer, "2/2 unacked") {
		t.Errorf("consumer shows %q, want 2/2 unacked", consumer)
	}
	b.shot("widget-end")

	// Home goes to event 0; each ArrowRight is one event.
	evalJS[bool](b, in("warren-scenario", ".stage")+".focus(), true")
	if err := chromedp.Do(b.ctx, chromedp.KeyEvent(kb.Home)); err != nil {
		t.Fatal(err)
	}
	got = b.shown("warren-scenario")
	if got.Pos != 0 {
		t.Fatalf("after Home the widget is at event %d", got.Pos)
	}
	ready, mailbox = want(t, s, 0)
	sameCounts(t, "mailboxes at event 0", got.Mailbox, mailbox)
	for i := 1; i <= 12; i++ {
		if err := chromedp.Do(b.ctx, chromedp.KeyEvent(kb.ArrowRight)); err != nil {
			t.Fatal(err)
		}
	}
	got = b.shown("warren-scenario")
	if got.Pos != 12 {
		t.Fatalf("after 12 steps the widget is at event %d", got.Pos)
	}
	ready, mailbox = want(t, s, 12)
	sameCounts(t, "ready at event 12", got.Ready, ready)
	sameCounts(t, "mailboxes at event 12", got.Mailbox, mailbox)
	// the live region is filled on the next animation frame: wait for it
	var announced string
	for deadline := time.Now().Add(3 * time.Second); time.Now().Before(deadline); time.Sleep(50 * time.Millisecond) {
		announced = evalJS[string](b, in("warren-scenario", "[data-role=announce]")+".textContent")
		if strings.Contains(announced, "Event 12 of") {
			break
		}
	}
	if !strings.Contains(announced, "Event 12 of") {
		t.Errorf("the live region says %q", announced)
	}
	current := evalJS[string](b, in("warren-scenario", ".events li.now")+".textContent")
	if !strings.HasPrefix(current, "#12 ") {
		t.Errorf("the event list's current event is %q", current)
	}
	b.shot("widget-event-12")

	// The table view says the same as text.
	evalJS[bool](b, in("warren-scenario", "button.view")+".click(), true")
	rows := evalJS[[]string](b, `[...`+in("warren-scenario", ".tables")+`.querySelectorAll("caption")].map((c) => c.textContent)`)
	if strings.Join(rows, ",") != "Node,Processes,Credit,Queues,Consumers,Files,Rates" {
		t.Errorf("table view captions: %q", rows)
	}
	b.shot("widget-table-view")
	b.noErrors()
}

// TestWidgetConsole types commands in the console and reads their output.
func TestWidgetConsole(t *testing.T) {
	b := newBrowser(t)
	b.open("/test-one.html")
	typeLine := func(line string) {
		t.Helper()
		evalJS[bool](b, in("warren-scenario", "input.cmd")+".focus(), true")
		if err := chromedp.Do(b.ctx, chromedp.KeyEvent(line+"\r")); err != nil {
			t.Fatal(err)
		}
	}
	lastOutput := func() []string {
		return evalJS[[]string](b, `[...`+in("warren-scenario", ".log .entry:last-child")+`.querySelectorAll(".out")].map((o) => o.className + "|" + o.textContent)`)
	}
	typeLine("basic.get queue=q no-ack")
	out := lastOutput()
	if len(out) != 1 || out[0] != "out|c1.1 get-ok tag=1 exchange= key=q messages=5 body=m2 priority=2" {
		t.Errorf("basic.get printed %q", out)
	}
	typeLine("basic.ack tag=x on=c2.1")
	out = lastOutput()
	if len(out) != 1 || !strings.HasPrefix(out[0], "out err|error: column 11: basic.ack: tag must be an integer") {
		t.Errorf("a bad command printed %q", out)
	}
	// Tab completes a command name, then its keys.
	evalJS[bool](b, in("warren-scenario", "input.cmd")+".focus(), true")
	if err := chromedp.Do(b.ctx, chromedp.KeyEvent("basic.pu\t")); err != nil {
		t.Fatal(err)
	}
	if v := evalJS[string](b, in("warren-scenario", "input.cmd")+".value"); v != "basic.publish " {
		t.Errorf("Tab after basic.pu gave %q", v)
	}
	if err := chromedp.Do(b.ctx, chromedp.KeyEvent("ke\tq body=typed\r")); err != nil {
		t.Fatal(err)
	}
	hist := evalJS[string](b, in("warren-scenario", ".log .entry:last-child .cmdline")+".textContent")
	if hist != "› basic.publish key=q body=typed" {
		t.Errorf("the console echoed %q", hist)
	}
	if got := b.shown("warren-scenario"); got.Ready["q"] != 6 {
		t.Errorf("after get and publish, q shows %d ready, want 6", got.Ready["q"])
	}
	// ArrowUp brings the last command back.
	if err := chromedp.Do(b.ctx, chromedp.KeyEvent(kb.ArrowUp)); err != nil {
		t.Fatal(err)
	}
	if v := evalJS[string](b, in("warren-scenario", "input.cmd")+".value"); v != "basic.publish key=q body=typed" {
		t.Errorf("ArrowUp gave %q", v)
	}
	b.shot("widget-console")
	b.noErrors()
}

// TestWidgetScrubAndShare scrubs back on the timeline, checks the state,
// then opens the share link in a fresh tab and finds the same state.
func TestWidgetScrubAndShare(t *testing.T) {
	b := newBrowser(t)
	b.open("/test-one.html")
	s := native(t, scenarioOne)
	const at = 25
	b.scrubTo("warren-scenario", at)
	got := b.shown("warren-scenario")
	if got.Pos != at {
		t.Fatalf("after scrubbing the widget is at event %d, want %d", got.Pos, at)
	}
	ready, mailbox := want(t, s, at)
	sameCounts(t, "ready after scrubbing", got.Ready, ready)
	sameCounts(t, "mailboxes after scrubbing", got.Mailbox, mailbox)
	b.shot("widget-scrubbed")

	link := evalJS[string](b, `document.querySelector("warren-scenario").shareURL()`)
	if !strings.Contains(link, "/playground/#w=") || !strings.Contains(link, fmt.Sprintf("&e=%d", at)) {
		t.Fatalf("share link %q", link)
	}
	if len(link) > 600 {
		t.Errorf("the share link is %d characters long: too long for a chat message", len(link))
	}
	t.Logf("share link (%d characters): %s", len(link), link)

	fresh := b.tab()
	fresh.open(link)
	sel := "warren-scenario"
	again := fresh.shown(sel)
	if again.Pos != at || again.End != got.End {
		t.Errorf("the share link opened at event %d of %d, want %d of %d", again.Pos, again.End, at, got.End)
	}
	sameCounts(t, "ready from the share link", again.Ready, got.Ready)
	sameCounts(t, "mailboxes from the share link", again.Mailbox, got.Mailbox)
	fresh.shot("share-link-opened")
	fresh.noErrors()
	b.noErrors()
}

// TestShareLinkAfterBranch: a command typed after scrubbing back replaces
// the rest of the timeline; the share link reproduces that history.
func TestShareLinkAfterBranch(t *testing.T) {
	b := newBrowser(t)
	b.open("/test-one.html")
	b.scrubTo("warren-scenario", 30)
	evalJS[bool](b, `(() => { const w = document.querySelector("warren-scenario"); w.typed("basic.publish key=q body=late priority=3"); return true; })()`)
	got := b.shown("warren-scenario")
	link := evalJS[string](b, `document.querySelector("warren-scenario").shareURL()`)
	fresh := b.tab()
	fresh.open(link)
	again := fresh.shown("warren-scenario")
	if again.Pos != got.Pos || again.End != got.End || fmt.Sprint(again.Ready) != fmt.Sprint(got.Ready) {
		t.Errorf("after a branch the share link shows %+v, the widget showed %+v", again, got)
	}
	b.noErrors()
	fresh.noErrors()
}

// TestTwoWidgetsOnePage: a plain page with two elements loads warren.wasm
// once, and both run their own simulation; the page's styles stay out.
func TestTwoWidgetsOnePage(t *testing.T) {
	b := newBrowser(t)
	before := fetches("/warren.wasm")
	b.open("/test-two.html")
	if loads := fetches("/warren.wasm") - before; loads != 1 {
		t.Errorf("warren.wasm was fetched %d times, want once", loads)
	}
	a := b.shown("#a")
	if a.Ready["q"] != 6 {
		t.Errorf("first widget: %+v", a)
	}
	second := evalJS[string](b, `[...`+in("#b", ".tables")+`.querySelectorAll("table")][3].querySelector("tbody tr").textContent`)
	if !strings.HasPrefix(second, "jobs40") || !strings.HasSuffix(second, "no consumers") {
		t.Errorf("second widget's queue table row: %q (want it to start jobs40 and end with its consumer utilisation, no consumers)", second)
	}
	font := evalJS[string](b, `getComputedStyle(`+in("#a", "button.step")+`).backgroundColor`)
	if font == "rgb(255, 105, 180)" {
		t.Error("the page's button style reached into the widget")
	}
	b.shot("two-widgets")
	b.noErrors()
}

// TestBrokenInputsShowAMessage: a damaged share link, a missing src and a
// script with a typo each show a message inside the widget, and nothing
// throws.
func TestBrokenInputsShowAMessage(t *testing.T) {
	b := newBrowser(t)
	for _, hash := range []string{"#w=%%%25not-base64!&e=3", "#w=AAAA-garbage_data&e=1", "#w=" + strings.Repeat("q", 41) + "&e=x"} {
		if err := chromedp.Do(b.ctx, chromedp.Navigate("about:blank")); err != nil {
			t.Fatal(err)
		}
		b.open("/playground/" + hash)
		msg := evalJS[string](b, in("warren-scenario", ".problem")+".textContent")
		if !strings.HasPrefix(msg, "This link is damaged: ") {
			t.Errorf("playground%s shows %q", hash, msg)
		}
		if hidden := evalJS[bool](b, in("warren-scenario", ".problem")+".hidden"); hidden {
			t.Errorf("playground%s: the message is hidden", hash)
		}
	}
	b.shot("damaged-link")
	b.open("/test-bad.html")
	if msg := evalJS[string](b, in("#missing", ".problem")+".textContent"); !strings.Contains(msg, "HTTP 404") {
		t.Errorf("a missing src shows %q", msg)
	}
	if msg := evalJS[string](b, in("#typo", ".problem")+".textContent"); !strings.Contains(msg, `line 2, column 1: unknown command "basic.publsh"`) {
		t.Errorf("a typo shows %q", msg)
	}
	b.shot("bad-embeds")
	b.noErrors()
}

// TestPhoneLayout: on a narrow screen the widget stacks vertically and
// still fits the width.
func TestPhoneLayout(t *testing.T) {
	b := newBrowser(t)
	if err := chromedp.Do(b.ctx, chromedp.EmulateViewport(390, 844, chromedp.EmulateMobile, chromedp.EmulateScale(2))); err != nil {
		t.Fatal(err)
	}
	b.open("/test-one.html")
	overflow := evalJS[int](b, `document.documentElement.scrollWidth - document.documentElement.clientWidth`)
	if overflow > 0 {
		t.Errorf("the page scrolls sideways by %d px on a phone", overflow)
	}
	cols := evalJS[string](b, `getComputedStyle(`+in("warren-scenario", ".flow")+`).gridTemplateColumns`)
	if strings.Count(cols, "px") != 1 {
		t.Errorf("on a phone the process columns are %q, want one", cols)
	}
	b.shot("phone")
	b.noErrors()
}

// TestPlayPauseAndStepMode: Space plays and pauses; play stops at the end
// of the timeline; a command handed to the node without running it waits
// for the Step button.
func TestPlayPauseAndStepMode(t *testing.T) {
	b := newBrowser(t)
	b.open("/test-one.html")
	evalJS[bool](b, `(() => { const r = `+in("warren-scenario", ".speed")+`; r.value = "1000"; r.dispatchEvent(new Event("change")); return true; })()`)
	evalJS[bool](b, in("warren-scenario", ".stage")+".focus(), true")
	if err := chromedp.Do(b.ctx, chromedp.KeyEvent(kb.Home), chromedp.KeyEvent(" ")); err != nil {
		t.Fatal(err)
	}
	if pressed := evalJS[string](b, in("warren-scenario", "button.play")+`.getAttribute("aria-pressed")`); pressed != "true" {
		t.Fatalf("after Space the play button is aria-pressed=%s", pressed)
	}
	deadline := time.Now().Add(10 * time.Second)
	for {
		got := b.shown("warren-scenario")
		if got.Pos == got.End {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("play did not reach the end: %+v", got)
		}
		time.Sleep(50 * time.Millisecond)
	}
	time.Sleep(100 * time.Millisecond)
	if pressed := evalJS[string](b, in("warren-scenario", "button.play")+`.getAttribute("aria-pressed")`); pressed != "false" {
		t.Errorf("play did not stop at the end (aria-pressed=%s)", pressed)
	}

	evalJS[bool](b, in("warren-scenario", ".mode input")+".click(), true")
	evalJS[bool](b, `(document.querySelector("warren-scenario").typed("basic.publish key=q body=held"), true)`)
	before := b.shown("warren-scenario")
	note := evalJS[string](b, in("warren-scenario", ".log .entry:last-child .out")+".textContent")
	if note != "(handed to the node: step to see it run)" {
		t.Errorf("a submitted command printed %q", note)
	}
	evalJS[bool](b, in("warren-scenario", "button.step")+".click(), true")
	after := b.shown("warren-scenario")
	if after.Pos != before.Pos+1 || after.End != before.End+1 {
		t.Errorf("Step after a submit: from %d/%d to %d/%d", before.Pos, before.End, after.Pos, after.End)
	}
	link := evalJS[string](b, `document.querySelector("warren-scenario").shareURL()`)
	fresh := b.tab()
	fresh.open(link)
	if again := fresh.shown("warren-scenario"); again.Pos != after.Pos || again.End != after.End {
		t.Errorf("the share link of a submitted, stepped command opens at %d/%d, want %d/%d", again.Pos, again.End, after.Pos, after.End)
	}
	b.noErrors()
	fresh.noErrors()
}

// TestReducedMotion: autoplay starts the timeline from event 0, except for
// a reader who asked for reduced motion, who also gets no transitions.
func TestReducedMotion(t *testing.T) {
	b := newBrowser(t)
	b.open("/test-autoplay.html")
	if pressed := evalJS[string](b, in("warren-scenario", "button.play")+`.getAttribute("aria-pressed")`); pressed != "true" {
		t.Errorf("autoplay: the play button is aria-pressed=%s", pressed)
	}
	if got := b.shown("warren-scenario"); got.Pos > 2 {
		t.Errorf("autoplay at 5 events/s is already at event %d", got.Pos)
	}
	if _, err := chromedp.Call(b.ctx, emulation.SetEmulatedMedia, emulation.SetEmulatedMediaParams{
		Features: []*emulation.MediaFeature{{Name: "prefers-reduced-motion", Value: "reduce"}},
	}); err != nil {
		t.Fatal(err)
	}
	b.open("/test-autoplay.html")
	if pressed := evalJS[string](b, in("warren-scenario", "button.play")+`.getAttribute("aria-pressed")`); pressed != "false" {
		t.Errorf("with reduced motion, autoplay still plays")
	}
	if got := b.shown("warren-scenario"); got.Pos != got.End {
		t.Errorf("with reduced motion the widget should show the end, it is at %d of %d", got.Pos, got.End)
	}
	d := evalJS[string](b, `getComputedStyle(`+in("warren-scenario", ".gauge .fill")+`).transitionDuration`)
	if d != "0s" {
		t.Errorf("with reduced motion a gauge still has a %s transition", d)
	}
	b.noErrors()
}
