package lessons

import (
	"fmt"
	"regexp"
	"strings"
	"sync"
	"testing"
)

// translated returns the lessons of every language the course is
// translated into, each with the English lesson it translates.
func translated(t *testing.T) (pairs [][2]Lesson) {
	t.Helper()
	en, err := All()
	if err != nil {
		t.Fatal(err)
	}
	bySlug := map[string]Lesson{}
	for _, l := range en {
		bySlug[l.Slug] = l
	}
	for _, lang := range Languages {
		tl, err := In(lang)
		if err != nil {
			t.Fatal(err)
		}
		for _, l := range tl {
			e, ok := bySlug[l.Slug]
			if !ok {
				t.Errorf("%s translates no lesson: there is no %s.md", l.File, l.Slug)
				continue
			}
			pairs = append(pairs, [2]Lesson{e, l})
		}
	}
	return pairs
}

// withTranslations is every lesson, in English and in every language it
// is translated into.
func withTranslations(t *testing.T) []Lesson {
	t.Helper()
	all, err := All()
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range translated(t) {
		all = append(all, p[1])
	}
	return all
}

// played is what block b of lesson l runs in its widget: the block, or
// an exercise's set-up.
func played(t *testing.T, l Lesson, b Scenario) Scenario {
	t.Helper()
	if !b.Info.Exercise {
		return b
	}
	ex, err := b.Exercise()
	if err != nil {
		t.Fatalf("%s: %v", l.File, err)
	}
	return ex.Setup
}

// prose says whether a line of a scenario block is prose, which a
// translation says in its own words: a caption, a hint, a question's ask,
// choices and why, or a comment.
// Everything else (commands, quoted output, marks, goals, solutions,
// other directives) must be the same in every language.
func prose(line string) (kind string, ok bool) {
	t := strings.TrimSpace(line)
	switch {
	case strings.HasPrefix(t, "#@caption"):
		return "#@caption", true
	case strings.HasPrefix(t, HintPrefix):
		return HintPrefix, true
	}
	for _, p := range QuestionProse {
		if strings.HasPrefix(t, p+" ") || t == p {
			return p, true
		}
	}
	switch {
	case strings.HasPrefix(t, ExpectPrefix), strings.HasPrefix(t, SolutionPrefix), strings.HasPrefix(t, "#@"):
		return "", false
	case strings.HasPrefix(t, "#"):
		return "#", true
	}
	return "", false
}

// shape is a block as a translation must keep it: its lines with prose
// replaced by its kind.
func shape(b Scenario) []string {
	var out []string
	for _, line := range strings.Split(b.Script, "\n") {
		if kind, ok := prose(line); ok {
			out = append(out, kind)
		} else {
			out = append(out, strings.TrimSpace(line))
		}
	}
	return out
}

// englishLink is a link to an English page of the site.
var englishLink = regexp.MustCompile(`\]\(/(?:lessons|glossary|course|playground|embedding)/[^)]*\)`)

var sectionID = regexp.MustCompile(`(?m)^(#{2,4}) .*?(?:\{#([a-z0-9-]+)\})?$`)

// TestTranslationsKeepTheLesson: a translated lesson has its English
// lesson's order and version, a section id for each of its sections, and
// the same scenario blocks: attributes, commands, quoted output, marks,
// goals and solutions alike, with a caption, hint or comment where the
// English has one. Prose of its own is in the translation's language.
func TestTranslationsKeepTheLesson(t *testing.T) {
	pairs := translated(t)
	if len(pairs) == 0 {
		t.Fatal("no lesson is translated")
	}
	han := regexp.MustCompile(`\p{Han}`)
	for _, p := range pairs {
		en, tl := p[0], p[1]
		if tl.Order != en.Order || tl.Version != en.Version {
			t.Errorf("%s: order %d version %s, but %s has order %d version %s", tl.File, tl.Order, tl.Version, en.File, en.Order, en.Version)
		}
		if m := englishLink.FindString(withoutFences(tl.Body)); m != "" {
			t.Errorf("%s links %s: a translation links the pages of its own language (/%s/...)", tl.File, m, strings.SplitN(tl.File, "/", 2)[0])
		}
		if !han.MatchString(tl.Title) || !han.MatchString(tl.Summary) {
			t.Errorf("%s: the title or summary is not translated: %q, %q", tl.File, tl.Title, tl.Summary)
		}
		enSec := sectionID.FindAllStringSubmatch(withoutFences(en.Body), -1)
		tlSec := sectionID.FindAllStringSubmatch(withoutFences(tl.Body), -1)
		if len(enSec) != len(tlSec) {
			t.Errorf("%s has %d sections, %s has %d", tl.File, len(tlSec), en.File, len(enSec))
		}
		for i, s := range tlSec {
			if s[2] == "" {
				t.Errorf("%s: the section %q has no {#id}: give it the English section's, so that links to it work in both languages", tl.File, strings.TrimSpace(s[0]))
			} else if i < len(enSec) && len(enSec[i][1]) != len(s[1]) {
				t.Errorf("%s: the section %q is level %d, the English one level %d", tl.File, s[0], len(s[1]), len(enSec[i][1]))
			}
		}
		eb, err := en.Scenarios()
		if err != nil {
			t.Fatal(err)
		}
		tb, err := tl.Scenarios()
		if err != nil {
			t.Fatal(err)
		}
		if len(eb) != len(tb) {
			t.Errorf("%s has %d scenario blocks, %s has %d", tl.File, len(tb), en.File, len(eb))
			continue
		}
		for i := range eb {
			ei, ti := eb[i].Info, tb[i].Info
			ei.Title, ti.Title = "", ""
			if ei != ti {
				t.Errorf("%s:%d: the block's attributes %+v differ from %s:%d's %+v", tl.File, tb[i].Line, tb[i].Info, en.File, eb[i].Line, eb[i].Info)
			}
			if (eb[i].Info.Title == "") != (tb[i].Info.Title == "") {
				t.Errorf("%s:%d: title=%q, the English block's title=%q", tl.File, tb[i].Line, tb[i].Info.Title, eb[i].Info.Title)
			}
			es, ts := shape(eb[i]), shape(tb[i])
			if strings.Join(es, "\n") != strings.Join(ts, "\n") {
				t.Errorf("%s:%d: the block is not %s:%d's:\n%s", tl.File, tb[i].Line, en.File, eb[i].Line, diffLines(es, ts))
			}
			for _, line := range strings.Split(tb[i].Script, "\n") {
				if kind, ok := prose(line); ok && kind != "#" {
					if words := strings.TrimSpace(strings.TrimPrefix(strings.TrimSpace(line), kind)); !han.MatchString(words) {
						t.Errorf("%s:%d: %s is not translated: %q", tl.File, tb[i].Line, kind, words)
					}
				}
			}
		}
	}
}

// diffLines shows where two line lists part.
func diffLines(want, got []string) string {
	for i := 0; i < len(want) || i < len(got); i++ {
		w, g := "(nothing)", "(nothing)"
		if i < len(want) {
			w = want[i]
		}
		if i < len(got) {
			g = got[i]
		}
		if w != g {
			return fmt.Sprintf("\tline %d of the block: English has %q, the translation %q", i+1, w, g)
		}
	}
	return ""
}

// withoutFences is the Markdown without its fenced code blocks.
func withoutFences(body string) string {
	var out []string
	in := false
	for _, line := range strings.Split(body, "\n") {
		if strings.HasPrefix(strings.TrimSpace(line), "```") {
			in = !in
			continue
		}
		if !in {
			out = append(out, line)
		}
	}
	return strings.Join(out, "\n")
}

// playedBlock is a block of a lesson as its widget plays it (played),
// with its directives.
type playedBlock struct {
	l  Lesson
	b  Scenario // the block as written
	s  Scenario // what its widget plays
	ds []Directive
}

// playedBlocks lists every block of the lessons ls, played, with its
// directives.
func playedBlocks(t *testing.T, ls []Lesson) []playedBlock {
	t.Helper()
	var out []playedBlock
	for _, l := range ls {
		blocks, err := l.Scenarios()
		if err != nil {
			t.Fatal(err)
		}
		for _, b := range blocks {
			s := played(t, l, b)
			ds, err := s.Directives()
			if err != nil {
				t.Fatalf("%s: %v", l.File, err)
			}
			out = append(out, playedBlock{l, b, s, ds})
		}
	}
	return out
}

// withDraws is ps with, after each block whose numbers vary (#@vary),
// its other draws, each played as the widget plays it when a reader asks
// for other numbers.
func withDraws(t *testing.T, ps []playedBlock) []playedBlock {
	t.Helper()
	var out []playedBlock
	for _, p := range ps {
		out = append(out, p)
		for k := 1; k < p.b.Variants(); k++ {
			v := p.b.Variant(k)
			s := played(t, p.l, v)
			ds, err := s.Directives()
			if err != nil {
				t.Fatalf("%s: draw %d: %v", p.l.File, k, err)
			}
			out = append(out, playedBlock{p.l, v, s, ds})
		}
	}
	return out
}

// blockRun is what running a played block gives: the events that have
// run after each of its lines (at; the last is the whole timeline) and
// the event each `#@when` finds (whens), or why one finds none (err).
type blockRun struct {
	at    []int64
	whens map[string]int64
	err   error
}

func (r blockRun) total() int64 { return r.at[len(r.at)-1] }

// blockRuns keeps each block's run by its shape: a translation keeps the
// English block's commands and directives, so it runs as the English one
// does, and the tests that look at timelines run each block once.
var blockRuns = struct {
	sync.Mutex
	m map[string]blockRun
}{m: map[string]blockRun{}}

// run is p's blockRun.
func (p playedBlock) run(t *testing.T) blockRun {
	t.Helper()
	key := p.l.Version + "\n" + strings.Join(shape(p.s), "\n")
	blockRuns.Lock()
	r, ok := blockRuns.m[key]
	blockRuns.Unlock()
	if ok {
		return r
	}
	steps, err := p.s.Steps()
	if err != nil {
		t.Fatal(err)
	}
	sim, at := runSteps(t, p.l, steps)
	r = blockRun{at: at, whens: map[string]int64{}}
	for _, d := range p.ds {
		if d.Kind != "when" {
			continue
		}
		n, found, err := sim.FirstEventWhere(d.Goal, at[d.After])
		if err != nil || !found {
			r.err = fmt.Errorf("line %d: %s %s never holds (%v)", d.Line, WhenPrefix, d.Text, err)
			break
		}
		r.whens[d.Text] = n
	}
	blockRuns.Lock()
	blockRuns.m[key] = r
	blockRuns.Unlock()
	return r
}
