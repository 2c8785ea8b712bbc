package browser_test

import (
	"fmt"
	"net/http"
	"net/http/httptest"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
)

// hostTwoWidgets is a plain documentation page on a host of its own that
// embeds two widgets from warren's site (%[1]s), as the embedding page
// shows, between paragraphs whose place a reader would see move.
const hostTwoWidgets = `<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8"><title>two widgets</title>
<link rel="stylesheet" href="%[1]s/widget.css"><script src="%[1]s/widget.js" defer></script>
<style>body { max-width: 680px; margin: 0 auto; font: 16px/1.5 serif }</style></head>
<body><h1>Queues, two ways</h1>
<p>A queue holds what its consumers have not taken yet. The widget below declares one and publishes three messages into it.</p>
<warren-scenario id="a">queue.declare queue=q
basic.publish key=q count=3</warren-scenario>
<p id="between">The second widget publishes two messages to another queue; each widget runs a simulation of its own.</p>
<warren-scenario id="b">queue.declare queue=jobs
basic.publish key=jobs count=2</warren-scenario>
<p id="after">That is all there is to it.</p></body></html>`

// layoutShift sums the page's layout shifts so far (buffered: from its
// start), as Cumulative Layout Shift counts them.
const layoutShift = `new Promise((done) => {
	let sum = 0;
	const o = new PerformanceObserver((list) => {
		for (const e of list.getEntries()) if (!e.hadRecentInput) sum += e.value;
	});
	o.observe({ type: "layout-shift", buffered: true });
	setTimeout(() => { o.disconnect(); done(sum); }, 200);
})`

// TestFirstAndSecondView: a host page with two widgets asks warren's site
// for at most 15 files on its first view, and for none on its second (the
// widget's files are versioned and immutable, widget.js and widget.css
// fresh for five minutes), and the widgets' starting moves nothing on
// the page: a layout shift of at most 0.05 (the widget keeps its room from
// the first paint and shows what it drew once it has run).
func TestFirstAndSecondView(t *testing.T) {
	b := newBrowser(t)
	origin := siteURL(t)
	host := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		w.Header().Set("Cache-Control", "no-cache")
		fmt.Fprintf(w, hostTwoWidgets, origin)
	}))
	t.Cleanup(host.Close)

	view := func(which string) (requests int, shift float64, transferred int) {
		before := siteFetches()
		b.open(host.URL + "/docs.html")
		if a, w := b.shown("#a"), b.shown("#b"); a.Ready["q"] != 3 || w.Ready["jobs"] != 2 {
			t.Errorf("%s view: the widgets show %+v and %+v", which, a, w)
		}
		time.Sleep(500 * time.Millisecond) // what the widgets ask for late
		shift = b.layoutShift()
		transferred = evalJS[int](b, `performance.getEntriesByType("resource").filter((e) => e.name.startsWith(`+jsString(origin)+`)).reduce((n, e) => n + e.transferSize, 0)`)
		requests = siteFetches() - before
		t.Logf("%s view: %d requests to warren's files, %d bytes transferred to the page, layout shift %.4f", which, requests, transferred, shift)
		return requests, shift, transferred
	}
	first, shift, transferred := view("first")
	if transferred == 0 {
		t.Errorf("the first view's resource timing says nothing came from warren's site (Timing-Allow-Origin?)")
	}
	if first > 15 {
		t.Errorf("the first view made %d requests to warren's files, want at most 15", first)
	}
	if shift > maxShift {
		t.Errorf("the first view's layout shift is %.4f, want at most %.2f", shift, maxShift)
	}
	if err := chromedp.Do(b.ctx, chromedp.Navigate("about:blank")); err != nil {
		t.Fatal(err)
	}
	second, shift, transferred := view("second")
	if second != 0 || transferred != 0 {
		t.Errorf("the second view made %d requests to warren's files and transferred %d bytes, want none", second, transferred)
	}
	if shift > maxShift {
		t.Errorf("the second view's layout shift is %.4f, want at most %.2f", shift, maxShift)
	}
	b.noErrors()
}
