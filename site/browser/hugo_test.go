package browser_test

import (
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
)

// siteFetches is how many requests the site's server has had in all.
func siteFetches() int {
	testSite.mu.Lock()
	defer testSite.mu.Unlock()
	n := 0
	for _, c := range testSite.fetched {
		n += c
	}
	return n
}

// docScripts are the scripts the documentation sites of the integration
// tests hold, each with what Markdown processors break: a first line that
// is a comment, a blank line, {i}, and quotes.
var docScripts = map[string]string{
	"a1": "# three jobs, one worker\n\nqueue.declare queue=jobs\nbasic.publish key=jobs body=\"job {i}\" count=3\n",
	"a2": "queue.declare queue=other\n\n# 'two' of them\nbasic.publish key=other body=\"it's {i}\" count=2\n",
	"b1": "# a shortcode's script\n\nqueue.declare queue=short\nbasic.publish key=short body=\"s {i}\" count=4\n",
	"b2": "# the raw form\n\nqueue.declare queue=raw\nbasic.publish key=raw body=\"r {i}\" count=5\n",
}

// docReady is how many messages each script leaves ready, and in which
// queue.
var docReady = map[string]struct {
	queue string
	n     int
}{"a1": {"jobs", 3}, "a2": {"other", 2}, "b1": {"short", 4}, "b2": {"raw", 5}}

// hugoSite builds, with Debian's hugo, a site that uses
// integrations/hugo as its README says: page A holds two ```warren
// fences with prose between them, page B the shortcode and the raw
// <script type="text/warren"> form. It returns the built site's folder.
func hugoSite(t *testing.T, origin string) string {
	t.Helper()
	hugo, err := exec.LookPath("hugo")
	if err != nil {
		if os.Getenv("CI") == "true" {
			t.Fatal("hugo is missing: CI must build the Hugo site (apt-get install hugo)")
		}
		t.Skip("skipping the Hugo site: hugo is missing (apt-get install hugo); under CI=true this fails")
	}
	dir := t.TempDir()
	files := map[string]string{
		"config.toml": `baseURL = "http://localhost/"
title = "Docs"
disableKinds = ["taxonomy", "term", "RSS", "sitemap"]
[markup.goldmark.renderer]
unsafe = true
[params.warren]
origin = "` + origin + `/"
`,
		"layouts/_default/single.html": `<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8"><title>{{ .Title }}</title>
{{ partial "warren-head.html" . }}</head>
<body><main><h1>{{ .Title }}</h1>{{ .Content }}</main></body></html>
`,
		"layouts/index.html": `<!DOCTYPE html><html lang="en"><head><meta charset="utf-8"><title>{{ .Title }}</title></head><body><a href="/a/">A</a></body></html>
`,
		"content/a.md": "---\ntitle: Page A\n---\nTwo widgets, each from a fence.\n\n" +
			"```warren {id=\"a1\" title=\"Three jobs\"}\n" + docScripts["a1"] + "```\n\n" +
			"Between them, prose with \"quotes\" the typographer curls, and a list:\n\n- one\n- two\n\n" +
			"```warren {id=\"a2\" title=\"Other\" open=\"start\"}\n" + docScripts["a2"] + "```\n\n" +
			"[To page B](/b/)\n",
		"content/b.md": "---\ntitle: Page B\n---\n" +
			"{{< warren id=\"b1\" title=\"Shortcode\" >}}\n" + docScripts["b1"] + "{{< /warren >}}\n\n" +
			"Between them, \"prose\".\n\n" +
			"<script type=\"text/warren\" id=\"b2\" title=\"Raw form\">\n" + docScripts["b2"] + "</script>\n\n" +
			"[Back to page A](/a/)\n",
	}
	for name, body := range files {
		writeFile(t, filepath.Join(dir, name), body)
	}
	copyTree(t, filepath.Join("..", "..", "integrations", "hugo", "layouts"), filepath.Join(dir, "layouts"))
	cmd := exec.Command(hugo, "--source", dir, "--destination", filepath.Join(dir, "public"), "--cacheDir", filepath.Join(dir, "cache"), "--quiet")
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("hugo: %v\n%s", err, out)
	}
	return filepath.Join(dir, "public")
}

func writeFile(t *testing.T, path, body string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(body), 0o644); err != nil {
		t.Fatal(err)
	}
}

// copyTree copies the files under from into to.
func copyTree(t *testing.T, from, to string) {
	t.Helper()
	err := filepath.WalkDir(from, func(path string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		rel, _ := filepath.Rel(from, path)
		body, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		writeFile(t, filepath.Join(to, rel), string(body))
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}

// serveDocs serves a built documentation site on a second loopback origin,
// with policy as its Content-Security-Policy unless it is empty.
func serveDocs(t *testing.T, policy, dir string) string {
	t.Helper()
	files := http.FileServer(http.Dir(dir))
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if policy != "" {
			w.Header().Set("Content-Security-Policy", policy)
		}
		files.ServeHTTP(w, r)
	}))
	t.Cleanup(srv.Close)
	return strings.Replace(srv.URL, "127.0.0.1", "localhost", 1)
}

// docView is what a documentation page's widgets are: each one's script,
// its title and whether it says it could not read its script.
type docView struct {
	ID, Source, Label string
	Problem           bool
}

// checkDocPage checks that the page shows the widgets ids, in that order,
// each with its script as written, live, with no message, and that a
// command typed into the first changes it alone.
func (b *browser) checkDocPage(where string, ids ...string) {
	b.t.Helper()
	got := evalJS[[]docView](b, `[...document.querySelectorAll("warren-scenario")].map((w) => ({
		ID: w.id, Source: w.source, Label: w.getAttribute("aria-label") || "",
		Problem: !w.shadowRoot.querySelector(".problem").hidden }))`)
	if len(got) != len(ids) {
		b.t.Fatalf("%s: %d widgets %+v, want %q", where, len(got), got, ids)
	}
	for i, id := range ids {
		if got[i].ID != id || got[i].Source != docScripts[id] || got[i].Label == "" || got[i].Problem {
			b.t.Errorf("%s: widget %d is %+v, want %s with its script as written: %q", where, i, got[i], id, docScripts[id])
		}
		r := docReady[id]
		if s := b.shown("#" + id); s.Ready[r.queue] != r.n && !(id == "a2" && s.Pos == 0) {
			b.t.Errorf("%s: %s shows %+v, want %d ready in %s", where, id, s, r.n, r.queue)
		}
	}
	first, second := ids[0], ids[1]
	q := docReady[first].queue
	before := b.shown("#" + second)
	b.console("#"+first, "basic.publish key="+q+" body=typed count=10")
	if s := b.shown("#" + first); s.Ready[q] != docReady[first].n+10 {
		b.t.Errorf("%s: %s after a publish typed into it shows %+v", where, first, s)
	}
	if s := b.shown("#" + second); s.Pos != before.Pos || s.End != before.End {
		b.t.Errorf("%s: %s changed when %s was typed into: %+v, was %+v", where, second, first, s, before)
	}
}

// waitFor waits up to 30 s for expr to hold.
func (b *browser) waitFor(expr string) {
	b.t.Helper()
	for i := 0; i < 300; i++ {
		if ok, err := chromedp.Run(b.ctx, chromedp.Evaluate[bool](expr)); err == nil && ok {
			return
		}
		time.Sleep(100 * time.Millisecond)
	}
	b.t.Fatalf("waited 30 s for %s", expr)
}

// layoutShift is the page's cumulative layout shift so far.
func (b *browser) layoutShift() float64 { return evalJS[float64](b, layoutShift) }

// maxShift is the most layout shift a page's first view may have: the
// widget keeps its room from the first paint (widget.css).
const maxShift = 0.05

// firstView logs the first view of a generator's page A, its layout shift
// and its requests to warren's files since there were all, and holds the
// shift to maxShift.
func (b *browser) firstView(name string, all int) {
	b.t.Helper()
	shift := b.layoutShift()
	b.t.Logf("%s page A, first view: layout shift %.3f, %d requests to warren's files", name, shift, siteFetches()-all)
	if shift > maxShift {
		b.t.Errorf("%s page A's first view has a layout shift of %.3f, want at most %.2f", name, shift, maxShift)
	}
}

// TestHugoSite builds a Hugo site that uses integrations/hugo and reads
// it in Chromium: two widgets a page, live and independent, from fences,
// the shortcode and the raw form, their scripts as written; page A, then
// B, then back to A brings them up live at each stop, and warren.wasm is
// fetched once a page view.
func TestHugoSite(t *testing.T) {
	site := siteURL(t)
	docs := serveDocs(t, hostPolicy(site), hugoSite(t, site))
	b := newBrowser(t)

	wasm, all := fetches("/warren.wasm"), siteFetches()
	b.open(docs + "/a/")
	b.waitFor(rawFormsDone)
	b.waitReady()
	b.firstView("Hugo", all)
	b.checkDocPage("page A", "a1", "a2")
	b.shot("hugo-a")

	if err := chromedp.Do(b.ctx, chromedp.Click(`a[href="/b/"]`), chromedp.WaitReady(`#b2`)); err != nil {
		t.Fatalf("following the link to page B: %v", err)
	}
	b.waitFor(rawFormsDone)
	b.waitReady()
	b.checkDocPage("page B", "b1", "b2")
	b.shot("hugo-b")

	// history.back, as the reader's Back button: the page may come back
	// from the back-forward cache, without a load event to wait for
	evalJS[bool](b, `(history.back(), true)`)
	b.waitFor(`location.pathname === "/a/" && document.querySelector("#a1") !== null`)
	b.waitReady()
	if s := b.shown("#a1"); s.Ready["jobs"] < 3 {
		t.Errorf("back on page A, a1 shows %+v", s)
	}
	if s := b.shown("#a2"); s.End == 0 {
		t.Errorf("back on page A, a2 shows %+v", s)
	}
	if loads := fetches("/warren.wasm") - wasm; loads > 3 {
		t.Errorf("warren.wasm was fetched %d times in three page views, want at most once a view", loads)
	}
	t.Logf("Hugo: warren.wasm fetched %d times in three page views", fetches("/warren.wasm")-wasm)
	b.noErrors()
}
