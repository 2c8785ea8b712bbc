package browser_test

import (
	"sort"
	"testing"

	"warren/engine"
	"warren/lessons"
)

// moments is what a lesson block's widget should show, worked out on the
// engine in Go: the event it opens at, and each caption's event.
type moments struct {
	open     int64
	captions []struct {
		at   int64
		text string
	}
}

func blockMoments(t *testing.T, l lessons.Lesson, b lessons.Scenario) moments {
	t.Helper()
	if b.Info.Exercise {
		ex, err := b.Exercise()
		if err != nil {
			t.Fatal(err)
		}
		b = ex.Setup
	}
	steps, err := b.Steps()
	if err != nil {
		t.Fatal(err)
	}
	s := engine.New(engine.Options{Record: true})
	s.Run("set version="+l.Version, engine.RunOptions{})
	at := []int64{s.EventCount()}
	for _, st := range steps {
		s.Run(st.Command, engine.RunOptions{})
		at = append(at, s.EventCount())
	}
	k, err := b.OpenAfter()
	if err != nil {
		t.Fatal(err)
	}
	m := moments{open: at[k]}
	ds, err := b.Directives()
	if err != nil {
		t.Fatal(err)
	}
	whens := map[string]int64{} // a #@when's event
	for _, d := range ds {
		if d.Kind == "when" {
			n, found, err := s.FirstEventWhere(d.Goal, at[d.After])
			if err != nil || !found {
				t.Fatalf("%s:%d: %q never holds (%v)", l.File, d.Line, d.Goal, err)
			}
			whens[d.Text] = n
		}
	}
	if _, ok := b.OpenWhen(); ok {
		m.open = whens[b.Info.Open]
	}
	for _, d := range ds {
		if d.Kind == "caption" {
			c := at[d.After]
			if d.When != "" {
				c = whens[d.When]
			}
			m.captions = append(m.captions, struct {
				at   int64
				text string
			}{c, d.Text})
		}
	}
	sort.SliceStable(m.captions, func(i, j int) bool { return m.captions[i].at < m.captions[j].at })
	return m
}

// captionAt is the caption in force at event pos.
func (m moments) captionAt(pos int64) string {
	text := ""
	for _, c := range m.captions {
		if c.at <= pos {
			text = c.text
		}
	}
	return text
}
