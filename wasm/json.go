//go:build js && wasm

package main

// The bridge's JSON: the encoders are in engine/jsonenc, which builds
// natively so that its comparison with encoding/json runs in plain go
// test. Here: what only the bridge sends (a command's usage) and reads
// (create's options).

import (
	"strconv"
	"strings"

	"warren/engine/jsonenc"
	"warren/engine/say"
)

var (
	snapshotJSON = jsonenc.Snapshot
	samplesJSON  = jsonenc.Samples
	numberedJSON = jsonenc.Numbered
	appendString = jsonenc.AppendString
)

// usageJSON encodes a command's signature for completion and help.
func usageJSON(u *usageView) string {
	e := &jsonenc.Encoder{}
	e.Open("", '{')
	e.Str("name", u.Name)
	e.Str("usage", u.Usage)
	e.Open("params", '[')
	for _, p := range u.Params {
		e.Open("", '{')
		e.Str("key", p.Key)
		e.Str("kind", p.Kind)
		if p.Required {
			e.Bool("required", true)
		}
		if len(p.Values) > 0 {
			e.Strs("values", p.Values)
		}
		e.Close('}')
	}
	e.Close(']')
	if u.Extra != "" {
		e.Str("extra", u.Extra)
	}
	if len(u.Words) > 0 {
		e.Strs("words", u.Words)
	}
	if u.Engine {
		e.Bool("engine", true)
	}
	e.Close('}')
	return e.String()
}

// parseFlatObject reads a JSON object whose values are whole numbers
// (int64), strings without escapes, booleans or null: all that create's
// options need.
func parseFlatObject(s string) (map[string]any, error) {
	p := &flatParser{s: s}
	out := map[string]any{}
	p.space()
	if !p.eat('{') {
		return nil, p.fail("expected {")
	}
	p.space()
	if p.eat('}') {
		return out, p.end()
	}
	for {
		p.space()
		key, err := p.str()
		if err != nil {
			return nil, err
		}
		p.space()
		if !p.eat(':') {
			return nil, p.fail("expected :")
		}
		p.space()
		val, err := p.value()
		if err != nil {
			return nil, err
		}
		out[key] = val
		p.space()
		if p.eat('}') {
			return out, p.end()
		}
		if !p.eat(',') {
			return nil, p.fail("expected , or }")
		}
	}
}

type flatParser struct {
	s   string
	pos int
}

func (p *flatParser) fail(msg string) error { return say.E("con.atOffset", msg, strconv.Itoa(p.pos)) }

func (p *flatParser) space() {
	for p.pos < len(p.s) && strings.IndexByte(" \t\r\n", p.s[p.pos]) >= 0 {
		p.pos++
	}
}

func (p *flatParser) eat(c byte) bool {
	if p.pos < len(p.s) && p.s[p.pos] == c {
		p.pos++
		return true
	}
	return false
}

func (p *flatParser) end() error {
	p.space()
	if p.pos != len(p.s) {
		return p.fail("unexpected text after the object")
	}
	return nil
}

// str reads a string; the options have no use for escapes.
func (p *flatParser) str() (string, error) {
	if !p.eat('"') {
		return "", p.fail("expected a string")
	}
	end := strings.IndexAny(p.s[p.pos:], "\\\"")
	if end < 0 || p.s[p.pos+end] != '"' {
		return "", p.fail("expected a string without escapes")
	}
	v := p.s[p.pos : p.pos+end]
	p.pos += end + 1
	return v, nil
}

func (p *flatParser) value() (any, error) {
	rest := p.s[p.pos:]
	switch {
	case strings.HasPrefix(rest, `"`):
		return p.str()
	case strings.HasPrefix(rest, "true"):
		p.pos += 4
		return true, nil
	case strings.HasPrefix(rest, "false"):
		p.pos += 5
		return false, nil
	case strings.HasPrefix(rest, "null"):
		p.pos += 4
		return nil, nil
	}
	end := p.pos
	for end < len(p.s) && strings.IndexByte("+-0123456789", p.s[end]) >= 0 {
		end++
	}
	n, err := strconv.ParseInt(p.s[p.pos:end], 10, 64)
	if err != nil {
		return nil, p.fail("expected a whole number, a string, true, false or null")
	}
	p.pos = end
	return n, nil
}
