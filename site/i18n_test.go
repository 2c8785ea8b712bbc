package site

import (
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"sort"
	"strings"
	"testing"

	"golang.org/x/net/html"

	"warren/lessons"
)

// builtPages lists the HTML pages of a built site, relative to out, in
// English (outside zh/) or in lang.
func builtPages(t *testing.T, out, lang string) []string {
	t.Helper()
	var rels []string
	err := filepath.WalkDir(out, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(p, ".html") {
			return err
		}
		rel := filepath.ToSlash(strings.TrimPrefix(p, out+string(filepath.Separator)))
		pl, _ := stripLang("/" + rel)
		if pl == lang {
			rels = append(rels, rel)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	sort.Strings(rels)
	return rels
}

// pageOf is the address a built file is served at: "zh/lessons/x/index.html"
// is "/zh/lessons/x/".
func pageOf(rel string) string {
	return "/" + strings.TrimSuffix(rel, "index.html")
}

// TestEveryEnglishPageHasAChineseTwin: each page of the English site is
// at the same path under zh/, in Chinese (lang="zh-CN"), and the two link
// to each other, by hreflang and by the language switch.
func TestEveryEnglishPageHasAChineseTwin(t *testing.T) {
	out := buildSite(t)
	en := builtPages(t, out, langEN)
	if len(en) < 6 {
		t.Fatalf("only %d English pages: %q", len(en), en)
	}
	for _, rel := range en {
		twin := "zh/" + rel
		b, err := os.ReadFile(filepath.Join(out, filepath.FromSlash(twin)))
		if err != nil {
			t.Errorf("%s has no Chinese twin %s", rel, twin)
			continue
		}
		zh, enPage := string(b), readPage(t, out, rel)
		if !strings.Contains(zh, `<html lang="zh-CN"`) {
			t.Errorf("%s: not marked lang=\"zh-CN\"", twin)
		}
		if rel == "embed.html" {
			continue // the page of an iframe: no header, no alternates
		}
		path := pageOf(rel)
		for _, page := range []struct{ name, html, other, otherLang string }{
			{rel, enPage, "/zh" + path, "zh-CN"},
			{twin, zh, path, "en"},
		} {
			for _, want := range []string{
				`<link rel="alternate" hreflang="en" href="` + path + `">`,
				`<link rel="alternate" hreflang="zh-CN" href="/zh` + path + `">`,
				`<a href="` + page.other + `" hreflang="` + page.otherLang + `"`,
			} {
				if !strings.Contains(page.html, want) {
					t.Errorf("%s: no %s", page.name, want)
				}
			}
		}
	}
}

// TestNonLessonPagesHaveAChineseTwin is the part of the twin test that
// holds while lessons are being translated: every page but a lesson.
func TestNonLessonPagesHaveAChineseTwin(t *testing.T) {
	out := buildSite(t)
	for _, rel := range builtPages(t, out, langEN) {
		if strings.HasPrefix(rel, "lessons/") && rel != "lessons/index.html" {
			continue
		}
		if _, err := os.Stat(filepath.Join(out, "zh", filepath.FromSlash(rel))); err != nil {
			t.Errorf("%s has no Chinese twin", rel)
		}
	}
}

// visibleText is the text a reader meets on a page, with the words of its
// attributes a browser shows or speaks (title, aria-label, alt,
// placeholder, the description), but without code, scripts and the
// scripts of scenarios (commands are the same in every language), and
// without what is marked as another language (lang="en" on a link to a
// lesson not translated yet).
func visibleText(t *testing.T, page string) string {
	t.Helper()
	doc, err := html.Parse(strings.NewReader(page))
	if err != nil {
		t.Fatal(err)
	}
	var b strings.Builder
	var walk func(n *html.Node)
	walk = func(n *html.Node) {
		if n.Type == html.ElementNode {
			switch n.Data {
			case "code", "pre", "script", "style", "warren-scenario", "textarea":
				return
			}
			for _, a := range n.Attr {
				switch {
				case a.Key == "lang" && !strings.HasPrefix(a.Val, "zh"):
					return
				case a.Key == "title", a.Key == "aria-label", a.Key == "alt", a.Key == "placeholder",
					a.Key == "content" && n.Data == "meta" && attr(n, "name") == "description":
					b.WriteString(a.Val + "\n")
				}
			}
		}
		if n.Type == html.TextNode {
			b.WriteString(n.Data)
		}
		for c := n.FirstChild; c != nil; c = c.NextSibling {
			walk(c)
		}
	}
	walk(doc)
	return strings.Join(strings.Fields(b.String()), " ")
}

func attr(n *html.Node, key string) string {
	for _, a := range n.Attr {
		if a.Key == key {
			return a.Val
		}
	}
	return ""
}

// englishPhrases are the English catalog's texts as a reader would see
// them: markup removed, cut at their {parameters}, and only the pieces of
// two words or more (a lone "Next" may be a word of a Chinese lesson's
// prose about a button; a phrase may not).
func englishPhrases() map[string]string {
	tag := regexp.MustCompile(`<[^>]*>`)
	out := map[string]string{}
	for key, text := range catalogs[langEN] {
		if key == "site.name" || strings.HasPrefix(key, "site.tutorial.") {
			continue // names, the same in both languages
		}
		text = html.UnescapeString(tag.ReplaceAllString(text, " "))
		for _, piece := range placeholder.Split(text, -1) {
			piece = strings.Join(strings.Fields(strings.Trim(piece, " .,:;()")), " ")
			if strings.Count(piece, " ") >= 1 && len(piece) >= 8 {
				out[piece] = key
			}
		}
	}
	return out
}

// TestChinesePagesShowNoEnglishOfTheCatalog: no page under zh/ shows a
// phrase of the English catalog, in its text or in the attributes a
// reader meets.
func TestChinesePagesShowNoEnglishOfTheCatalog(t *testing.T) {
	out := buildSite(t)
	phrases := englishPhrases()
	zh := builtPages(t, out, langZH)
	if len(zh) < 6 {
		t.Fatalf("only %d Chinese pages: %q", len(zh), zh)
	}
	for _, rel := range zh {
		text := visibleText(t, readPage(t, out, rel))
		for phrase, key := range phrases {
			if strings.Contains(text, phrase) {
				t.Errorf("%s shows English %q (catalog key %s)", rel, phrase, key)
			}
		}
		if !regexp.MustCompile(`[\p{Han}]`).MatchString(text) {
			t.Errorf("%s has no Chinese at all", rel)
		}
	}
}

// TestPagesAskOnlyForKnownKeys: every key the templates and the
// generator ask the catalog for is in every language's catalog.
func TestPagesAskOnlyForKnownKeys(t *testing.T) {
	call := regexp.MustCompile(`\b(?:tr|trHTML)\([^,()]+, "([\w.-]+)"`)
	files, _ := filepath.Glob("*.templ")
	gofiles, _ := filepath.Glob("*.go")
	for _, f := range gofiles {
		if !strings.HasSuffix(f, "_templ.go") && !strings.HasSuffix(f, "_test.go") {
			files = append(files, f)
		}
	}
	asked := 0
	for _, f := range files {
		src, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		for _, m := range call.FindAllStringSubmatch(string(src), -1) {
			asked++
			for _, lang := range siteLangs {
				if _, ok := lookup(lang, m[1], 2, true); !ok {
					t.Errorf("%s asks for %s, which the %s catalog lacks", f, m[1], lang)
				}
			}
		}
	}
	if asked < 50 {
		t.Errorf("found only %d catalog keys asked for in the templates", asked)
	}
	for _, v := range prefixUsage {
		if _, ok := catalogs[langZH][v]; !ok {
			t.Errorf("prefixUsage %s is not in the zh catalog", v)
		}
	}
}

// TestLanguageHelpers: addresses in each language, and tr's parameters
// and plural forms.
func TestLanguageHelpers(t *testing.T) {
	for _, c := range []struct{ in, lang, path string }{
		{"/", langEN, "/"}, {"/zh/", langZH, "/"}, {"/zh", langZH, "/"},
		{"/zh/lessons/x/", langZH, "/lessons/x/"}, {"/zhx/", langEN, "/zhx/"}, {"/lessons/", langEN, "/lessons/"},
	} {
		if lang, path := stripLang(c.in); lang != c.lang || path != c.path {
			t.Errorf("stripLang(%q) = %q %q, want %q %q", c.in, lang, path, c.lang, c.path)
		}
	}
	if got := tr(langZH, "site.lesson.order", "order", "3"); got != "第 3 课" {
		t.Errorf("tr zh order: %q", got)
	}
	if got := tr(langEN, "goals.someMet", "met", 1, "n", 1); got != "1 of 1 goal met." {
		t.Errorf("tr en plural one: %q", got)
	}
	if got := tr(langEN, "goals.someMet", "met", 1, "n", 2); got != "1 of 2 goals met." {
		t.Errorf("tr en plural other: %q", got)
	}
	if got := tr(langZH, "no.such.key"); got != "no.such.key" {
		t.Errorf("a missing key: %q", got)
	}
	if !slices.Equal(lessons.Languages, siteLangs[1:]) {
		t.Errorf("the lessons are translated into %q, the site speaks %q", lessons.Languages, siteLangs)
	}
}

// TestHandlerAnswersInTheReadersLanguage: a missing page under /zh/ gets
// the Chinese 404 page, one elsewhere the English one.
func TestHandlerAnswersInTheReadersLanguage(t *testing.T) {
	out := buildSite(t)
	h := Handler(out)
	for target, want := range map[string]string{
		"/zh/no-such-page/": `<html lang="zh-CN"`,
		"/no-such-page/":    `<html lang="en"`,
	} {
		res := get(t, h, "GET", target)
		body, _ := io.ReadAll(res.Body)
		if res.StatusCode != 404 || !strings.Contains(string(body), want) {
			t.Errorf("%s: %d, without %s", target, res.StatusCode, want)
		}
	}
}

// TestChineseLessonsKeepTheSectionIDs: a Chinese lesson's sections have
// the English lesson's ids, in the same order, so that a link to a
// section (and the language switch, which keeps the #fragment) lands on
// the same section in both languages.
func TestChineseLessonsKeepTheSectionIDs(t *testing.T) {
	tl, err := lessons.In(langZH)
	if err != nil {
		t.Fatal(err)
	}
	en, err := lessons.All()
	if err != nil {
		t.Fatal(err)
	}
	bySlug := map[string]lessons.Lesson{}
	for _, l := range en {
		bySlug[l.Slug] = l
	}
	ids := func(l lessons.Lesson) []string {
		r, err := renderLesson(l)
		if err != nil {
			t.Fatal(err)
		}
		var out []string
		for _, e := range r.TOC {
			out = append(out, e.ID)
		}
		return out
	}
	for _, l := range tl {
		want, got := ids(bySlug[l.Slug]), ids(l)
		if !slices.Equal(want, got) {
			t.Errorf("%s: section ids %q, the English lesson's %q", l.File, got, want)
		}
	}
}

// TestChineseProseJoinsItsLines: a line break inside a paragraph of a
// Chinese lesson is no space between two Chinese characters.
func TestChineseProseJoinsItsLines(t *testing.T) {
	l, err := lessons.Parse("zh/x.md", []byte("---\ntitle: 标题\nsummary: 摘要\norder: 1\nversion: \"3.10\"\n---\n\n一个节点就是一个虚拟机，\n也就是一个操作系统进程。\n"))
	if err != nil {
		t.Fatal(err)
	}
	r, err := renderLesson(l)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(r.HTML, "虚拟机，也就是") {
		t.Errorf("the lines of a Chinese paragraph do not join: %s", r.HTML)
	}
}

// TestChineseGlossaryHasEveryTerm: every term of the glossary is in the
// Chinese glossary, in Chinese, and the Chinese glossary names no term
// the glossary lacks.
func TestChineseGlossaryHasEveryTerm(t *testing.T) {
	han := regexp.MustCompile(`\p{Han}`)
	ids := map[string]bool{}
	for _, g := range glossary {
		ids[g.ID] = true
		z, ok := glossaryZH[g.ID]
		if !ok {
			t.Errorf("the Chinese glossary has no %q (%s): add it to glossary_zh_terms.go", g.ID, g.Term)
			continue
		}
		if !han.MatchString(z.Def) {
			t.Errorf("%s: the Chinese definition is not Chinese: %q", g.ID, z.Def)
		}
	}
	for id := range glossaryZH {
		if !ids[id] {
			t.Errorf("the Chinese glossary has %q, which the glossary has not", id)
		}
	}
}
