package lessons

import (
	"fmt"
	"regexp"
	"strings"
)

// VaryPrefix starts a line that lets a number of a block vary: `#@vary
// NAME V0 V1 ...`, whole numbers, V0 the one the block is written with.
// {NAME} stands for it in the block's commands, captions and questions;
// the widget runs the block with V0, and a reader who asks for other
// numbers gets V1, then V2, ..., each question's number worked out by the
// engine at its moment. NAME is lowercase letters, digits and dashes, and
// not i or n ({i} is the language's count= placeholder, {n} a number
// question's answer).
const VaryPrefix = "#@vary"

// Vary is one number of a block that can vary.
type Vary struct {
	Line   int
	Name   string
	Values []string
}

var varyLine = regexp.MustCompile(`^([a-z][a-z0-9-]*)((?:\s+\d+){2,})$`)

// Varies lists the block's #@vary lines; a malformed one is an error that
// says its line.
func (s Scenario) Varies() ([]Vary, error) {
	var out []Vary
	for i, line := range strings.Split(s.Script, "\n") {
		t := strings.TrimSpace(line)
		rest, ok := strings.CutPrefix(t, VaryPrefix)
		if !ok || rest != "" && rest[0] != ' ' {
			continue
		}
		num := s.Line + 1 + i
		m := varyLine.FindStringSubmatch(strings.TrimSpace(rest))
		if m == nil || m[1] == "i" || m[1] == "n" {
			return nil, fmt.Errorf("line %d: %s needs a name (not i or n) and two or more whole numbers, the first the block's own, as in %s upto 3 2 4; got %q", num, VaryPrefix, VaryPrefix, strings.TrimSpace(rest))
		}
		for _, v := range out {
			if v.Name == m[1] {
				return nil, fmt.Errorf("line %d: %s %s is already set on line %d", num, VaryPrefix, m[1], v.Line)
			}
		}
		out = append(out, Vary{Line: num, Name: m[1], Values: strings.Fields(m[2])})
	}
	return out, nil
}

// Variants is how many draws of its numbers the block has: the longest
// list of a #@vary line, 1 without any.
func (s Scenario) Variants() int {
	vs, _ := s.Varies()
	n := 1
	for _, v := range vs {
		n = max(n, len(v.Values))
	}
	return n
}

// Variant is the block with each {NAME} of its #@vary lines filled with
// the values at index k of their lists (0: as written; a shorter list
// starts again), as the widget runs it.
func (s Scenario) Variant(k int) Scenario {
	s.Script = s.filled(k)
	return s
}

// filled is the block's text with its #@vary numbers at draw k; the
// #@vary lines themselves stay.
func (s Scenario) filled(k int) string {
	vs, err := s.Varies()
	if err != nil || len(vs) == 0 {
		return s.Script
	}
	lines := strings.Split(s.Script, "\n")
	for i, line := range lines {
		if strings.HasPrefix(strings.TrimSpace(line), VaryPrefix) {
			continue
		}
		for _, v := range vs {
			line = strings.ReplaceAll(line, "{"+v.Name+"}", v.Values[k%len(v.Values)])
		}
		lines[i] = line
	}
	return strings.Join(lines, "\n")
}
