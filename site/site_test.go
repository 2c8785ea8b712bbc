package site

import (
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"testing"

	"golang.org/x/net/html"

	"warren/lessons"
)

// built is the site's pages (no wasm), built once for every test of this
// package, which only read them.
var built struct {
	once sync.Once
	dir  string
	err  error
}

// buildSite returns the folder of the pages built once per test binary.
func buildSite(t *testing.T) string {
	t.Helper()
	built.once.Do(func() {
		if built.dir, built.err = os.MkdirTemp("", "warren-pages-"); built.err == nil {
			built.err = Build(built.dir, BuildOptions{SkipWasm: true})
		}
	})
	if built.err != nil {
		t.Fatal(built.err)
	}
	return built.dir
}

func TestMain(m *testing.M) {
	code := m.Run()
	if built.dir != "" {
		os.RemoveAll(built.dir)
	}
	os.Exit(code)
}

func readPage(t *testing.T, out, rel string) string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(out, filepath.FromSlash(rel)))
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// pages lists every HTML page Build writes.
func pages(t *testing.T) []string {
	t.Helper()
	all, err := lessons.All()
	if err != nil {
		t.Fatal(err)
	}
	p := []string{"index.html", "lessons/index.html", "course/index.html", "glossary/index.html", "playground/index.html", "embedding/index.html", "embed.html", "404.html"}
	for _, l := range all {
		p = append(p, "lessons/"+l.Slug+"/index.html")
	}
	return p
}

func TestBuildWritesEveryPage(t *testing.T) {
	out := buildSite(t)
	for _, rel := range append(pages(t), "site.css", "embed.js", "favicon.svg") {
		if _, err := os.Stat(filepath.Join(out, rel)); err != nil {
			t.Errorf("missing %s", rel)
		}
		if _, err := os.Stat(filepath.Join(out, rel+".gz")); err != nil {
			t.Errorf("missing %s.gz", rel)
		}
	}
	for _, rel := range []string{"warren.wasm", "inspect.wasm", "wasm_exec.js"} {
		if _, err := os.Stat(filepath.Join(out, rel)); err == nil {
			t.Errorf("%s written although SkipWasm was set", rel)
		}
	}
}

func TestEveryPageLoadsTheWidget(t *testing.T) {
	out := buildSite(t)
	for _, rel := range pages(t) {
		page := readPage(t, out, rel)
		for _, want := range []string{
			`<html lang="en"`,
			`<script src="/widget.js" defer></script>`,
			`<link rel="stylesheet" href="/widget.css">`,
			`<link rel="stylesheet" href="/site.css">`,
			`<meta name="viewport" content="width=device-width, initial-scale=1">`,
		} {
			if !strings.Contains(page, want) {
				t.Errorf("%s: no %s", rel, want)
			}
		}
		if rel != "embed.html" && !strings.Contains(page, `<a class="skip-link" href="#main">`) {
			t.Errorf("%s: no skip link", rel)
		}
		if !strings.Contains(page, `id="main"`) {
			t.Errorf("%s: nothing for the skip link to reach", rel)
		}
	}
}

func TestPagesAreBalanced(t *testing.T) {
	out := buildSite(t)
	for _, rel := range pages(t) {
		if err := checkBalanced(readPage(t, out, rel)); err != nil {
			t.Errorf("%s: %v", rel, err)
		}
	}
}

func TestLessonPages(t *testing.T) {
	out := buildSite(t)
	all, err := lessons.All()
	if err != nil {
		t.Fatal(err)
	}
	heading := regexp.MustCompile(`(?m)^(#{2,4}) (.+)$`)
	for _, l := range all {
		rel := "lessons/" + l.Slug + "/index.html"
		page := readPage(t, out, rel)
		if !strings.Contains(page, "<h1>"+html.EscapeString(l.Title)+"</h1>") {
			t.Errorf("%s: no <h1> with the title %q", rel, l.Title)
		}
		if !strings.Contains(page, "RabbitMQ "+l.Version) {
			t.Errorf("%s: does not say it shows RabbitMQ %s", rel, l.Version)
		}
		// Every Markdown heading outside code has an id and a "#" link to it.
		for _, m := range heading.FindAllStringSubmatch(withoutFences(l.Body), -1) {
			id := slugOf(m[2])
			level := len(m[1])
			open := "<h" + string(rune('0'+level)) + ` id="` + id + `">`
			link := `<a class="anchor" href="#` + id + `"`
			if !strings.Contains(page, open) || !strings.Contains(page, link) {
				t.Errorf("%s: heading %q has no %s with a %s...>#</a>", rel, m[2], open, link)
			}
			if level == 2 && !strings.Contains(page, `<a href="#`+id+`">`) {
				t.Errorf("%s: heading %q is not in the table of contents", rel, m[2])
			}
		}
		blocks, err := l.Scenarios()
		if err != nil {
			t.Fatal(err)
		}
		elems := scenarioElements(t, page)
		if len(elems) != len(blocks) {
			t.Fatalf("%s: %d <warren-scenario> elements for %d scenario blocks", rel, len(elems), len(blocks))
		}
		for i, e := range elems {
			b := blocks[i]
			if b.Info.Exercise {
				// the widget runs the setup; goals and solution are attributes
				ex, err := b.Exercise()
				if err != nil {
					t.Fatal(err)
				}
				var goals, solution []string
				for _, g := range ex.Goals {
					goals = append(goals, g.Command)
				}
				for _, c := range ex.Solution {
					solution = append(solution, c.Command)
				}
				if e.attrs["goals"] != strings.Join(goals, "\n") || e.attrs["solution"] != strings.Join(solution, "\n") {
					t.Errorf("%s: scenario %d: goals=%q solution=%q, want %q and %q", rel, i+1, e.attrs["goals"], e.attrs["solution"], goals, solution)
				}
				b = ex.Setup
			} else if _, ok := e.attrs["goals"]; ok {
				t.Errorf("%s: scenario %d is not an exercise but has goals", rel, i+1)
			}
			if e.text != b.Script {
				t.Errorf("%s: scenario %d: the element's text is not the script\n got: %q\nwant: %q", rel, i+1, e.text, b.Script)
			}
			if e.attrs["title"] != b.Info.Title {
				t.Errorf("%s: scenario %d: title=%q, want %q", rel, i+1, e.attrs["title"], b.Info.Title)
			}
			if e.attrs["version"] != l.Version {
				t.Errorf("%s: scenario %d: version=%q, want %q", rel, i+1, e.attrs["version"], l.Version)
			}
			if _, ok := e.attrs["error-ok"]; ok != b.Info.ErrorOK {
				t.Errorf("%s: scenario %d: error-ok is %v, want %v", rel, i+1, ok, b.Info.ErrorOK)
			}
			if !strings.Contains(e.inner, `<pre class="warren-script"`) || !strings.Contains(e.inner, `<span class="w-cmd">`) {
				t.Errorf("%s: scenario %d: no highlighted <pre> fallback: %.200s", rel, i+1, e.inner)
			}
		}
	}
	// Quoted output in a scenario holds ">", which must arrive escaped.
	page := readPage(t, out, "lessons/one-queue-one-process/index.html")
	if !strings.Contains(page, `<span class="w-out">#&gt; credit reader c1 -&gt; channel c1.1 0/400 blocked</span>`) {
		t.Errorf("the quoted credit line is not escaped and highlighted as output")
	}
}

func TestInternalLinksResolve(t *testing.T) {
	out := buildSite(t)
	attr := regexp.MustCompile(`(?:href|src|action)="(/[^"]*)"`)
	// The widget's files come from the widget's own work; the bridge is
	// skipped here.
	optional := map[string]bool{"/widget.js": true, "/widget.css": true}
	for _, rel := range pages(t) {
		page := readPage(t, out, rel)
		for _, m := range attr.FindAllStringSubmatch(page, -1) {
			target := html.UnescapeString(m[1])
			target, _, _ = strings.Cut(target, "#")
			target, _, _ = strings.Cut(target, "?")
			if optional[target] || target == "" {
				continue
			}
			p := filepath.Join(out, filepath.FromSlash(strings.TrimPrefix(target, "/")))
			if strings.HasSuffix(target, "/") {
				p = filepath.Join(p, "index.html")
			}
			if _, err := os.Stat(p); err != nil {
				t.Errorf("%s: link to %s, which the site does not have", rel, m[1])
			}
		}
	}
}

func TestPlaygroundAndEmbedPages(t *testing.T) {
	out := buildSite(t)
	for rel, want := range map[string]string{
		"playground/index.html": starterScript,
		"embed.html":            embedStarterScript,
	} {
		elems := scenarioElements(t, readPage(t, out, rel))
		if len(elems) != 1 {
			t.Fatalf("%s: %d widgets, want 1", rel, len(elems))
		}
		if elems[0].attrs["layout"] != "full" || elems[0].text != want {
			t.Errorf("%s: widget %v with text %q", rel, elems[0].attrs, elems[0].text)
		}
	}
	embed := readPage(t, out, "embed.html")
	script := strings.Index(embed, `<script src="/embed.js"></script>`)
	if script < 0 || script < strings.Index(embed, "</warren-scenario>") {
		t.Errorf("embed.html must load embed.js, without defer, after the element")
	}
	if strings.Contains(embed, "site-header") {
		t.Errorf("embed.html should be the widget alone, without the site's header")
	}
}

// element is one <warren-scenario> found in a page.
type element struct {
	attrs map[string]string
	text  string // textContent
	inner string // the HTML between the tags
}

// scenarioElements parses page and returns its <warren-scenario> elements.
func scenarioElements(t *testing.T, page string) []element {
	t.Helper()
	var out []element
	z := html.NewTokenizer(strings.NewReader(page))
	depth := 0
	var cur *element
	var inner strings.Builder
	for {
		tt := z.Next()
		if tt == html.ErrorToken {
			break
		}
		tok := z.Token()
		if tok.Data == "warren-scenario" && tt == html.StartTagToken {
			cur = &element{attrs: map[string]string{}}
			for _, a := range tok.Attr {
				cur.attrs[a.Key] = a.Val
			}
			depth = 1
			inner.Reset()
			continue
		}
		if cur == nil {
			continue
		}
		if tok.Data == "warren-scenario" && tt == html.EndTagToken {
			depth--
			cur.inner = inner.String()
			out = append(out, *cur)
			cur = nil
			continue
		}
		inner.WriteString(tok.String())
		if tt == html.TextToken {
			cur.text += tok.Data
		}
	}
	return out
}

// voidElements have no end tag.
var voidElements = map[string]bool{
	"area": true, "base": true, "br": true, "col": true, "embed": true, "hr": true, "img": true,
	"input": true, "link": true, "meta": true, "source": true, "track": true, "wbr": true,
}

// checkBalanced reports the first start tag without its end tag, or end
// tag without its start tag.
func checkBalanced(page string) error {
	z := html.NewTokenizer(strings.NewReader(page))
	var stack []string
	for {
		tt := z.Next()
		switch tt {
		case html.ErrorToken:
			if len(stack) > 0 {
				return fmt.Errorf("unclosed <%s>", strings.Join(stack, "> <"))
			}
			return nil
		case html.StartTagToken:
			name, _ := z.TagName()
			if !voidElements[string(name)] {
				stack = append(stack, string(name))
			}
		case html.EndTagToken:
			name, _ := z.TagName()
			if len(stack) == 0 || stack[len(stack)-1] != string(name) {
				return fmt.Errorf("</%s> does not close the open element (open: %v)", name, stack)
			}
			stack = stack[:len(stack)-1]
		}
	}
}

// withoutFences drops fenced code blocks from Markdown.
func withoutFences(md string) string {
	var b strings.Builder
	in := false
	for _, line := range strings.Split(md, "\n") {
		if strings.HasPrefix(line, "```") || strings.HasPrefix(line, "~~~") {
			in = !in
			continue
		}
		if !in {
			b.WriteString(line + "\n")
		}
	}
	return b.String()
}

// slugOf is goldmark's automatic heading id for plain ASCII text.
func slugOf(s string) string {
	var b strings.Builder
	dash := false
	for _, r := range strings.ToLower(s) {
		switch {
		case r >= 'a' && r <= 'z' || r >= '0' && r <= '9':
			b.WriteRune(r)
			dash = false
		case r == ' ' || r == '-':
			if !dash {
				b.WriteByte('-')
				dash = true
			}
		}
	}
	return strings.Trim(b.String(), "-")
}
