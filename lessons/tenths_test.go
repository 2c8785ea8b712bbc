package lessons

import (
	"fmt"
	"strings"
	"testing"
)

// longTimeline is how many events make a widget's timeline long enough
// that a reader needs a caption or a mark in each tenth of it.
const longTimeline = 10_000

// TestLongTimelinesAreCaptionedInEveryTenth: in a lesson widget whose
// timeline runs past 10,000 events, every tenth of the timeline has a
// caption (where its line stands, or where its `#@when` finds) or a mark,
// so that a reader who scrubs or plays anywhere in it has words for what
// is on the screen. Both languages are checked; a translation keeps the
// English block's commands and directives, so its timeline and positions
// are the English block's.
func TestLongTimelinesAreCaptionedInEveryTenth(t *testing.T) {
	for _, p := range playedBlocks(t, withTranslations(t)) {
		l, b, ds := p.l, p.b, p.ds
		r := p.run(t)
		if r.total() <= longTimeline {
			continue
		}
		if r.err != nil {
			t.Errorf("%s: %v", l.File, r.err)
			continue
		}
		var covered [10]bool
		for _, d := range ds {
			var at int64
			switch {
			case d.Kind == "caption" && d.When != "":
				at = r.whens[d.When]
			case d.Kind == "caption" || d.Kind == "mark":
				at = r.at[d.After]
			default:
				continue
			}
			covered[min(9, at*10/r.total())] = true
		}
		var bare []string
		for i, c := range covered {
			if !c {
				bare = append(bare, fmt.Sprintf("events %d to %d", int64(i)*r.total()/10, int64(i+1)*r.total()/10))
			}
		}
		if len(bare) > 0 {
			t.Errorf("%s:%d: block %q runs %d events, with no %s or %s in %d of its tenths: %s", l.File, b.Line, b.Info.Title, r.total(), CaptionPrefix, MarkPrefix, len(bare), strings.Join(bare, ", "))
		}
	}
}
