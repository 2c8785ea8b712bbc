package lessons

import (
	"fmt"
	"slices"
	"strings"

	"warren/engine/scenario"
)

// Lang is the info string word that marks a scenario block.
const Lang = "warren"

// Info is a parsed fenced-code info string: the language word, then
// attributes, either `key="value"` (or key=value) or bare words.
type Info struct {
	// Lang is the first word: Lang ("warren") for a scenario block.
	Lang string
	// Title is the title="..." attribute: what the widget shows above the
	// scenario.
	Title string
	// ErrorOK marks a block that shows a refused command on purpose.
	ErrorOK bool
	// View is the widget's first view: diagram (the default), rates,
	// files or table.
	View string
	// Exercise marks a block that sets a task: its `expect` lines are
	// goals for the reader to meet, and its SolutionPrefix lines a
	// solution (see Scenario.Exercise).
	Exercise bool
	// Open is where the widget opens: OpenStart, OpenEnd (the default,
	// also when empty) or the name of a `#@mark` line of the block.
	Open string
}

// Views are the values the view= attribute takes.
var Views = []string{"diagram", "rates", "files", "table"}

// ParseInfo reads an info string such as `warren title="Two consumers"
// error-ok view=files`. Other attributes are an error, so that a typo does
// not pass silently.
func ParseInfo(s string) (Info, error) {
	toks, err := splitInfo(s)
	if err != nil {
		return Info{}, err
	}
	var in Info
	if len(toks) == 0 {
		return in, nil
	}
	in.Lang = toks[0].key
	if in.Lang != Lang {
		return in, nil // another language: its attributes are not ours to judge
	}
	for _, t := range toks[1:] {
		switch {
		case t.key == "title" && t.hasVal:
			in.Title = t.val
		case t.key == "error-ok" && !t.hasVal:
			in.ErrorOK = true
		case t.key == "exercise" && !t.hasVal:
			in.Exercise = true
		case t.key == "open" && t.hasVal:
			if t.val != OpenStart && t.val != OpenEnd && !validSlug(t.val) {
				return Info{}, fmt.Errorf("scenario block open=%q: want start, end or the name of a %s line", t.val, MarkPrefix)
			}
			in.Open = t.val
		case t.key == "view" && t.hasVal:
			if !slices.Contains(Views, t.val) {
				return Info{}, fmt.Errorf("scenario block view=%q: want one of %s", t.val, strings.Join(Views, ", "))
			}
			in.View = t.val
		default:
			return Info{}, fmt.Errorf("unknown scenario block attribute %q (want title=\"...\", view=..., open=..., error-ok or exercise)", t.key)
		}
	}
	return in, nil
}

type infoTok struct {
	key, val string
	hasVal   bool
}

func splitInfo(s string) ([]infoTok, error) {
	var out []infoTok
	i := 0
	for {
		for i < len(s) && (s[i] == ' ' || s[i] == '\t') {
			i++
		}
		if i >= len(s) {
			return out, nil
		}
		start := i
		for i < len(s) && s[i] != ' ' && s[i] != '\t' && s[i] != '=' {
			i++
		}
		t := infoTok{key: s[start:i]}
		if i < len(s) && s[i] == '=' {
			t.hasVal = true
			i++
			if i < len(s) && s[i] == '"' {
				end := strings.IndexByte(s[i+1:], '"')
				if end < 0 {
					return nil, fmt.Errorf("unterminated quote in info string %q", s)
				}
				t.val = s[i+1 : i+1+end]
				i += end + 2
			} else {
				vs := i
				for i < len(s) && s[i] != ' ' && s[i] != '\t' {
					i++
				}
				t.val = s[vs:i]
			}
		}
		out = append(out, t)
	}
}

// Scenario is one scenario block of a lesson.
type Scenario struct {
	// Line is the line of the lesson file holding the opening fence.
	Line int
	Info Info
	// Script is the block's text, lines joined by "\n", without a
	// trailing newline.
	Script string
}

// Scenarios returns the lesson's scenario blocks in order. Only fenced
// blocks that start at the left margin (up to three spaces, as CommonMark
// allows) are found; a scenario block is not nested in a list or quote.
func (l Lesson) Scenarios() ([]Scenario, error) {
	var out []Scenario
	lines := strings.Split(l.Body, "\n")
	for i := 0; i < len(lines); i++ {
		indent, fence, info, ok := openFence(lines[i])
		if !ok {
			continue
		}
		var body []string
		j := i + 1
		for ; j < len(lines); j++ {
			if closesFence(lines[j], fence) {
				break
			}
			body = append(body, trimIndent(lines[j], indent))
		}
		in, err := ParseInfo(info)
		if err != nil {
			return nil, fmt.Errorf("%s:%d: %w", l.File, l.BodyLine+i, err)
		}
		if in.Lang == Lang {
			out = append(out, Scenario{Line: l.BodyLine + i, Info: in, Script: strings.Join(body, "\n")})
		}
		i = j
	}
	return out, nil
}

// openFence recognises a CommonMark code fence opening line.
func openFence(line string) (indent int, fence, info string, ok bool) {
	for indent < len(line) && indent < 4 && line[indent] == ' ' {
		indent++
	}
	if indent > 3 {
		return 0, "", "", false
	}
	rest := line[indent:]
	n := 0
	for n < len(rest) && (rest[n] == '`' || rest[n] == '~') && rest[n] == rest[0] {
		n++
	}
	if n < 3 {
		return 0, "", "", false
	}
	info = strings.TrimSpace(rest[n:])
	if rest[0] == '`' && strings.Contains(info, "`") {
		return 0, "", "", false
	}
	return indent, rest[:n], info, true
}

func closesFence(line, fence string) bool {
	t := strings.TrimLeft(line, " ")
	if len(line)-len(t) > 3 || !strings.HasPrefix(t, fence) {
		return false
	}
	return strings.Trim(t, fence[:1]+" \t") == ""
}

func trimIndent(line string, n int) string {
	for n > 0 && strings.HasPrefix(line, " ") {
		line = line[1:]
		n--
	}
	return line
}

// ExpectPrefix starts a comment line that quotes a line of output: the
// command before it must print exactly that line.
const ExpectPrefix = scenario.QuotePrefix

// Step is one command of a scenario block, with the output lines the block
// quotes for it (Expect): a step of a scenario file, as engine/scenario
// reads it.
type Step = scenario.Step

// Steps splits the block into its commands, numbered by their line in the
// lesson file, as engine/scenario reads scenario files. A `#>` line before
// the first command is an error, and so is a `----` line: a block quotes
// what it teaches instead of recording output.
func (s Scenario) Steps() ([]Step, error) {
	if _, err := s.Varies(); err != nil {
		return nil, err
	}
	f, err := scenario.ParseAt("", s.Line+1, s.filled(0))
	if err != nil {
		return nil, err
	}
	if len(f.Cases) > 1 || len(f.Cases) == 1 && f.Cases[0].Expected != nil {
		at := s.Line + 1 + slices.Index(strings.Split(s.Script, "\n"), scenario.Separator)
		return nil, fmt.Errorf("line %d: a scenario block records no output after %s: quote the lines it teaches with %s",
			at, scenario.Separator, ExpectPrefix)
	}
	return f.Steps(), nil
}

// SolutionPrefix starts a comment line of an exercise block that holds one
// command of a solution: the tests run it after the block, and the widget
// shows it to a reader who asks.
const SolutionPrefix = "#solution:"

// HintPrefix starts a comment line of an exercise block that holds a hint:
// the widget reveals the hints one at a time, before the solution.
const HintPrefix = "#hint:"

// MaxHints is how many hints an exercise may give.
const MaxHints = 3

// Exercise is an exercise block taken apart: the commands that set the
// scene, the goals (expect lines) and a solution that meets them all.
type Exercise struct {
	// Setup is the block without its goals and solution: what the widget
	// runs, with any quoted output.
	Setup    Scenario
	Goals    []Step
	Solution []Step
	// Hints are the exercise's hints, in the order they are revealed.
	Hints []string
}

// Exercise takes an exercise block apart. It needs at least one goal (an
// expect line) and a solution.
func (s Scenario) Exercise() (Exercise, error) {
	if !s.Info.Exercise {
		return Exercise{}, fmt.Errorf("line %d: the block is not marked `warren exercise`", s.Line)
	}
	ex := Exercise{Setup: s}
	var setup []string
	for i, line := range strings.Split(s.Script, "\n") {
		t := strings.TrimSpace(line)
		num := s.Line + 1 + i
		switch {
		case strings.HasPrefix(t, SolutionPrefix):
			cmd := strings.TrimSpace(strings.TrimPrefix(t, SolutionPrefix))
			if cmd == "" {
				return Exercise{}, fmt.Errorf("line %d: %s needs a command after it", num, SolutionPrefix)
			}
			ex.Solution = append(ex.Solution, Step{Line: num, Command: cmd})
		case strings.HasPrefix(t, HintPrefix):
			hint := strings.TrimSpace(strings.TrimPrefix(t, HintPrefix))
			if hint == "" {
				return Exercise{}, fmt.Errorf("line %d: %s needs words after it", num, HintPrefix)
			}
			if len(ex.Hints) == MaxHints {
				return Exercise{}, fmt.Errorf("line %d: an exercise gives at most %d hints", num, MaxHints)
			}
			ex.Hints = append(ex.Hints, hint)
		case t == "expect" || strings.HasPrefix(t, "expect "):
			ex.Goals = append(ex.Goals, Step{Line: num, Command: t})
		default:
			setup = append(setup, line)
		}
	}
	switch {
	case len(ex.Goals) == 0:
		return Exercise{}, fmt.Errorf("line %d: an exercise block needs at least one goal (an expect line)", s.Line)
	case len(ex.Solution) == 0:
		return Exercise{}, fmt.Errorf("line %d: an exercise block needs a solution (%s lines), which the tests check", s.Line, SolutionPrefix)
	}
	ex.Setup.Script = strings.Join(setup, "\n")
	return ex, nil
}
