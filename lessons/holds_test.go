package lessons

import (
	"fmt"
	"regexp"
	"slices"
	"sort"
	"strings"
	"testing"
)

// stretchPoints is how many events a claim is checked at between where
// its caption lands and the last event of its stretch.
const stretchPoints = 8

// claimCheck is one event at which one `#@holds` line of a block is
// checked.
type claimCheck struct {
	event int64
	holds int // the holds line's index among the block's directives
}

// stretches gives each caption of a block, by its index among ds, the
// first and last events it is in force at: from where it lands (after
// the commands before it, or where its `#@when` finds) until the event
// before the next caption lands, or the end of the timeline (total).
// The widget shows the last caption standing at or before the event on
// screen, so the captions are taken in the order they land.
func stretches(ds []Directive, r blockRun) map[int][2]int64 {
	type landing struct {
		i  int
		at int64
	}
	var ls []landing
	for i, d := range ds {
		if d.Kind != "caption" {
			continue
		}
		at := r.at[d.After]
		if d.When != "" {
			at = r.whens[d.When]
		}
		ls = append(ls, landing{i, at})
	}
	sort.SliceStable(ls, func(a, b int) bool { return ls[a].at < ls[b].at })
	out := map[int][2]int64{}
	for k, l := range ls {
		last := r.total()
		for _, next := range ls[k+1:] {
			if next.at > l.at {
				last = next.at - 1
				break
			}
		}
		out[l.i] = [2]int64{l.at, last}
	}
	return out
}

// claimChecks lists where each claim of a block is checked, in the order
// of the timeline: a claim on the caption's landing there, any other at
// the landing, the stretch's last event and up to stretchPoints events
// evenly between (at the landing only when landingOnly).
func claimChecks(ds []Directive, r blockRun, landingOnly bool) []claimCheck {
	st := stretches(ds, r)
	var out []claimCheck
	caption := -1
	for i, d := range ds {
		switch d.Kind {
		case "caption":
			caption = i
			continue
		case "holds":
		default:
			continue
		}
		first, last := st[caption][0], st[caption][1]
		events := []int64{first}
		if !d.AtLanding && !landingOnly {
			for k := int64(1); k <= stretchPoints; k++ {
				events = append(events, first+(last-first)*k/(stretchPoints+1))
			}
			events = append(events, last)
		}
		slices.Sort(events)
		for _, e := range slices.Compact(events) {
			out = append(out, claimCheck{e, i})
		}
	}
	sort.SliceStable(out, func(a, b int) bool { return out[a].event < out[b].event })
	return out
}

// claimMiss is a claim found not to hold at an event.
type claimMiss struct {
	claimCheck
	found string
}

// TestCaptionsHoldTheirClaims: every `#@holds` claim of a caption holds
// where the caption lands and, unless it claims that moment only
// (at=landing), at the last event of the caption's stretch and at up to
// eight events evenly between, in every block of every lesson in every
// language, so that a figure a caption quotes is what the diagram shows
// while the caption is on the screen. The block is run once and walked
// forward through its timeline (a long block keeps no checkpoints, so a
// seek back replays it from the start). With -short, only the landings
// are checked.
func TestCaptionsHoldTheirClaims(t *testing.T) {
	claims := 0
	// what checking a block's claims found, by the block's shape (as
	// blockRuns keeps its run): a translation keeps the English block's
	// commands and directives, so its claims are checked at the same
	// events and found the same
	checks := map[string][]claimCheck{}
	claimRuns := map[string][]claimMiss{}
	// a block whose numbers vary (#@vary) has its claims checked at every
	// draw: its captions say the numbers of each
	for _, p := range withDraws(t, playedBlocks(t, withTranslations(t))) {
		l, b, ds := p.l, p.b, p.ds
		if !slices.ContainsFunc(ds, func(d Directive) bool { return d.Kind == "holds" }) {
			continue
		}
		r := p.run(t)
		if r.err != nil {
			t.Errorf("%s: %v", l.File, r.err)
			continue
		}
		key := l.Version + "\n" + strings.Join(shape(p.s), "\n")
		misses, ok := claimRuns[key]
		if !ok {
			checks[key] = claimChecks(ds, r, testing.Short())
			misses = checkClaims(t, p, r, checks[key])
			claimRuns[key] = misses
		}
		st := stretches(ds, r)
		caption := map[int]int{} // holds -> its caption
		c := -1
		for i, d := range ds {
			switch d.Kind {
			case "caption":
				c = i
			case "holds":
				claims++
				caption[i] = c
			}
		}
		checked := map[int]int{} // holds -> events checked
		for _, ch := range checks[key] {
			checked[ch.holds]++
		}
		reported := map[int]bool{}
		for _, m := range misses {
			if reported[m.holds] {
				continue
			}
			reported[m.holds] = true
			failed := 0
			for _, o := range misses {
				if o.holds == m.holds {
					failed++
				}
			}
			d := ds[m.holds]
			s := st[caption[m.holds]]
			kind := fmt.Sprintf("in force from event %d to %d", s[0], s[1])
			if d.AtLanding {
				kind = fmt.Sprintf("lands at event %d; the claim is %s", s[0], HoldsAtLanding)
			}
			t.Errorf("%s:%d: block %q: caption %q (%s):\n\tclaim %s fails at %d of the %d events checked, first at event %d: %s",
				l.File, d.Line, b.Info.Title, d.Text, kind, strings.TrimPrefix(d.Goal, "expect "), failed, checked[m.holds], m.event, m.found)
		}
	}
	if claims == 0 {
		t.Fatalf("no caption carries a %s claim", HoldsPrefix)
	}
}

// checkClaims runs block p and checks its claims at the events checks
// name, in order, walking forward through the timeline once.
func checkClaims(t *testing.T, p playedBlock, r blockRun, checks []claimCheck) []claimMiss {
	t.Helper()
	steps, err := p.s.Steps()
	if err != nil {
		t.Fatal(err)
	}
	sim, at := runSteps(t, p.l, steps)
	if at[len(at)-1] != r.total() {
		t.Fatalf("%s:%d: block %q ran %d events, and %d before", p.l.File, p.b.Line, p.b.Info.Title, at[len(at)-1], r.total())
	}
	var misses []claimMiss
	pos := int64(-1)
	for _, c := range checks {
		if c.event != pos {
			if err := sim.SeekEvent(c.event); err != nil {
				t.Fatalf("%s:%d: block %q: seek to event %d: %v", p.l.File, p.b.Line, p.b.Info.Title, c.event, err)
			}
			pos = c.event
		}
		d := p.ds[c.holds]
		g, err := sim.Expect(d.Goal)
		switch {
		case err != nil:
			misses = append(misses, claimMiss{c, err.Error()})
		case !g.Met:
			misses = append(misses, claimMiss{c, g.Text()})
		}
	}
	return misses
}

// TestHoldsDirective: a `#@holds` line claims for the caption right
// before it (or for the caption of the holds line before it), lands
// where that caption lands, and says whether it claims the landing only.
func TestHoldsDirective(t *testing.T) {
	b := Scenario{Line: 10, Script: "queue.declare queue=q\n" +
		"#@when full queue=q messages=2\n" +
		"#@caption Two in q.\n" +
		"#@holds queue=q messages=2\n" +
		"#@holds at=landing queue=q consumers=0\n" +
		"basic.publish key=q count=2\n" +
		"#@caption Later."}
	ds, err := b.Directives()
	if err != nil {
		t.Fatal(err)
	}
	want := []Directive{
		{Line: 14, Kind: "holds", Text: "Two in q.", Goal: "expect queue=q messages=2", When: "full", After: 1},
		{Line: 15, Kind: "holds", Text: "Two in q.", Goal: "expect queue=q consumers=0", When: "full", After: 1, AtLanding: true},
	}
	if len(ds) != 5 || ds[2] != want[0] || ds[3] != want[1] {
		t.Fatalf("directives %+v, want the holds lines %+v", ds, want)
	}
	for script, want := range map[string]string{
		"#@holds queue=q messages=1":                         "line 11: #@holds claims what a caption says: it stands right after a #@caption line",
		"#@caption A.\n\n#@holds queue=q messages=1":         "line 13: #@holds claims what a caption says",
		"#@caption A.\nrun\n#@holds queue=q messages=1":      "line 13: #@holds claims what a caption says",
		"#@caption A.\n#@mark m\n#@holds queue=q messages=1": "line 13: #@holds claims what a caption says",
		"#@caption A.\n#@holds":                              "line 12: #@holds needs a goal",
		"#@caption A.\n#@holds at=landing":                   "line 12: #@holds needs a goal",
	} {
		_, err := Scenario{Line: 10, Script: script}.Directives()
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%q: error %v, want %q", script, err, want)
		}
	}
}

// figure matches a word of a caption that is a number: 7, 2,590, 99.8,
// −200 or 45%, once the punctuation around it is cut off.
var figure = regexp.MustCompile(`^[−+-]?\d{1,3}(,\d{3})+$|^[−+-]?\d+(\.\d+)?%?$`)

// version matches a RabbitMQ release line, which names a version of the
// broker, not a figure of its state.
var version = regexp.MustCompile(`^3\.\d+$`)

// figures lists the numbers a caption quotes: its words that are numbers,
// not parts of names (c1, c1.1, 0.rdq, task-0, tag=1) nor versions (3.10,
// or a queue's index version: version 2).
func figures(caption string) []string {
	var out []string
	prev := ""
	for _, w := range strings.Fields(caption) {
		w = strings.Trim(w, "()[]{}.,:;!?\"'“”‘’…")
		if figure.MatchString(w) && !version.MatchString(w) && !strings.EqualFold(prev, "version") {
			out = append(out, w)
		}
		prev = w
	}
	return out
}

// unclaimed lists the captions the rule of TestCaptionFiguresAreClaimed
// catches wrongly: their numbers are not figures of the simulated state.
var unclaimed = map[string]string{
	"Four publishers submit 10,000 publishes each to one queue, on eight cores.":                     "10,000 is what each publisher sends; the publishes wait in the sockets, which no goal reads",
	"The queue is busy all the time on one scheduler: 99.8% of one core, which is 6.2% of the node.": "no goal reads a scheduler's load; the block quotes show cpu's line with these figures",
	"Four queues, each bound with weight 1: each has an equal share of the hash space.":              "1 is the bindings' weight, an argument of the commands",
	"The sixth crash within 10 s: the supervisor gives up and the queue has no process.":             "10 s is the supervisor's window, a constant of RabbitMQ; the block quotes show supervisors",
	"The declaration is in the reader's socket; each link between nodes takes 2 ms.":                 "2 ms is the link delay the cluster command sets",
	"One disc node and two RAM nodes, 2 ms apart; the declaration is in the reader's socket.":        "2 ms is the link delay the cluster command sets",
	"The channel waits 4 ms, a round trip to the other nodes, before the writer sends declare-ok.":   "4 ms is the virtual time the block quotes from step's trace (t=4.049ms); no goal reads the clock",
	"The same 4 ms round trip as with three disc nodes: the RAM nodes are part of the transaction.":  "4 ms is the virtual time the block quotes from step's trace (t=4.049ms); no goal reads the clock",
}

// TestCaptionFiguresAreClaimed: a caption that quotes a number (a word
// that is a number, not part of a name like c1 or 0.rdq, nor a RabbitMQ
// version) carries at least one `#@holds` claim, so that the tests check
// the figures it quotes against the node. A translation keeps the English
// block's claims (TestTranslationsKeepTheLesson), so the English captions
// are the ones read.
func TestCaptionFiguresAreClaimed(t *testing.T) {
	all, err := All()
	if err != nil {
		t.Fatal(err)
	}
	quoting, claimed := 0, 0
	used := map[string]bool{}
	for _, p := range playedBlocks(t, all) {
		for i, d := range p.ds {
			if d.Kind != "caption" {
				continue
			}
			nums := figures(d.Text)
			if len(nums) == 0 {
				continue
			}
			quoting++
			if i+1 < len(p.ds) && p.ds[i+1].Kind == "holds" {
				claimed++
				continue
			}
			if why, ok := unclaimed[d.Text]; ok {
				t.Logf("%s:%d: unclaimed: %s", p.l.File, d.Line, why)
				used[d.Text] = true
				continue
			}
			t.Errorf("%s:%d: block %q: the caption quotes %s and carries no %s claim:\n\t%s", p.l.File, d.Line, p.b.Info.Title, strings.Join(nums, ", "), HoldsPrefix, d.Text)
		}
	}
	for text := range unclaimed {
		if !used[text] {
			t.Errorf("unclaimed lists a caption that no block has without a claim, or that quotes no figure: %q", text)
		}
	}
	t.Logf("%d captions quote figures, %d of them carry claims", quoting, claimed)
}

// TestFigures: the rule reads a number as a figure unless it is part of a
// name or a version.
func TestFigures(t *testing.T) {
	for caption, want := range map[string]string{
		"2,590: the queue has granted c1.1 credit back.":              "2,590",
		"the channels at −200, 99.8% of one core, 5189 bytes.":        "−200 99.8% 5189",
		"tag=1 acks task-0 alone; 0.rdq and 1.rdq hold c1's.":         "",
		"On 3.13 a version 2 queue keeps a .qs file, version 1 none.": "",
		"Batches 3 and 4 (20,000 in all).":                            "3 4 20,000",
	} {
		if got := strings.Join(figures(caption), " "); got != want {
			t.Errorf("figures(%q) = %q, want %q", caption, got, want)
		}
	}
}
