package browser_test

import (
	"fmt"
	"strings"
	"testing"
)

// TestHomeWidgetOpensAtItsStart: the home page's widget is a newcomer's
// first look, so it opens at event 0 with a caption saying what Step will
// do, and each Step moves the story on: the captions follow one another
// to the urgent message leaving first, in English and in Chinese.
func TestHomeWidgetOpensAtItsStart(t *testing.T) {
	b := newBrowser(t)
	for _, page := range []struct {
		path  string
		first string // the caption it opens with
		last  string // the caption at the end
	}{
		{"/", "Nothing has happened yet", "urgent leaves first"},
		{"/zh/", "现在什么都还没发生", "urgent 先出队"},
	} {
		b.open(page.path)
		const w = "#home-scenario"
		type state struct {
			Pos     int64  `json:"pos"`
			End     int64  `json:"end"`
			Caption string `json:"caption"`
		}
		read := func() state {
			return evalJS[state](b, fmt.Sprintf(`(() => {
				const r = document.querySelector(%q).shadowRoot, tl = r.querySelector(".timeline");
				return {pos: tl.valueAsNumber, end: Number(tl.max), caption: r.querySelector(".caption").textContent};
			})()`, w))
		}
		s := read()
		if s.Pos != 0 || s.End == 0 {
			t.Fatalf("%s: the widget opens at event %d of %d, want 0", page.path, s.Pos, s.End)
		}
		if !strings.Contains(s.Caption, page.first) {
			t.Fatalf("%s: at event 0 the caption reads %q, want %q", page.path, s.Caption, page.first)
		}
		seen := []string{s.Caption}
		for s.Pos < s.End {
			evalJS[bool](b, in(w, "button.step")+".click(), true")
			next := read()
			if next.Pos <= s.Pos {
				t.Fatalf("%s: Step at event %d went to %d", page.path, s.Pos, next.Pos)
			}
			if next.Caption != seen[len(seen)-1] {
				seen = append(seen, next.Caption)
			}
			s = next
		}
		if len(seen) != 5 || !strings.Contains(seen[4], page.last) {
			t.Errorf("%s: stepping to the end showed %d captions, ending %q; want 5, ending with %q:\n%s", page.path, len(seen), seen[len(seen)-1], page.last, strings.Join(seen, "\n"))
		}
	}
	b.noErrors()
}
