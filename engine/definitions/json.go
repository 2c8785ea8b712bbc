package definitions

import (
	"strconv"
	"strings"
)

// node is one parsed JSON value. An object keeps its keys in the order
// written.
type node struct {
	kind byte // 'o' object, 'a' array, 's' string, 'n' number, 'b' bool, 'z' null
	str  string
	num  string // a number as written
	b    bool
	keys []string
	vals []*node
	at   int // the byte offset where the value starts
}

// get returns an object's value under key, or nil.
func (n *node) get(key string) *node {
	if n == nil || n.kind != 'o' {
		return nil
	}
	for i, k := range n.keys {
		if k == key {
			return n.vals[i]
		}
	}
	return nil
}

// SyntaxError is JSON that cannot be read, with the byte offset where
// reading stopped.
type SyntaxError struct {
	Offset int
	Msg    string
}

func (e *SyntaxError) Error() string {
	return "JSON at byte " + strconv.Itoa(e.Offset) + ": " + e.Msg
}

// maxDepth bounds nesting, so that a hostile file cannot exhaust the stack.
const maxDepth = 64

type parser struct {
	s     string
	i     int
	depth int
}

// parseJSON reads one JSON value that must fill src, blanks aside.
func parseJSON(src string) (*node, error) {
	p := &parser{s: src}
	v, err := p.value()
	if err != nil {
		return nil, err
	}
	p.blank()
	if p.i < len(p.s) {
		return nil, p.fail("text after the end of the JSON value")
	}
	return v, nil
}

func (p *parser) fail(msg string) error { return &SyntaxError{Offset: p.i, Msg: msg} }

func (p *parser) blank() {
	for p.i < len(p.s) {
		switch p.s[p.i] {
		case ' ', '\t', '\n', '\r':
			p.i++
		default:
			return
		}
	}
}

func (p *parser) value() (*node, error) {
	p.blank()
	if p.i >= len(p.s) {
		return nil, p.fail("unexpected end of the text, a value was expected")
	}
	at := p.i
	switch c := p.s[p.i]; {
	case c == '{' || c == '[':
		p.depth++
		if p.depth > maxDepth {
			return nil, p.fail("nested deeper than " + strconv.Itoa(maxDepth) + " levels")
		}
		var n *node
		var err error
		if c == '{' {
			n, err = p.object(at)
		} else {
			n, err = p.array(at)
		}
		p.depth--
		return n, err
	case c == '"':
		s, err := p.string()
		return &node{kind: 's', str: s, at: at}, err
	case c == '-' || (c >= '0' && c <= '9'):
		return p.number(at)
	case strings.HasPrefix(p.s[p.i:], "true"):
		p.i += 4
		return &node{kind: 'b', b: true, at: at}, nil
	case strings.HasPrefix(p.s[p.i:], "false"):
		p.i += 5
		return &node{kind: 'b', at: at}, nil
	case strings.HasPrefix(p.s[p.i:], "null"):
		p.i += 4
		return &node{kind: 'z', at: at}, nil
	}
	return nil, p.fail("unexpected character " + strconv.QuoteRune(rune(p.s[p.i])))
}

func (p *parser) object(at int) (*node, error) {
	n := &node{kind: 'o', at: at}
	p.i++ // {
	p.blank()
	if p.i < len(p.s) && p.s[p.i] == '}' {
		p.i++
		return n, nil
	}
	for {
		p.blank()
		if p.i >= len(p.s) || p.s[p.i] != '"' {
			return nil, p.fail("expected a key in quotes")
		}
		k, err := p.string()
		if err != nil {
			return nil, err
		}
		p.blank()
		if p.i >= len(p.s) || p.s[p.i] != ':' {
			return nil, p.fail("expected ':' after the key " + strconv.Quote(k))
		}
		p.i++
		v, err := p.value()
		if err != nil {
			return nil, err
		}
		n.keys = append(n.keys, k)
		n.vals = append(n.vals, v)
		p.blank()
		if p.i >= len(p.s) {
			return nil, p.fail("unexpected end of the text inside an object")
		}
		switch p.s[p.i] {
		case ',':
			p.i++
		case '}':
			p.i++
			return n, nil
		default:
			return nil, p.fail("expected ',' or '}' in an object")
		}
	}
}

func (p *parser) array(at int) (*node, error) {
	n := &node{kind: 'a', at: at}
	p.i++ // [
	p.blank()
	if p.i < len(p.s) && p.s[p.i] == ']' {
		p.i++
		return n, nil
	}
	for {
		v, err := p.value()
		if err != nil {
			return nil, err
		}
		n.vals = append(n.vals, v)
		p.blank()
		if p.i >= len(p.s) {
			return nil, p.fail("unexpected end of the text inside an array")
		}
		switch p.s[p.i] {
		case ',':
			p.i++
		case ']':
			p.i++
			return n, nil
		default:
			return nil, p.fail("expected ',' or ']' in an array")
		}
	}
}

// number reads an integer. NB: a fraction or an exponent is refused:
// warren's field tables hold no floating-point values, and reading them
// would cost the browser build the float parser.
func (p *parser) number(at int) (*node, error) {
	start := p.i
	if p.s[p.i] == '-' {
		p.i++
	}
	for p.i < len(p.s) && p.s[p.i] >= '0' && p.s[p.i] <= '9' {
		p.i++
	}
	if p.i == start || p.s[p.i-1] == '-' {
		return nil, p.fail("a number needs digits")
	}
	if p.i < len(p.s) && (p.s[p.i] == '.' || p.s[p.i] == 'e' || p.s[p.i] == 'E') {
		return nil, p.fail("a number with a fraction or an exponent: warren models whole numbers only")
	}
	return &node{kind: 'n', num: p.s[start:p.i], at: at}, nil
}

// string reads a quoted string at p.i and returns it unescaped.
func (p *parser) string() (string, error) {
	p.i++ // "
	var b strings.Builder
	for {
		if p.i >= len(p.s) {
			return "", p.fail("a string is never closed")
		}
		c := p.s[p.i]
		switch {
		case c == '"':
			p.i++
			return b.String(), nil
		case c < 0x20:
			return "", p.fail("a control character inside a string")
		case c != '\\':
			b.WriteByte(c)
			p.i++
			continue
		}
		if p.i+1 >= len(p.s) {
			return "", p.fail("a string is never closed")
		}
		p.i++
		switch e := p.s[p.i]; e {
		case '"', '\\', '/':
			b.WriteByte(e)
		case 'b':
			b.WriteByte('\b')
		case 'f':
			b.WriteByte('\f')
		case 'n':
			b.WriteByte('\n')
		case 'r':
			b.WriteByte('\r')
		case 't':
			b.WriteByte('\t')
		case 'u':
			r, ok := p.hex4(p.i + 1)
			if !ok {
				return "", p.fail(`\u needs four hex digits`)
			}
			p.i += 4
			b.WriteRune(r) // NB: a surrogate pair becomes two U+FFFD
		default:
			return "", p.fail("unknown escape \\" + string(e))
		}
		p.i++
	}
}

func (p *parser) hex4(at int) (rune, bool) {
	if at+4 > len(p.s) {
		return 0, false
	}
	var r rune
	for _, c := range []byte(p.s[at : at+4]) {
		switch {
		case c >= '0' && c <= '9':
			c -= '0'
		case c >= 'a' && c <= 'f':
			c -= 'a' - 10
		case c >= 'A' && c <= 'F':
			c -= 'A' - 10
		default:
			return 0, false
		}
		r = r<<4 | rune(c)
	}
	return r, true
}
