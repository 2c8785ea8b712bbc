package lessons

import (
	"path"
	"regexp"
	"slices"
	"strconv"
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
// summary. A language names the section the same way in every lesson.
func TestEveryLessonEndsWithATakeaway(t *testing.T) {
	bullet := regexp.MustCompile(`(?m)^- \S`)
	named := map[string]Lesson{} // language folder -> the first lesson read
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
		if first, ok := named[path.Dir(l.File)]; !ok {
			named[path.Dir(l.File)] = l
		} else if h := headings(first); h[len(h)-1] != last {
			t.Errorf("%s: the summary is headed %q, where %s heads it %q: one heading in every lesson of a language", l.File, last, first.File, h[len(h)-1])
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

// TestEveryExerciseHasAHint: a reader who is stuck gets a hint before the
// solution, in every exercise of every language.
func TestEveryExerciseHasAHint(t *testing.T) {
	for _, l := range withTranslations(t) {
		blocks, err := l.Scenarios()
		if err != nil {
			t.Fatal(err)
		}
		for _, b := range blocks {
			if !b.Info.Exercise {
				continue
			}
			ex, err := b.Exercise()
			if err != nil {
				t.Fatalf("%s: %v", l.File, err)
			}
			if len(ex.Hints) == 0 {
				t.Errorf("%s:%d: %q has no %s line", l.File, b.Line, b.Info.Title, HintPrefix)
			}
		}
	}
}

// solutionShape is a solution with its names and numbers left out: each
// command with the keys of its arguments and its flags, so that two
// exercises solved by the same moves on differently named queues count as
// one.
func solutionShape(ex Exercise) string {
	var out []string
	for _, s := range ex.Solution {
		f := strings.Fields(s.Command)
		words := []string{f[0]}
		for _, a := range f[1:] {
			k, _, _ := strings.Cut(a, "=")
			words = append(words, k)
		}
		out = append(out, strings.Join(words, " "))
	}
	return strings.Join(out, "; ")
}

// TestExerciseSolutionsDiffer: no two exercises of the course are solved
// by the same commands, names and numbers aside: each asks the reader for
// something new, in every language.
func TestExerciseSolutionsDiffer(t *testing.T) {
	seen := map[string]string{} // language folder and shape -> exercise
	for _, l := range withTranslations(t) {
		dir := path.Dir(l.File)
		blocks, err := l.Scenarios()
		if err != nil {
			t.Fatal(err)
		}
		for _, b := range blocks {
			if !b.Info.Exercise {
				continue
			}
			ex, err := b.Exercise()
			if err != nil {
				t.Fatalf("%s: %v", l.File, err)
			}
			where := l.File + ":" + strconv.Itoa(b.Line) + " " + strconv.Quote(b.Info.Title)
			shape := solutionShape(ex)
			if prev, ok := seen[dir+"\n"+shape]; ok {
				t.Errorf("%s has the same solution as %s: %s", where, prev, shape)
			}
			seen[dir+"\n"+shape] = where
		}
	}
}

// TestWhenCaptionsLandInTheirStretch: a caption placed by a `#@when` line
// narrates from the first event at which its goal holds, after the
// commands before it; that event comes before the next caption or mark
// stands, so that the caption is in force during the stretch it describes
// and no other caption is left stale there.
func TestWhenCaptionsLandInTheirStretch(t *testing.T) {
	for _, p := range playedBlocks(t, withTranslations(t)) {
		l, s, ds := p.l, p.s, p.ds
		if !slices.ContainsFunc(ds, func(d Directive) bool { return d.Kind == "when" }) {
			continue
		}
		steps, err := s.Steps()
		if err != nil {
			t.Fatal(err)
		}
		sim, at := runSteps(t, l, steps)
		for i, d := range ds {
			if d.Kind != "when" {
				continue
			}
			n, found, err := sim.FirstEventWhere(d.Goal, at[d.After])
			if err != nil || !found {
				t.Errorf("%s:%d: %s %s never holds after the commands before it (%v)", l.File, d.Line, WhenPrefix, d.Text, err)
				continue
			}
			for _, next := range ds[i+1:] {
				if next.Kind == "when" || next.When != "" {
					continue
				}
				if n > at[next.After] {
					t.Errorf("%s:%d: %s %s holds first at event %d, after the caption or mark of line %d (event %d) has taken over", l.File, d.Line, WhenPrefix, d.Text, n, next.Line, at[next.After])
				}
				break
			}
		}
	}
}
