package lessons

import (
	"fmt"
	"strings"
)

// The moment a widget opens at, and what its script says along the way.
//
// A scenario block's open= attribute names where its widget opens: start
// (before the first event), end (after the last command, the default), or
// a mark that a `#@mark NAME` line of the script sets where it stands, or
// the name of a `#@when NAME GOAL` line: the first event, from where the
// line stands on, at which GOAL (what follows `expect` in an exercise's
// goal) holds; a caption right after it, with no command between, narrates
// from that event. A `#@caption TEXT` line narrates from where it stands: the widget shows
// the text beside the diagram once playback reaches that moment, until
// the next caption.
//
// A `#@holds GOAL` line right after a caption (or after another holds
// line of it) is a claim of the caption's: GOAL, an expect goal as a
// `#@when` writes it, holds at every event of the caption's stretch, from
// where it lands until the next caption lands (the end of the timeline
// for the last), so that a figure the caption quotes is on the screen
// whenever the caption is. `#@holds at=landing GOAL` claims only the
// moment the caption lands, for words that say what has just happened
// there.

// Directive prefixes of a lesson's scenario script. The engine reads
// them as comments; the widget reads them as the moments they name.
const (
	MarkPrefix    = "#@mark"
	CaptionPrefix = "#@caption"
	WhenPrefix    = "#@when"
	HoldsPrefix   = "#@holds"
)

// HoldsAtLanding is the word of a `#@holds` line that claims only the
// moment its caption lands.
const HoldsAtLanding = "at=landing"

// Open moments other than a mark's name.
const (
	OpenStart = "start"
	OpenEnd   = "end"
)

// Directive is one `#@mark`, `#@when`, `#@caption` or `#@holds` line of a
// block (or a question's line, read by Questions).
type Directive struct {
	// Line is the line of the lesson file the directive is on.
	Line int
	// Kind is "mark", "caption", "when" or "holds".
	Kind string
	// Text is the mark's or the when's name, or the caption's words (for
	// a holds line, its caption's).
	Text string
	// Goal is a when's condition or a holds line's claim as an expect
	// line ("expect credit=...").
	Goal string
	// When is, for a caption that follows a `#@when` line with no command
	// between, that when's name: the caption narrates from the event the
	// when finds, not from After. A holds line has its caption's.
	When string
	// AtLanding marks a holds line that claims only the moment its
	// caption lands (HoldsAtLanding), not its whole stretch.
	AtLanding bool
	// After is how many of the block's commands come before it: the
	// directive stands at the moment those commands have run.
	After int
}

// Directives lists the block's `#@` lines in order. A mark's name is one
// word of lowercase letters, digits and dashes, used once; a caption has
// words; any other `#@` line is an error, since the widget would refuse
// it.
func (s Scenario) Directives() ([]Directive, error) {
	var out []Directive
	commands := 0
	seen := map[string]int{}
	pendingWhen := ""
	var caption *Directive // the caption a holds line now would claim for (a copy)
	if _, err := s.Varies(); err != nil {
		return nil, err
	}
	for i, line := range strings.Split(s.filled(0), "\n") {
		t := strings.TrimSpace(line)
		num := s.Line + 1 + i
		switch {
		case strings.HasPrefix(t, VaryPrefix+" "):
			continue // the block's numbers that can vary (Varies)
		case strings.HasPrefix(t, "#@"):
			word, rest, _ := strings.Cut(t, " ")
			rest = strings.TrimSpace(rest)
			d := Directive{Line: num, Text: rest, After: commands}
			switch word {
			case MarkPrefix:
				d.Kind = "mark"
				if !validSlug(rest) {
					return nil, fmt.Errorf("line %d: %s needs a name of lowercase letters, digits and dashes, got %q", num, MarkPrefix, rest)
				}
				if prev, ok := seen[rest]; ok {
					return nil, fmt.Errorf("line %d: mark %q is already set on line %d", num, rest, prev)
				}
				seen[rest] = num
			case WhenPrefix:
				d.Kind = "when"
				name, goal, _ := strings.Cut(rest, " ")
				goal = strings.TrimSpace(goal)
				if !validSlug(name) || goal == "" {
					return nil, fmt.Errorf("line %d: %s needs a name of lowercase letters, digits and dashes and a goal, as in %s credit-out credit=\"reader c1 -> channel c1.1\" left=0; got %q", num, WhenPrefix, WhenPrefix, rest)
				}
				if prev, ok := seen[name]; ok {
					return nil, fmt.Errorf("line %d: %q is already a moment of line %d", num, name, prev)
				}
				seen[name] = num
				d.Text, d.Goal = name, "expect "+goal
				pendingWhen = name
			case CaptionPrefix:
				d.Kind = "caption"
				if rest == "" {
					return nil, fmt.Errorf("line %d: %s needs words after it", num, CaptionPrefix)
				}
				d.When = pendingWhen
			case HoldsPrefix:
				d.Kind = "holds"
				goal, landing := strings.CutPrefix(rest, HoldsAtLanding+" ")
				goal = strings.TrimSpace(goal)
				switch {
				case caption == nil:
					return nil, fmt.Errorf("line %d: %s claims what a caption says: it stands right after a %s line or another %s line", num, HoldsPrefix, CaptionPrefix, HoldsPrefix)
				case goal == "" || goal == HoldsAtLanding:
					return nil, fmt.Errorf("line %d: %s needs a goal, as in %s queue=q messages=7 or %s %s credit=\"reader c1 -> channel c1.1\" left=208", num, HoldsPrefix, HoldsPrefix, HoldsPrefix, HoldsAtLanding)
				}
				d.Text, d.Goal, d.When, d.After, d.AtLanding = caption.Text, "expect "+goal, caption.When, caption.After, landing
			default:
				if isQuestionWord(word) {
					// read by Questions
					d.Kind = strings.TrimPrefix(word, "#@")
					break
				}
				return nil, fmt.Errorf("line %d: unknown directive %s (a lesson's block takes %s NAME, %s NAME GOAL, %s TEXT, %s GOAL and a question's %s lines)", num, word, MarkPrefix, WhenPrefix, CaptionPrefix, HoldsPrefix, QuestionPrefix)
			}
			out = append(out, d)
			switch d.Kind {
			case "caption":
				c := d
				caption = &c
			case "holds":
			default:
				caption = nil
			}
		case t == "" || strings.HasPrefix(t, "#"):
			caption = nil
		default:
			commands++
			pendingWhen = ""
			caption = nil
		}
	}
	return out, nil
}

// OpenAfter is how many of the block's commands have run at the moment
// its widget opens: 0 for start, all of them for end, and for a mark the
// commands before its line. For a when it is the commands before its
// line, where the search for the first event its goal holds at starts
// (OpenWhen). An open= naming no mark or when of the block is an error.
func (s Scenario) OpenAfter() (int, error) {
	steps, err := s.Steps()
	if err != nil {
		return 0, err
	}
	switch s.Info.Open {
	case OpenStart:
		return 0, nil
	case "", OpenEnd:
		return len(steps), nil
	}
	ds, err := s.Directives()
	if err != nil {
		return 0, err
	}
	for _, d := range ds {
		if (d.Kind == "mark" || d.Kind == "when") && d.Text == s.Info.Open {
			return d.After, nil
		}
	}
	return 0, fmt.Errorf("line %d: open=%s names no %s or %s line of the block", s.Line, s.Info.Open, MarkPrefix, WhenPrefix)
}

// OpenWhen is the goal of the `#@when` line that open= names, when it
// names one: the widget opens at the first event, from OpenAfter's
// commands on, at which the goal holds.
func (s Scenario) OpenWhen() (goal string, ok bool) {
	ds, err := s.Directives()
	if err != nil {
		return "", false
	}
	for _, d := range ds {
		if d.Kind == "when" && d.Text == s.Info.Open {
			return d.Goal, true
		}
	}
	return "", false
}

// IsQuery says whether a command only looks at the node (show, list_*),
// so that what it prints can be asked again at another moment.
func IsQuery(command string) bool {
	name, _, _ := strings.Cut(strings.TrimSpace(command), " ")
	return name == "show" || strings.HasPrefix(name, "list_")
}
