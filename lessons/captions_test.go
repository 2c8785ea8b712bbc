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
	for _, l := range all {
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
}
