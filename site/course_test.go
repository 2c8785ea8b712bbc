package site

import (
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"warren/lessons"
)

// TestCoursePageListsEveryLessonInOrder checks that the course page links
// every lesson, in course order, each once, with the lessons its front
// matter requires named under it as links, and the counts of its exercises
// and questions that the progress script fills in.
func TestCoursePageListsEveryLessonInOrder(t *testing.T) {
	all, err := lessons.All()
	if err != nil {
		t.Fatal(err)
	}
	page := readPage(t, buildSite(t), "course/index.html")
	items := regexp.MustCompile(`(?s)<li class="card" data-href="([^"]+)" data-exercises="(\d+)" data-questions="(\d+)">(.*?)</li>`).FindAllStringSubmatch(page, -1)
	if len(items) != len(all) {
		t.Fatalf("the course page lists %d lessons, want %d", len(items), len(all))
	}
	for i, l := range all {
		it := items[i]
		if it[1] != lessonPath(l.Slug) {
			t.Errorf("lesson %d on the course page is %s, want %s (%q)", i+1, it[1], lessonPath(l.Slug), l.Title)
			continue
		}
		if want := linkTo(l).Exercises; it[2] != strconv.Itoa(want) {
			t.Errorf("%s: data-exercises=%s, want %d", l.Slug, it[2], want)
		}
		if want := linkTo(l).Questions; it[3] != strconv.Itoa(want) {
			t.Errorf("%s: data-questions=%s, want %d", l.Slug, it[3], want)
		}
		if !strings.Contains(it[4], `href="`+lessonPath(l.Slug)+`"`) || !strings.Contains(it[4], l.Title) {
			t.Errorf("%s: the course page's entry does not link the lesson by its title", l.Slug)
		}
		for _, r := range l.Requires {
			if !strings.Contains(it[4], `href="`+lessonPath(r)+`"`) {
				t.Errorf("%s: the course page does not name %s to read first", l.Slug, r)
			}
		}
		if len(l.Requires) == 0 && !strings.Contains(it[4], "Needs nothing before it") {
			t.Errorf("%s: the course page does not say it needs nothing first", l.Slug)
		}
	}
	if !strings.Contains(page, `href="/glossary/"`) {
		t.Error("the course page does not link the glossary")
	}
}

// TestGlossaryLinksResolve checks that every link from a lesson to the
// glossary names an anchor the glossary page has, that every lesson links
// to it at least once, and that the glossary's own entries are sound.
func TestGlossaryLinksResolve(t *testing.T) {
	all, err := lessons.All()
	if err != nil {
		t.Fatal(err)
	}
	page := readPage(t, buildSite(t), "glossary/index.html")
	ids := map[string]bool{}
	for _, m := range regexp.MustCompile(`<div class="glossary-entry" id="([^"]+)"`).FindAllStringSubmatch(page, -1) {
		if ids[m[1]] {
			t.Errorf("the glossary has the anchor %q twice", m[1])
		}
		ids[m[1]] = true
	}
	if len(ids) != len(glossary) {
		t.Errorf("the glossary page has %d anchors for %d terms", len(ids), len(glossary))
	}
	slugs := map[string]bool{}
	for _, l := range all {
		slugs[l.Slug] = true
	}
	for _, g := range glossary {
		if g.Lesson != "" && !slugs[g.Lesson] {
			t.Errorf("glossary %q: names the lesson %q, which does not exist", g.ID, g.Lesson)
		}
		if g.Def == "" || !strings.HasSuffix(g.Def, ".") {
			t.Errorf("glossary %q: the definition must be sentences", g.ID)
		}
	}
	for _, l := range all {
		links := glossaryLinks(l)
		if len(links) == 0 {
			t.Errorf("%s: links to no term of the glossary", l.File)
		}
		for _, id := range links {
			if !ids[id] {
				t.Errorf("%s: links to /glossary/#%s, which the glossary does not have", l.File, id)
			}
		}
		// a term is linked where it first appears, once
		seen := map[string]bool{}
		for _, id := range links {
			if seen[id] {
				t.Errorf("%s: links to /glossary/#%s more than once", l.File, id)
			}
			seen[id] = true
		}
	}
	if !slices.IsSortedFunc(sortedGlossary(), func(a, b glossaryTerm) int { return strings.Compare(strings.ToLower(a.Term), strings.ToLower(b.Term)) }) {
		t.Error("the glossary page is not in alphabetical order")
	}
}

// TestLessonPagesNameWhatToReadFirst checks that a lesson's page links the
// lessons its front matter requires, under its title.
func TestLessonPagesNameWhatToReadFirst(t *testing.T) {
	all, err := lessons.All()
	if err != nil {
		t.Fatal(err)
	}
	out := buildSite(t)
	req := regexp.MustCompile(`(?s)<p class="requires" data-role="requires">(.*?)</p>`)
	for _, l := range all {
		page := readPage(t, out, "lessons/"+l.Slug+"/index.html")
		m := req.FindStringSubmatch(page)
		if len(l.Requires) == 0 {
			if m != nil {
				t.Errorf("%s: names lessons to read first, though it requires none", l.Slug)
			}
			continue
		}
		if m == nil {
			t.Errorf("%s: the page does not name the lessons to read first", l.Slug)
			continue
		}
		for _, r := range l.Requires {
			if !strings.Contains(m[1], `href="`+lessonPath(r)+`"`) {
				t.Errorf("%s: the page does not link %s to read first", l.Slug, r)
			}
		}
	}
}
