package browser_test

import (
	"fmt"
	"sort"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"

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
	s.ExecLine("set version=" + l.Version)
	at := []int64{s.Runtime().Events()}
	for _, st := range steps {
		s.ExecLine(st.Command)
		at = append(at, s.Runtime().Events())
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

// TestLessonWidgetsOpenWhereTheProseIs opens every lesson and checks that
// each widget opens at the event its block names (open=, worked out on the
// engine in Go), shows the caption in force there, and that stepping on
// shows and announces the next caption.
func TestLessonWidgetsOpenWhereTheProseIs(t *testing.T) {
	b := newBrowser(t)
	all, err := lessons.All()
	if err != nil {
		t.Fatal(err)
	}
	type widget struct {
		Pos     int64  `json:"pos"`
		End     int64  `json:"end"`
		Caption string `json:"caption"`
		Shown   bool   `json:"shown"`
		Live    string `json:"live"`
	}
	read := func(sel string) widget {
		return evalJS[widget](b, fmt.Sprintf(`(() => {
			const r = document.querySelector(%q).shadowRoot, c = r.querySelector(".caption");
			return {pos: r.querySelector(".timeline").valueAsNumber, end: Number(r.querySelector(".timeline").max),
				caption: c.textContent, shown: !c.hidden && c.offsetHeight > 0,
				live: r.querySelector("[data-role=announce]").textContent};
		})()`, sel))
	}
	checked, narrated := 0, 0
	for _, l := range all {
		b.open("/lessons/" + l.Slug + "/")
		blocks, err := l.Scenarios()
		if err != nil {
			t.Fatal(err)
		}
		for i, blk := range blocks {
			sel := fmt.Sprintf("#scenario-%d", i+1)
			m := blockMoments(t, l, blk)
			got := read(sel)
			where := fmt.Sprintf("%s:%d (%q, open=%s)", l.File, blk.Line, blk.Info.Title, blk.Info.Open)
			if got.Pos != m.open {
				t.Errorf("%s: the widget opens at event %d of %d, want %d", where, got.Pos, got.End, m.open)
			}
			if want := m.captionAt(m.open); got.Caption != want || got.Shown != (want != "") {
				t.Errorf("%s: the caption shown is %q (visible %v), want %q", where, got.Caption, got.Shown, want)
			}
			checked++
			// the next caption after the opening moment, reached with the
			// keyboard, is shown and spoken
			for _, c := range m.captions {
				if c.at <= m.open || c.at-m.open > 40 || c.text == m.captionAt(m.open) {
					continue
				}
				evalJS[bool](b, in(sel, ".stage")+".focus(), true")
				for range c.at - m.open {
					if err := chromedp.Do(b.ctx, chromedp.KeyEvent(kb.ArrowRight)); err != nil {
						t.Fatal(err)
					}
				}
				evalJS[bool](b, `new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(() => r(true))))`)
				got := read(sel)
				if got.Pos != c.at || got.Caption != c.text || !strings.Contains(got.Live, c.text) {
					t.Errorf("%s: stepped to event %d (want %d): caption %q, live region %q; want the caption %q in both", where, got.Pos, c.at, got.Caption, got.Live, c.text)
				}
				narrated++
				if l.Order == 1 && i == 0 {
					b.shotElement(sel, "caption-one-message-desktop")
				}
				break
			}
		}
	}
	if checked < 20 || narrated < 3 {
		t.Errorf("checked %d widgets and %d captions reached by stepping: the lessons have more", checked, narrated)
	}
	b.noErrors()
}
