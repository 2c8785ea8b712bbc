package site

import (
	"testing"

	"warren/lessons"
)

// TestTableOfContentsHasTheTypographersCharacters: a section heading with
// an apostrophe or quotes reads as written in the "On this page" list,
// not as the entity the typographer made (&rsquo;).
func TestTableOfContentsHasTheTypographersCharacters(t *testing.T) {
	l, err := lessons.Parse("x.md", []byte("---\ntitle: T\nsummary: S\norder: 1\nversion: \"3.10\"\n---\n\n## The message store's link\n\nText.\n\n## A \"quoted\" word -- and more\n"))
	if err != nil {
		t.Fatal(err)
	}
	r, err := renderLesson(l)
	if err != nil {
		t.Fatal(err)
	}
	if len(r.TOC) != 2 || r.TOC[0].Text != "The message store’s link" || r.TOC[1].Text != "A “quoted” word – and more" {
		t.Errorf("the table of contents is %q", r.TOC)
	}
}
