package lessons

import (
	"regexp"
	"strings"
	"testing"
)

// TakeawayID is the section id of the summary that ends every lesson.
const takeawayID = "what-to-take-away"

// headings lists a lesson's section headings (## and deeper) outside its
// fenced blocks, in order.
func headings(l Lesson) []string {
	var out []string
	for _, line := range strings.Split(withoutFences(l.Body), "\n") {
		if strings.HasPrefix(line, "## ") {
			out = append(out, line)
		}
	}
	return out
}

// TestEveryLessonEndsWithATakeaway: the last section of every lesson, in
// every language, is "What to take away" (in a translation, the section
// with the id what-to-take-away), a list of at least two points, after
// the exercises, so that a reader who finishes a lesson leaves with its
// summary.
func TestEveryLessonEndsWithATakeaway(t *testing.T) {
	bullet := regexp.MustCompile(`(?m)^- \S`)
	for _, l := range withTranslations(t) {
		hs := headings(l)
		if len(hs) == 0 {
			t.Errorf("%s has no sections", l.File)
			continue
		}
		last := hs[len(hs)-1]
		english := !strings.Contains(l.File, "/")
		if english && last != "## What to take away" || !english && !strings.HasSuffix(last, "{#"+takeawayID+"}") {
			t.Errorf("%s: the last section is %q; a lesson ends with its %q section", l.File, last, takeawayID)
			continue
		}
		rest := l.Body[strings.LastIndex(l.Body, last):]
		if strings.Contains(rest, "```") {
			t.Errorf("%s: the %q section holds a block; it is a summary in words", l.File, takeawayID)
		}
		if n := len(bullet.FindAllString(rest, -1)); n < 2 {
			t.Errorf("%s: the %q section has %d points, want at least 2", l.File, takeawayID, n)
		}
	}
}
