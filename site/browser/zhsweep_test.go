package browser_test

import (
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
)

// zhSweep is JavaScript that installs window.zhSweep on a page: what a
// reader of a Chinese page meets, read from the page and from every
// widget's shadow root, and the runs of English in it.
//
// What is read: the visible text (elements with hidden, and closed
// <details> bodies, are left out until opened), the title, aria-label,
// placeholder, alt and aria-valuetext attributes, the explanations that
// aria-describedby points to, the comment lines of a scenario editor's
// script, and what the live regions (aria-live, role=status or alert)
// said since the page opened. What is not: <code>, <pre>, <kbd> and
// <samp> (commands, file names, RabbitMQ's output), an exercise's expect
// line and solution (commands), elements marked lang="en" (the English
// word the glossary gives beside its Chinese one), the client code quoted
// in a script's comments ("#   channel.basic_publish(...)"), and the title
// of an events list or console line, which keeps the engine's English line
// that the line says in Chinese.
//
// What counts as English: any phrase of the English catalog (two words or
// more, cut at its {parameters}) that the Chinese catalog does not also
// have, and any run of three English words in a row, after RabbitMQ's own
// texts are taken out: an AMQP error reply ("NOT_FOUND - no queue ..."),
// a policy RabbitMQ refuses ("Validation failed: ..."). The commands the
// console echoes are commands; a run of capitalised words is names.
const zhSweep = `(async () => {
	if (window.zhSweep) return true;
	const en = (await import("/widget/i18n-en.js")).default;
	const zh = (await import("/widget/i18n-zh.js")).default;
	const zhText = Object.values(zh).join("\n");
	const phrases = new Set();
	for (const [key, text] of Object.entries(en)) {
		if (key.startsWith("engine.") || key === "site.name") continue;
		for (let piece of text.replace(/<[^>]*>/g, " ").split(/\{\w+\}/)) {
			piece = piece.replace(/^[\s.,:;()]+|[\s.,:;()]+$/g, "").replace(/\s+/g, " ");
			if (piece.includes(" ") && piece.length >= 8 && !zhText.includes(piece)) phrases.add(piece);
		}
	}
	// the lines of the events list and the console keep the engine's
	// English line they translate in their title
	const original = ".events li, .log .out";
	const skip = "code, pre, kbd, samp, .goal-line, .solution, .cmdline, [lang^=en], script, style, template";
	const said = [];
	const live = "[aria-live], [role=status], [role=alert]";
	const watched = new WeakSet();
	const watch = (root) => {
		for (const el of root.querySelectorAll(live)) {
			if (watched.has(el) || el.matches("[role=log]")) continue;
			watched.add(el);
			new MutationObserver(() => { if (el.textContent.trim()) said.push({place: placeOf(el), text: el.textContent}); })
				.observe(el, {childList: true, characterData: true, subtree: true});
		}
	};
	const placeOf = (el) => {
		const parts = [];
		for (let n = el; n && n.nodeType === 1 && parts.length < 3; n = n.parentElement) {
			parts.unshift(n.tagName.toLowerCase() + (n.classList.length ? "." + [...n.classList].join(".") : ""));
		}
		return parts.join(" > ");
	};
	// pieces lists [place, text] of what a reader meets under root.
	const pieces = (root) => {
		const out = [];
		const walk = (n, place) => {
			if (n.nodeType === 3) {
				// a console line in the command language's output form
				// (key=value, or a credit link "from -> to n/m") is the
				// simulator's output, as rabbitmqctl's is RabbitMQ's
				if (n.parentElement && n.parentElement.matches(".log .out") && /\w=\S| -> \S/.test(n.data)) return;
				if (n.data.trim()) out.push([place, n.data]);
				return;
			}
			if (n.nodeType !== 1 && n.nodeType !== 11) return;
			if (n.nodeType === 1) {
				if (n.matches(skip) || n.hidden) return;
				if (n.tagName === "WARREN-SCENARIO") return; // read on its own
				place = placeOf(n);
				for (const a of ["title", "aria-label", "placeholder", "alt", "aria-valuetext"]) {
					if (a === "title" && n.matches(original)) continue;
					if (n.hasAttribute(a)) out.push([place + " [" + a + "]", n.getAttribute(a)]);
				}
				const described = n.getAttribute("aria-describedby");
				if (described) {
					const r = n.getRootNode();
					for (const id of described.split(/\s+/)) {
						const d = r.getElementById ? r.getElementById(id) : null;
						if (d) out.push([place + " [described by]", d.textContent]);
					}
				}
				if (n.tagName === "TEXTAREA") {
					for (const l of n.value.split("\n")) {
						if (/^#(?!@)(?! {3})/.test(l)) out.push([place + " [script comment]", l.slice(1)]);
					}
					return;
				}
				if (n.tagName === "DETAILS" && !n.open) {
					const s = n.querySelector(":scope > summary");
					if (s) walk(s, place);
					return;
				}
			}
			for (const c of n.childNodes) walk(c, place);
		};
		walk(root, "");
		return out;
	};
	const WORD = /^[(“"'‘]*[A-Za-z]+(?:'[a-z]+)?[)”"'’,.;:!?]*$/;
	// english lists the English a text holds.
	const english = (text) => {
		text = text.replace(/\b[A-Z][A-Z_]{2,} - [^\n]*/g, " ").replace(/\bValidation failed: [^\n]*/g, " ");
		const found = [];
		for (const p of phrases) if (text.includes(p)) found.push(p);
		let run = [];
		// a run of names (Netlify, Cloudflare Pages) is no sentence
		const end = () => { if (run.length >= 3 && !run.every((w) => /^\W*[A-Z]/.test(w))) found.push(run.join(" ")); run = []; };
		for (const tok of text.split(/\s+/)) {
			if (WORD.test(tok)) {
				run.push(tok);
				if (/[.;:!?]["”')]*$/.test(tok)) end();
			} else end();
		}
		end();
		return found;
	};
	window.zhSweep = {
		// watchAll starts listening to every live region of the page.
		watchAll() {
			watch(document);
			for (const w of document.querySelectorAll("warren-scenario")) watch(w.shadowRoot);
			return true;
		},
		// page is the English the page shows outside its widgets.
		page() {
			const out = [];
			for (const [place, text] of [["title", document.title], ...pieces(document.body)]) {
				for (const e of english(text)) out.push({place, english: e, text: text.trim().slice(0, 200)});
			}
			return out;
		},
		// widget is the English widget i shows, and what any live region
		// said since the last call.
		widget(i) {
			const w = document.querySelectorAll("warren-scenario")[i];
			watch(w.shadowRoot);
			const out = [];
			for (const [place, text] of pieces(w.shadowRoot)) {
				for (const e of english(text)) out.push({place, english: e, text: text.trim().slice(0, 200)});
			}
			for (const s of said.splice(0)) {
				for (const e of english(s.text)) out.push({place: s.place + " [announced]", english: e, text: s.text.trim().slice(0, 200)});
			}
			return out;
		},
	};
	return true;
})()`

// englishFound is one run of English a Chinese page shows.
type englishFound struct {
	Place   string `json:"place"`
	English string `json:"english"`
	Text    string `json:"text"`
}

// zhWidgetActions are what the sweep does with each widget of a page, in
// order, as a reader would: each is JavaScript run on the widget w (its
// shadow root r), and the widget is read after each.
var zhWidgetActions = []struct {
	name, js string
}{
	{"opened", ``},
	{"step", `r.querySelector("button.step").click()`},
	{"back", `r.querySelector("button.back").click()`},
	{"play", `r.querySelector("button.play").click(); await new Promise((s) => setTimeout(s, 300)); if (w.player.playing) r.querySelector("button.play").click()`},
	{"rates view", `r.querySelector("button.view-rates").click()`},
	{"files view", `r.querySelector("button.view-files").click(); await w.idle(); const b = r.querySelector("button.bytes-btn"); if (b) b.click()`},
	{"table view", `r.querySelector("button.view").click()`},
	{"diagram", `r.querySelector("button.view").click(); if (w.view !== "diagram") r.querySelector("button.view-" + w.view).click()`},
	{"next marker", `const m = r.querySelector("button.marker-next"); if (m && !r.querySelector(".markers").hidden) m.click()`},
	{"terms", `const t = r.querySelector("[data-term]"); if (t) t.focus()`},
	{"share", `r.querySelector("button.share").click()`},
	{"goal details", `for (const d of r.querySelectorAll("details")) d.open = true`},
	{"hints", `for (let i = 0; i < 3; i++) { const h = r.querySelector("button.show-hint"); if (h && !h.hidden) h.click(); }`},
	{"solution", `const s = r.querySelector("button.show-solution"); if (s && !s.hidden) s.click()`},
	{"a wrong answer", `await w.typed("list_queues name messages")`},
	{"a mistyped command", `await w.typed("basic.publsh key=q body=x")`},
	// one widget of a page only, the first of a short run: a reset runs
	// the whole scenario again, and says the same on every widget
	{"reset", `if (w === [...document.querySelectorAll("warren-scenario")].find((x) => x.end < 100000)) r.querySelector("button.reset").click()`},
}

// chineseSitePages are the paths of every Chinese page the site builds.
func chineseSitePages(t *testing.T) []string {
	siteURL(t)
	var paths []string
	err := filepath.WalkDir(filepath.Join(testSite.dir, "zh"), func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(p, ".html") {
			return err
		}
		rel, _ := filepath.Rel(testSite.dir, p)
		rel = "/" + filepath.ToSlash(rel)
		switch {
		case strings.HasSuffix(rel, "/index.html"):
			rel = strings.TrimSuffix(rel, "index.html")
		case strings.HasSuffix(rel, "/404.html"):
			rel = strings.TrimSuffix(rel, "404.html") + "no-such-page/"
		}
		paths = append(paths, rel)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	sort.Strings(paths)
	return paths
}

// TestChineseReaderMeetsNoEnglish walks every Chinese page of the site as
// a reader who knows no English: on each, every widget is run, stepped,
// played, shown in each of its views, its exercise opened (goals, hints,
// solution, a wrong answer) and reset, and the page and each widget are
// read after every step (text, titles, labels, placeholders, what the live
// regions say). It fails with every run of English found, by page and
// place, that is not RabbitMQ's own. ZHSWEEP_ONLY=part sweeps only the
// pages whose path holds part.
func TestChineseReaderMeetsNoEnglish(t *testing.T) {
	if testing.Short() {
		t.Skip("the whole Chinese site in Chromium")
	}
	t.Parallel() // beside TestEveryLessonPage
	b := newBrowserFor(t, 15*time.Minute)
	seen := map[string]bool{}
	var report []string
	add := func(path, where string, found []englishFound) {
		for _, f := range found {
			key := path + "\x00" + f.Place + "\x00" + f.English
			if seen[key] {
				continue
			}
			seen[key] = true
			report = append(report, fmt.Sprintf("%s %s: %s: %q in %q", path, where, f.Place, f.English, f.Text))
		}
	}
	for _, path := range chineseSitePages(t) {
		if only := os.Getenv("ZHSWEEP_ONLY"); only != "" && !strings.Contains(path, only) {
			continue
		}
		start := time.Now()
		b.open(path)
		if d := time.Since(start); d > 20*time.Second {
			t.Logf("%s: opening took %s", path, d.Round(time.Second))
		}
		evalJS[bool](b, zhSweep)
		evalJS[bool](b, `zhSweep.watchAll()`)
		add(path, "page", evalJS[[]englishFound](b, `zhSweep.page()`))
		n := evalJS[int](b, `document.querySelectorAll("warren-scenario").length`)
		for i := 0; i < n; i++ {
			w := fmt.Sprintf(`document.querySelectorAll("warren-scenario")[%d]`, i)
			title := evalJS[string](b, w+`.getAttribute("aria-label") || ""`)
			evalJS[bool](b, w+`.scrollIntoView(), true`)
			for _, a := range zhWidgetActions {
				began := time.Now()
				func() {
					defer b.sayIfStuck(fmt.Sprintf("%s widget %d: %s", path, i+1, a.name))()
					evalJS[bool](b, `(async () => { const w = `+w+`, r = w.shadowRoot; `+a.js+`; return true; })()`)
				}()
				if d := time.Since(began); d > 10*time.Second {
					t.Logf("%s widget %d %q: %s took %s", path, i+1, title, a.name, d.Round(time.Second))
				}
				add(path, fmt.Sprintf("widget %d %q after %s", i+1, title, a.name), evalJS[[]englishFound](b, fmt.Sprintf(`zhSweep.widget(%d)`, i)))
			}
		}
		add(path, "page", evalJS[[]englishFound](b, `zhSweep.page()`))
		t.Logf("%s: %d widgets in %s", path, n, time.Since(start).Round(time.Second))
	}
	// a damaged link says what is wrong with it in Chinese too
	for _, link := range []string{"/zh/playground/#w=not*base64", "/zh/playground/#w=AAAA", "/zh/playground/#w=q1YqLU4tUrJSKs9MTUsNAA&e=x&v=pie"} {
		b.open(link)
		evalJS[bool](b, zhSweep)
		add(link, "widget", evalJS[[]englishFound](b, `zhSweep.widget(0)`))
	}
	for _, r := range report {
		t.Error(r)
	}
	b.noErrors()
}

// sayIfStuck logs the state of every widget of the page if what is not
// done within 45 s (call the function it returns when it is done): a
// widget that never settles shows there which one and why.
func (b *browser) sayIfStuck(what string) func() {
	done := make(chan struct{})
	finished := make(chan struct{})
	go func() {
		defer close(finished)
		select {
		case <-done:
		case <-time.After(45 * time.Second):
			v, err := chromedp.Run(b.ctx, chromedp.Evaluate[string](`JSON.stringify([...document.querySelectorAll("warren-scenario")].map((w) => ({busy: w.busy, ran: w.ran, pos: w.pos, end: w.end, status: w.el.status.textContent, problem: w.el.problem.hidden ? "" : w.el.problem.textContent, lost: w.hadLost, retries: w.retries.length, playing: w.player.playing})))`))
			b.t.Logf("%s is not done after 45 s; the widgets: %s %v", what, v, err)
		}
	}()
	return func() {
		close(done)
		<-finished
	}
}
