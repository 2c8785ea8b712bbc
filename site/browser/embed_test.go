package browser_test

import (
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
)

// hostPolicy is the Content-Security-Policy a host page sends for itself
// plus what the embedding page says it must allow for the widget.
func hostPolicy(site string) string {
	return "default-src 'self'; style-src 'self' " + site + "; style-src-attr 'unsafe-inline'; " +
		"script-src 'self' " + site + " 'wasm-unsafe-eval'; connect-src " + site + "; worker-src blob: " + site
}

// hostOrigin serves a documentation page, as another site would, on a
// second loopback origin (localhost and another port): the widget's two
// snippets from the embedding page, two widgets, the page's own style
// sheet, whose rules name classes the widget uses too, and a strict
// Content-Security-Policy that allows what the embedding page says.
func hostOrigin(t *testing.T, site string) string {
	t.Helper()
	page := `<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8"><title>docs elsewhere</title>
<link rel="stylesheet" href="/host.css">
<link rel="stylesheet" href="` + site + `/widget.css">
<script src="` + site + `/widget.js" defer></script></head>
<body><h1>Docs on another site</h1>
<p class="hint" id="hosthint">The host's own hint.</p>
<button class="step" type="button" id="hostbtn">The host's button</button>
<div class="log" id="hostlog">The host's log</div>
<warren-scenario id="a" title="First">queue.declare queue=q
basic.publish key=q body=m{i} count=3</warren-scenario>
<warren-scenario id="b" title="Second" view="table">queue.declare queue=jobs</warren-scenario>
</body></html>`
	css := `* { font-family: Georgia, serif; letter-spacing: 3px; }
button { background: rgb(255, 105, 180); }
.hint { color: rgb(1, 2, 3); font-size: 31px; }
.log { display: inline; }`
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Security-Policy", hostPolicy(site))
		switch r.URL.Path {
		case "/docs.html":
			w.Header().Set("Content-Type", "text/html; charset=utf-8")
			fmt.Fprint(w, page)
		case "/host.css":
			w.Header().Set("Content-Type", "text/css")
			fmt.Fprint(w, css)
		default:
			http.NotFound(w, r)
		}
	}))
	t.Cleanup(srv.Close)
	return strings.Replace(srv.URL, "127.0.0.1", "localhost", 1)
}

// TestEmbedFromAnotherOrigin loads a host page from a second origin with
// two widgets: both run, each its own simulation, warren.wasm is fetched
// once, the host's style stays out of the widgets and theirs out of the
// host, and nothing breaks the host's policy.
func TestEmbedFromAnotherOrigin(t *testing.T) {
	b := newBrowser(t)
	site := siteURL(t)
	host := hostOrigin(t, site)
	before := fetches("/warren.wasm")
	b.open(host + "/docs.html")
	if loads := fetches("/warren.wasm") - before; loads != 1 {
		t.Errorf("warren.wasm was fetched %d times for two widgets, want once", loads)
	}
	if origin := evalJS[string](b, "location.origin"); origin == site || !strings.HasPrefix(origin, "http://localhost:") {
		t.Fatalf("the host page is on %s, the site on %s: not two origins", origin, site)
	}

	// Live and independent: each ran its own script, and a command typed
	// into one changes it alone.
	if a := b.shown("#a"); a.Ready["q"] != 3 {
		t.Errorf("first widget: %+v", a)
	}
	b.console("#a", "basic.publish key=q body=more count=2")
	b.console("#b", "basic.publish key=jobs body=j")
	if a := b.shown("#a"); a.Ready["q"] != 5 || len(a.Ready) != 1 {
		t.Errorf("first widget after its publish: %+v", a)
	}
	second := evalJS[string](b, `[...`+in("#b", ".tables")+`.querySelectorAll("table")][3].querySelector("tbody tr").textContent`)
	if !strings.HasPrefix(second, "jobs10") {
		t.Errorf("second widget's queue row after its own publish: %q", second)
	}

	// Style: the host's rules (on button, *, .hint, .log) do not reach in,
	// and the widget's do not reach out.
	type styles struct {
		InnerButton, InnerFont, InnerSpacing, InnerHintColor, InnerLogDisplay string
		HostButton, HostFont, HostHintColor, HostHintSize, HostLogDisplay     string
	}
	s := evalJS[styles](b, `(() => {
		const r = document.querySelector("#a").shadowRoot, cs = (el) => getComputedStyle(el);
		const inner = r.querySelector("button.step"), hint = r.querySelector(".hint"), log = r.querySelector(".log");
		return {
			InnerButton: cs(inner).backgroundColor, InnerFont: cs(inner).fontFamily, InnerSpacing: cs(inner).letterSpacing,
			InnerHintColor: cs(hint).color, InnerLogDisplay: cs(log).display,
			HostButton: cs(document.querySelector("#hostbtn")).backgroundColor,
			HostFont: cs(document.querySelector("#hosthint")).fontFamily,
			HostHintColor: cs(document.querySelector("#hosthint")).color,
			HostHintSize: cs(document.querySelector("#hosthint")).fontSize,
			HostLogDisplay: cs(document.querySelector("#hostlog")).display,
		};
	})()`)
	if s.InnerButton == "rgb(255, 105, 180)" || strings.Contains(s.InnerFont, "Georgia") || s.InnerSpacing == "3px" ||
		s.InnerHintColor == "rgb(1, 2, 3)" || s.InnerLogDisplay == "inline" {
		t.Errorf("the host's style reached into the widget: %+v", s)
	}
	if s.HostButton != "rgb(255, 105, 180)" || !strings.Contains(s.HostFont, "Georgia") || s.HostHintColor != "rgb(1, 2, 3)" ||
		s.HostHintSize != "31px" || s.HostLogDisplay != "inline" {
		t.Errorf("the widget's style reached the host's elements: %+v", s)
	}
	b.shot("embed-other-origin")
	b.noErrors()
}

// TestEmbeddingPage opens the embedding page as serve serves it (built
// without -origin): its snippets name the address the page came from, and
// what a host must send is there with it.
func TestEmbeddingPage(t *testing.T) {
	b := newBrowser(t)
	site := siteURL(t)
	b.open("/embedding/")
	snippets := evalJS[[]string](b, `[...document.querySelectorAll("[data-origin]")].map((c) => c.textContent)`)
	if len(snippets) < 4 {
		t.Fatalf("%d snippets name the origin, want at least 4", len(snippets))
	}
	for _, s := range snippets {
		if strings.Contains(s, "HOST") || !strings.Contains(s, site) {
			t.Errorf("a snippet does not name %s: %q", site, s)
		}
	}
	if tag := snippets[0]; !strings.Contains(tag, `<script src="`+site+`/widget.js" defer></script>`) {
		t.Errorf("the script tag snippet: %q", tag)
	}
	text := evalJS[string](b, `document.querySelector("#other-sites").parentElement.textContent`)
	for _, want := range []string{"Access-Control-Allow-Origin: *", "GitHub Pages", "Netlify", `add_header Access-Control-Allow-Origin "*" always;`,
		"script-src " + site + " 'wasm-unsafe-eval'; style-src " + site + "; style-src-attr 'unsafe-inline'; connect-src " + site + "; worker-src blob: " + site} {
		if !strings.Contains(text, want) {
			t.Errorf("the embedding page does not say %q", want)
		}
	}
	b.shot("embedding-page")
	b.noErrors()
}
