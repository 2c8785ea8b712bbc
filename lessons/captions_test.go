package lessons

import "testing"

// TestEveryBlockHasCaptions checks that every scenario block, exercises
// included, narrates its steps: it has a `#@caption` line, and one is in
// force at the moment its widget opens, so the reader never meets a
// widget with nothing beside the diagram.
func TestEveryBlockHasCaptions(t *testing.T) {
	all, err := All()
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range playedBlocks(t, all) {
		l, b, s, ds := p.l, p.b, p.s, p.ds
		open, err := s.OpenAfter()
		if err != nil {
			t.Fatalf("%s: %v", l.File, err)
		}
		captions, shown := 0, false
		for _, d := range ds {
			if d.Kind == "caption" {
				captions++
				shown = shown || d.After <= open
			}
		}
		switch {
		case captions == 0:
			t.Errorf("%s:%d: block %q has no %s line", l.File, b.Line, b.Info.Title, CaptionPrefix)
		case !shown:
			t.Errorf("%s:%d: block %q opens (open=%s) before its first caption, so it opens with none", l.File, b.Line, b.Info.Title, openName(b))
		}
	}
}

// TestEveryCaptionIsShown: no two captions of a block stand at the same
// event (after the same events have run, or found by `#@when` lines at
// the same event), in any language. The widget shows the last caption
// standing at or before the event on screen, so the first of two at one
// event is never seen, and in guided mode the reader would stop at a
// caption that is not there. A command that runs no event (a query, a
// refused command, a blocked ack, restart) moves no caption past the one
// before it.
func TestEveryCaptionIsShown(t *testing.T) {
	for _, p := range playedBlocks(t, withTranslations(t)) {
		l, b, ds := p.l, p.b, p.ds
		r := p.run(t)
		if r.err != nil {
			t.Errorf("%s: %v", l.File, r.err)
			continue
		}
		at, whens := r.at, r.whens
		standing := map[int64]Directive{} // event -> the caption there
		for _, d := range ds {
			if d.Kind != "caption" {
				continue
			}
			n := at[d.After]
			if d.When != "" {
				w, ok := whens[d.When]
				if !ok {
					continue
				}
				n = w
			}
			if prev, ok := standing[n]; ok {
				t.Errorf("%s:%d: block %q: this caption is never seen, for the caption of line %d stands at the same event (%d) and takes over:\n\t%s\n\t%s", l.File, prev.Line, b.Info.Title, d.Line, n, prev.Text, d.Text)
			}
			standing[n] = d
		}
	}
}
