package node

// A small regular expression matcher for policy patterns. RabbitMQ matches
// policy patterns with Erlang's re (PCRE); warren supports the part of that
// syntax policies use in practice, and refuses the rest, so that the engine
// does not carry a full regexp package (and its Unicode tables) into the
// browser:
//
//	literal characters, . ^ $ * + ? and lazy *? +? ??, [abc] [a-z] [^...],
//	escapes \. \\ \d \D \w \W \s \S, groups ( ) and (?: ), alternation |

import (
	"errors"
	"fmt"
)

type nodeKind uint8

const (
	pLit nodeKind = iota
	pAny
	pClass
	pBegin
	pEnd
	pGroup // alternatives, each a sequence
)

type pnode struct {
	kind     nodeKind
	ch       byte
	class    *[256]bool
	alts     [][]*pnode
	min, max int // repetition; max < 0 = unbounded
}

// pattern is a compiled policy pattern.
type pattern struct{ root *pnode }

var errPattern = errors.New("not a valid regular expression")

// compilePattern parses a policy pattern.
func compilePattern(src string) (*pattern, error) {
	p := &pparser{s: src}
	alts, err := p.alternatives()
	if err != nil {
		return nil, err
	}
	if p.i != len(p.s) {
		return nil, fmt.Errorf("%w: unexpected %q at %d", errPattern, p.s[p.i], p.i)
	}
	return &pattern{root: &pnode{kind: pGroup, alts: alts, min: 1, max: 1}}, nil
}

type pparser struct {
	s string
	i int
}

func (p *pparser) alternatives() ([][]*pnode, error) {
	var alts [][]*pnode
	for {
		seq, err := p.sequence()
		if err != nil {
			return nil, err
		}
		alts = append(alts, seq)
		if p.i < len(p.s) && p.s[p.i] == '|' {
			p.i++
			continue
		}
		return alts, nil
	}
}

func (p *pparser) sequence() ([]*pnode, error) {
	var seq []*pnode
	for p.i < len(p.s) && p.s[p.i] != '|' && p.s[p.i] != ')' {
		n, err := p.atom()
		if err != nil {
			return nil, err
		}
		n.min, n.max = 1, 1
		if p.i < len(p.s) {
			switch p.s[p.i] {
			case '*':
				n.min, n.max = 0, -1
			case '+':
				n.min, n.max = 1, -1
			case '?':
				n.min, n.max = 0, 1
			}
			if n.min != 1 || n.max != 1 {
				if n.kind == pBegin || n.kind == pEnd {
					return nil, fmt.Errorf("%w: nothing to repeat at %d", errPattern, p.i)
				}
				p.i++
				if p.i < len(p.s) && p.s[p.i] == '?' {
					p.i++ // lazy: the same matches for a yes/no question
				}
			}
		}
		seq = append(seq, n)
	}
	return seq, nil
}

func (p *pparser) atom() (*pnode, error) {
	c := p.s[p.i]
	p.i++
	switch c {
	case '.':
		return &pnode{kind: pAny}, nil
	case '^':
		return &pnode{kind: pBegin}, nil
	case '$':
		return &pnode{kind: pEnd}, nil
	case '*', '+', '?', '{', '}':
		return nil, fmt.Errorf("%w: nothing to repeat at %d", errPattern, p.i-1)
	case '(':
		if len(p.s)-p.i >= 2 && p.s[p.i] == '?' && p.s[p.i+1] == ':' {
			p.i += 2
		}
		alts, err := p.alternatives()
		if err != nil {
			return nil, err
		}
		if p.i >= len(p.s) || p.s[p.i] != ')' {
			return nil, fmt.Errorf("%w: missing )", errPattern)
		}
		p.i++
		return &pnode{kind: pGroup, alts: alts}, nil
	case '[':
		return p.class()
	case '\\':
		return p.escape(false)
	}
	return &pnode{kind: pLit, ch: c}, nil
}

func (p *pparser) escape(inClass bool) (*pnode, error) {
	if p.i >= len(p.s) {
		return nil, fmt.Errorf("%w: trailing backslash", errPattern)
	}
	c := p.s[p.i]
	p.i++
	var set [256]bool
	switch c {
	case 'd', 'D':
		for b := '0'; b <= '9'; b++ {
			set[b] = true
		}
	case 'w', 'W':
		for b := 0; b < 256; b++ {
			set[b] = b == '_' || (b >= '0' && b <= '9') || (b >= 'a' && b <= 'z') || (b >= 'A' && b <= 'Z')
		}
	case 's', 'S':
		for _, b := range " \t\n\r\f\v" {
			set[b] = true
		}
	default:
		if (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') {
			return nil, fmt.Errorf("%w: \\%c is not supported", errPattern, c)
		}
		return &pnode{kind: pLit, ch: c}, nil
	}
	if c == 'D' || c == 'W' || c == 'S' {
		for b := range set {
			set[b] = !set[b]
		}
	}
	return &pnode{kind: pClass, class: &set}, nil
}

func (p *pparser) class() (*pnode, error) {
	var set [256]bool
	negate := false
	if p.i < len(p.s) && p.s[p.i] == '^' {
		negate = true
		p.i++
	}
	first := true
	for {
		if p.i >= len(p.s) {
			return nil, fmt.Errorf("%w: missing ]", errPattern)
		}
		c := p.s[p.i]
		if c == ']' && !first {
			p.i++
			break
		}
		first = false
		p.i++
		if c == '\\' {
			n, err := p.escape(true)
			if err != nil {
				return nil, err
			}
			if n.kind == pClass {
				for b, in := range n.class {
					set[b] = set[b] || in
				}
				continue
			}
			c = n.ch
		}
		if p.i+1 < len(p.s) && p.s[p.i] == '-' && p.s[p.i+1] != ']' {
			hi := p.s[p.i+1]
			p.i += 2
			if hi < c {
				return nil, fmt.Errorf("%w: range out of order", errPattern)
			}
			for b := int(c); b <= int(hi); b++ {
				set[b] = true
			}
			continue
		}
		set[c] = true
	}
	if negate {
		for b := range set {
			set[b] = !set[b]
		}
	}
	return &pnode{kind: pClass, class: &set}, nil
}

// MatchString reports whether the pattern matches anywhere in s.
func (pt *pattern) MatchString(s string) bool {
	for start := 0; start <= len(s); start++ {
		if matchNode(pt.root, s, start, func(int) bool { return true }) {
			return true
		}
	}
	return false
}

// matchNode matches n (with its repetition) at s[i:], then calls k with
// the position after it; it backtracks through every way n can match.
func matchNode(n *pnode, s string, i int, k func(int) bool) bool {
	var rep func(count, i int) bool
	rep = func(count, i int) bool {
		if n.max < 0 || count < n.max {
			matched := matchOnce(n, s, i, func(j int) bool {
				if j == i && count >= n.min { // an empty extra match: do not loop
					return false
				}
				return rep(count+1, j)
			})
			if matched {
				return true
			}
		}
		return count >= n.min && k(i)
	}
	return rep(0, i)
}

func matchOnce(n *pnode, s string, i int, k func(int) bool) bool {
	switch n.kind {
	case pLit:
		return i < len(s) && s[i] == n.ch && k(i+1)
	case pAny:
		return i < len(s) && s[i] != '\n' && k(i+1)
	case pClass:
		return i < len(s) && n.class[s[i]] && k(i+1)
	case pBegin:
		return i == 0 && k(i)
	case pEnd:
		return (i == len(s) || (i == len(s)-1 && s[i] == '\n')) && k(i)
	case pGroup:
		for _, seq := range n.alts {
			if matchSeq(seq, s, i, k) {
				return true
			}
		}
	}
	return false
}

func matchSeq(seq []*pnode, s string, i int, k func(int) bool) bool {
	if len(seq) == 0 {
		return k(i)
	}
	return matchNode(seq[0], s, i, func(j int) bool { return matchSeq(seq[1:], s, j, k) })
}
