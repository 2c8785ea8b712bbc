package browser_test

import (
	"testing"
	"time"

	"github.com/chromedp/chromedp"
)

// TestLoadOnClick: a widget with load="click" shows its script and a Run
// button, and nothing of the engine is downloaded until the reader
// presses it; then it runs its script.
func TestLoadOnClick(t *testing.T) {
	b := newBrowser(t)
	site := siteURL(t)
	const script = "# two jobs\nqueue.declare queue=jobs\n\nbasic.publish key=jobs body=\"j {i}\" count=2"
	host := hostPages(t, site, map[string]string{"/click.html": `<script type="text/warren" id="c" load="click" title="On click">
` + script + `
</script>`})
	before := fetches("/warren.wasm")
	if err := chromedp.Do(b.ctx, chromedp.Navigate(host+"/click.html")); err != nil {
		t.Fatal(err)
	}
	b.waitFor(`(() => { const w = document.querySelector("warren-scenario#c"); return !!(w && w.shadowRoot && w.shadowRoot.querySelector(".run-now")); })()`)
	time.Sleep(time.Second)
	shown := evalJS[string](b, in("#c", ".click-to-load pre")+".textContent")
	if shown != script {
		t.Errorf("before the click the widget shows %q, want its script", shown)
	}
	if n := fetches("/warren.wasm") - before; n != 0 {
		t.Errorf("warren.wasm was fetched %d times before the click", n)
	}
	b.shotElement("#c", "load-click")
	evalJS[bool](b, in("#c", ".run-now")+".click(), true")
	b.waitReady()
	if s := b.shown("#c"); s.Ready["jobs"] != 2 {
		t.Errorf("after the click the widget shows %+v", s)
	}
	if n := evalJS[int](b, `document.querySelector("#c").shadowRoot.querySelectorAll(".click-to-load").length`); n != 0 {
		t.Errorf("the Run button stayed after the click")
	}
	b.noErrors()
}
