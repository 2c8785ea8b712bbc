package browser_test

import (
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
)

// hostPages serves pages (path -> HTML) on a second loopback origin, as a
// documentation site would, with the policy the embedding page asks for.
// Each page gets the widget's two tags in its head.
func hostPages(t *testing.T, site string, pages map[string]string) string {
	t.Helper()
	return hostPagesWith(t, site, hostPolicy(site), pages)
}

// hostPagesWith is hostPages with policy as the pages' policy.
func hostPagesWith(t *testing.T, site, policy string, pages map[string]string) string {
	t.Helper()
	head := `<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8"><title>docs</title>
<link rel="stylesheet" href="` + site + `/widget.css">
<script src="` + site + `/widget.js" defer></script></head>
<body>`
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, ok := pages[r.URL.Path]
		if !ok {
			http.NotFound(w, r)
			return
		}
		w.Header().Set("Content-Security-Policy", policy)
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		fmt.Fprint(w, head+body+"</body></html>")
	}))
	t.Cleanup(srv.Close)
	return strings.Replace(srv.URL, "127.0.0.1", "localhost", 1)
}

// rawFormsDone holds once widget.js has made every raw form of the page a
// widget.
const rawFormsDone = `document.querySelectorAll('script[type="text/warren"]:not([hidden]), pre.warren:not([hidden])').length === 0`

// rawScript is a script with what Markdown processors break: a first line
// that is a comment, a blank line, braces and quotes.
const rawScript = `# three jobs, one worker

queue.declare queue=jobs
basic.publish key=jobs body="job {i}" count=3
`

// TestRawFormsBecomeWidgets: a <script type="text/warren"> and a <pre
// class="warren"> become live widgets with their attributes and their text
// as written, each its own simulation; a raw form that a site's
// client-side navigation puts in later becomes a widget too, and one it
// takes away takes its widget with it.
func TestRawFormsBecomeWidgets(t *testing.T) {
	b := newBrowser(t)
	site := siteURL(t)
	host := hostPages(t, site, map[string]string{"/raw.html": `<main>
<h1>Raw forms</h1>
<script type="text/warren" id="s" title="Script form">
` + rawScript + `</script>
<p>Between the two.</p>
<pre class="warren" id="p" open="start"># the pre form, with &lt;escaped&gt; text
queue.declare queue=other

basic.publish key=other body="it's {i}" count=2</pre>
</main>`})
	before := fetches("/warren.wasm")
	b.open(host + "/raw.html")
	b.waitFor(rawFormsDone)
	b.waitReady()

	type widget struct {
		Source, Label, Open string
		RawHidden           bool
	}
	got := evalJS[[]widget](b, `[...document.querySelectorAll("warren-scenario")].map((w) => ({
		Source: w.source, Label: w.getAttribute("aria-label") || "", Open: w.getAttribute("open") || "",
		RawHidden: w.nextElementSibling.hidden }))`)
	if len(got) != 2 {
		t.Fatalf("the page has %d widgets, want 2: %+v", len(got), got)
	}
	if got[0].Source != rawScript || got[0].Label != "Script form" || !got[0].RawHidden {
		t.Errorf("the script form became %+v, want its text as written %q", got[0], rawScript)
	}
	if want := "# the pre form, with <escaped> text\nqueue.declare queue=other\n\nbasic.publish key=other body=\"it's {i}\" count=2\n"; got[1].Source != want || got[1].Open != "start" || !got[1].RawHidden {
		t.Errorf("the pre form became %+v, want %q opening at the start", got[1], want)
	}
	if s := b.shown("#s"); s.Ready["jobs"] != 3 || s.Pos != s.End {
		t.Errorf("the script form's widget shows %+v, want 3 ready in jobs at the end", s)
	}
	if p := b.shown("#p"); p.Pos != 0 || p.End == 0 {
		t.Errorf("the pre form's widget shows %+v, want it at event 0 of its run", p)
	}
	b.console("#s", "basic.publish key=jobs body=more count=2")
	if s, p := b.shown("#s"), b.shown("#p"); s.Ready["jobs"] != 5 || p.Ready["jobs"] != 0 {
		t.Errorf("after a publish typed into the first widget: first %+v, second %+v", s, p)
	}
	b.shot("raw-forms")

	// What a site's client-side navigation does: the page's content is
	// replaced without a reload.
	evalJS[bool](b, `(document.querySelector("main").innerHTML = '<h1>Page B</h1><script type="text/warren" id="n">queue.declare queue=next\nbasic.publish key=next count=4</script>', true)`)
	b.waitFor(rawFormsDone)
	b.waitReady()
	if n := evalJS[int](b, `document.querySelectorAll("warren-scenario").length`); n != 1 {
		t.Errorf("after the page's content was replaced there are %d widgets, want the new page's one", n)
	}
	if n := b.shown("#n"); n.Ready["next"] != 4 {
		t.Errorf("the widget added by navigation shows %+v, want 4 ready in next", n)
	}
	if loads := fetches("/warren.wasm") - before; loads != 1 {
		t.Errorf("warren.wasm was fetched %d times, want once", loads)
	}
	b.noErrors()
}

// TestChangedScriptsSayWhatChanged: a widget whose script a Markdown
// processor changed (paragraphs and headings CommonMark made after a blank
// line, lines Vue joined into one, quotes a typographer curled) runs
// nothing and says what it could not read, in the page's language.
func TestChangedScriptsSayWhatChanged(t *testing.T) {
	b := newBrowser(t)
	site := siteURL(t)
	host := hostPages(t, site, map[string]string{"/changed.html": `
<warren-scenario id="blocks">queue.declare queue=jobs
<h1 id="comment">the worker</h1>
<p>basic.publish key=jobs count=3</p>
</warren-scenario>
<warren-scenario id="joined"># three jobs, one worker queue.declare queue=jobs basic.publish key=jobs body="job {i}" count=3</warren-scenario>
<warren-scenario id="quotes">queue.declare queue=jobs
basic.publish key=jobs body=“job {i}” count=3</warren-scenario>
<warren-scenario id="zh" lang="zh"># 注释 queue.declare queue=jobs basic.publish key=jobs count=3</warren-scenario>
`})
	b.open(host + "/changed.html")
	for _, c := range []struct{ widget, want string }{
		{"#blocks", `The script did not arrive as written: the page turned this script into HTML before the widget could read it: it holds <h1> "the worker", <p> "basic.publish key=jobs count=3", which are not lines of script`},
		{"#joined", `The script did not arrive as written: the script's lines were joined into one that starts with "#", so all of it would be one comment (it holds 2 command(s))`},
		{"#quotes", `The script did not arrive as written: line 2: the quotes of body=“job {i}” are typographic`},
		{"#zh", `脚本到达时已被改动: 脚本的各行被合并成了一行，且以 "#" 开头`},
	} {
		msg := evalJS[string](b, in(c.widget, ".problem")+".textContent")
		if !strings.HasPrefix(msg, c.want) || evalJS[bool](b, in(c.widget, ".problem")+".hidden") {
			t.Errorf("%s says %q, want it to start with %q", c.widget, msg, c.want)
		}
		if s := b.shown(c.widget); s.End != 0 || len(s.Ready) != 0 {
			t.Errorf("%s ran something: %+v", c.widget, s)
		}
	}
	b.shot("changed-scripts")
	b.noErrors()
}
