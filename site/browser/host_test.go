package browser_test

import (
	"testing"
)

// hostLook is what a host page's widget draws with: the text sizes of its
// events list, console and buttons, and its colours.
type hostLook struct {
	Events, Console, Button, Title string
	Scheme, Background, Text       string
}

func (b *browser) hostLook(widget string) hostLook {
	b.t.Helper()
	return evalJS[hostLook](b, `(() => {
		const w = document.querySelector(`+"`"+widget+"`"+`), r = w.shadowRoot, cs = (sel) => getComputedStyle(r.querySelector(sel));
		return { Events: cs(".events li, .events").fontSize, Console: cs(".log").fontSize, Button: cs("button.step").fontSize,
			Title: cs("h2, .title").fontSize, Scheme: w.dataset.scheme || "", Background: getComputedStyle(w).backgroundColor, Text: cs("button.step").color };
	})()`)
}

// TestHostFontSizeAndTheme: a host page with html{font-size:62.5%} and a
// dark-mode toggle (VitePress' html.dark, Docusaurus' data-theme): the
// widget's text sizes are those of a plain page, its colours follow the
// toggle both ways, and theme="light" keeps a widget light whatever the
// page says.
func TestHostFontSizeAndTheme(t *testing.T) {
	b := newBrowser(t)
	site := siteURL(t)
	host := hostPages(t, site, map[string]string{"/host.html": `
<warren-scenario id="auto" title="Follows the page">queue.declare queue=q
basic.publish key=q body=m{i} count=3</warren-scenario>
<warren-scenario id="light" title="Always light" theme="light">queue.declare queue=q</warren-scenario>`})
	b.open(host + "/host.html")
	plain := b.hostLook("#auto")
	if plain.Scheme != "light" {
		t.Errorf("on a plain light page the widget is %q", plain.Scheme)
	}

	evalJS[bool](b, `(document.documentElement.style.fontSize = "62.5%", true)`)
	small := b.hostLook("#auto")
	if small.Events != plain.Events || small.Console != plain.Console || small.Button != plain.Button || small.Title != plain.Title {
		t.Errorf("with html{font-size:62.5%%} the widget's text sizes are %+v, on a plain page %+v", small, plain)
	}

	for _, c := range []struct{ toggle, want string }{
		{`document.documentElement.classList.add("dark")`, "dark"},
		{`document.documentElement.classList.remove("dark")`, "light"},
		{`document.documentElement.dataset.theme = "dark"`, "dark"},
		{`document.documentElement.dataset.theme = "light"`, "light"},
		{`(delete document.documentElement.dataset.theme, document.documentElement.style.colorScheme = "dark")`, "dark"},
	} {
		evalJS[bool](b, `(`+c.toggle+`, new Promise((done) => requestAnimationFrame(() => done(true))))`)
		got := b.hostLook("#auto")
		if got.Scheme != c.want {
			t.Errorf("after %s the widget is %q, want %s", c.toggle, got.Scheme, c.want)
		}
		if (got.Background == plain.Background) != (c.want == "light") {
			t.Errorf("after %s the widget's background is %s (light: %s)", c.toggle, got.Background, plain.Background)
		}
		if c.want == "dark" {
			b.shot("host-dark")
			b.shotElement("#auto", "host-dark-widget")
		}
		if l := b.hostLook("#light"); l.Scheme != "light" || l.Background != plain.Background {
			t.Errorf("after %s the theme=light widget is %+v", c.toggle, l)
		}
	}
	b.noErrors()
}
