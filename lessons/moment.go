package lessons

import (
	"fmt"
	"strings"
)

// The moment a widget opens at, and what its script says along the way.
//
// A scenario block's open= attribute names where its widget opens: start
// (before the first event), end (after the last command, the default), or
// a mark that a `#@mark NAME` line of the script sets where it stands. A
// `#@caption TEXT` line narrates from where it stands: the widget shows
// the text beside the diagram once playback reaches that moment, until
// the next caption.

// Directive prefixes of a lesson's scenario script. The engine reads
// them as comments; the widget reads them as the moments they name.
const (
	MarkPrefix    = "#@mark"
	CaptionPrefix = "#@caption"
)

// Open moments other than a mark's name.
const (
	OpenStart = "start"
	OpenEnd   = "end"
)

// Directive is one `#@mark` or `#@caption` line of a block.
type Directive struct {
	// Line is the line of the lesson file the directive is on.
	Line int
	// Kind is "mark" or "caption".
	Kind string
	// Text is the mark's name or the caption's words.
	Text string
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
	for i, line := range strings.Split(s.Script, "\n") {
		t := strings.TrimSpace(line)
		num := s.Line + 1 + i
		switch {
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
			case CaptionPrefix:
				d.Kind = "caption"
				if rest == "" {
					return nil, fmt.Errorf("line %d: %s needs words after it", num, CaptionPrefix)
				}
			default:
				return nil, fmt.Errorf("line %d: unknown directive %s (a lesson's block takes %s NAME and %s TEXT)", num, word, MarkPrefix, CaptionPrefix)
			}
			out = append(out, d)
		case t == "" || strings.HasPrefix(t, "#"):
		default:
			commands++
		}
	}
	return out, nil
}

// OpenAfter is how many of the block's commands have run at the moment
// its widget opens: 0 for start, all of them for end, and for a mark the
// commands before its line. An open= naming no mark of the block is an
// error.
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
		if d.Kind == "mark" && d.Text == s.Info.Open {
			return d.After, nil
		}
	}
	return 0, fmt.Errorf("line %d: open=%s names no %s line of the block", s.Line, s.Info.Open, MarkPrefix)
}

// IsQuery says whether a command only looks at the node (show, list_*),
// so that what it prints can be asked again at another moment.
func IsQuery(command string) bool {
	name, _, _ := strings.Cut(strings.TrimSpace(command), " ")
	return name == "show" || strings.HasPrefix(name, "list_")
}
