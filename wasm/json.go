//go:build js && wasm

package main

// JSON by hand. NB: encoding/json costs about 80 kB of the gzipped binary,
// and a reflection-based encoder about 11 kB, which the size budget
// (size_test.go) cannot spare. bridge_test.go checks every encoder here
// against encoding/json, so a field added to engine.Snapshot that is
// missing here fails a test.

import (
	"fmt"
	"math"
	"strconv"
	"strings"
	"unicode/utf8"

	"warren/engine"
)

// enc appends JSON to b. Values written with an empty key are array
// elements or the top-level value.
type enc struct {
	b     []byte
	comma bool // the next value needs a comma before it
}

func (e *enc) key(k string) {
	if e.comma {
		e.b = append(e.b, ',')
	}
	e.comma = true
	if k != "" {
		e.b = appendString(e.b, k)
		e.b = append(e.b, ':')
	}
}

func (e *enc) open(k string, c byte) {
	e.key(k)
	e.b = append(e.b, c)
	e.comma = false
}

func (e *enc) close(c byte) {
	e.b = append(e.b, c)
	e.comma = true
}

func (e *enc) str(k, v string) {
	e.key(k)
	e.b = appendString(e.b, v)
}

func (e *enc) int(k string, v int64) {
	e.key(k)
	e.b = strconv.AppendInt(e.b, v, 10)
}

func (e *enc) bool(k string, v bool) {
	e.key(k)
	e.b = strconv.AppendBool(e.b, v)
}

func (e *enc) null(k string) {
	e.key(k)
	e.b = append(e.b, "null"...)
}

// float writes a finite float64 as encoding/json does (ES6 number form).
func (e *enc) float(k string, f float64) {
	e.key(k)
	if math.IsNaN(f) || math.IsInf(f, 0) {
		e.b = append(e.b, '0') // utilisation before any time passed
		return
	}
	format := byte('f')
	if abs := math.Abs(f); abs != 0 && (abs < 1e-6 || abs >= 1e21) {
		format = 'e'
	}
	e.b = strconv.AppendFloat(e.b, f, format, -1, 64)
	if n := len(e.b); format == 'e' && n >= 4 && e.b[n-4] == 'e' && e.b[n-3] == '-' && e.b[n-2] == '0' {
		e.b[n-2] = e.b[n-1] // e-07 → e-7
		e.b = e.b[:n-1]
	}
}

// strs writes a string list; nil is null, as in encoding/json.
func (e *enc) strs(k string, v []string) {
	if v == nil {
		e.null(k)
		return
	}
	e.open(k, '[')
	for _, s := range v {
		e.str("", s)
	}
	e.close(']')
}

func (e *enc) ints(k string, v []int) {
	if v == nil {
		e.null(k)
		return
	}
	e.open(k, '[')
	for _, n := range v {
		e.int("", int64(n))
	}
	e.close(']')
}

// floats writes a number list; nil is null, as in encoding/json.
func (e *enc) floats(k string, v []float64) {
	if v == nil {
		e.null(k)
		return
	}
	e.open(k, '[')
	for _, f := range v {
		e.float("", f)
	}
	e.close(']')
}

const hexDigits = "0123456789abcdef"

// appendString quotes s as encoding/json does, HTML escaping included, so
// that both give the same bytes.
func appendString(b []byte, s string) []byte {
	b = append(b, '"')
	for i := 0; i < len(s); {
		c := s[i]
		if c < utf8.RuneSelf {
			switch {
			case c == '"' || c == '\\':
				b = append(b, '\\', c)
			case c == '\n':
				b = append(b, '\\', 'n')
			case c == '\r':
				b = append(b, '\\', 'r')
			case c == '\t':
				b = append(b, '\\', 't')
			case c < 0x20 || c == '<' || c == '>' || c == '&':
				b = append(b, '\\', 'u', '0', '0', hexDigits[c>>4], hexDigits[c&0xf])
			default:
				b = append(b, c)
			}
			i++
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == utf8.RuneError && size == 1:
			b = append(b, `\ufffd`...)
		case r == '\u2028' || r == '\u2029':
			b = append(b, '\\', 'u', '2', '0', '2', hexDigits[r&0xf])
		default:
			b = append(b, s[i:i+size]...)
		}
		i += size
	}
	return append(b, '"')
}

// snapshotJSON encodes an engine.Snapshot with its JSON tags.
func snapshotJSON(s *engine.Snapshot) string {
	e := &enc{}
	e.open("", '{')
	e.int("time", s.Time)
	e.int("events", s.Events)
	e.int("furthest", s.Furthest)
	if s.Schedulers == nil {
		e.null("schedulers")
	} else {
		e.open("schedulers", '[')
		for _, v := range s.Schedulers {
			e.open("", '{')
			e.int("busy", v.Busy)
			e.float("util", v.Util)
			e.int("running", int64(v.Running))
			if v.Node != "" {
				e.str("node", v.Node)
			}
			e.close('}')
		}
		e.close(']')
	}
	if s.Processes == nil {
		e.null("processes")
	} else {
		e.open("processes", '[')
		for _, p := range s.Processes {
			e.open("", '{')
			e.int("pid", int64(p.PID))
			e.str("name", p.Name)
			e.str("kind", p.Kind)
			e.str("state", p.State)
			e.int("mailbox", int64(p.Mailbox))
			e.strs("head", p.Head)
			e.int("socket", int64(p.Socket))
			e.int("reductions", p.Reductions)
			e.int("handled", p.Handled)
			e.bool("blocked", p.Blocked)
			if p.Node != "" {
				e.str("node", p.Node)
			}
			e.close('}')
		}
		e.close(']')
	}
	if s.Credit == nil {
		e.null("credit")
	} else {
		e.open("credit", '[')
		for _, c := range s.Credit {
			e.open("", '{')
			e.int("from", int64(c.From))
			e.int("to", int64(c.To))
			e.int("credit", int64(c.Credit))
			e.int("initial", int64(c.Initial))
			e.bool("blocked", c.Blocked)
			e.close('}')
		}
		e.close(']')
	}
	if s.Queues == nil {
		e.null("queues")
	} else {
		e.open("queues", '[')
		for i := range s.Queues {
			queueJSON(e, &s.Queues[i])
		}
		e.close(']')
	}
	e.int("memory", s.Memory)
	e.int("watermark", s.Watermark)
	e.strs("alarms", s.Alarms)
	if s.Files == nil {
		e.null("files")
	} else {
		e.open("files", '[')
		for _, f := range s.Files {
			e.open("", '{')
			e.str("path", f.Path)
			e.str("kind", f.Kind)
			e.int("size", f.Size)
			e.int("synced", f.Synced)
			e.int("entries", int64(f.Entries))
			e.int("live", int64(f.Live))
			e.str("marks", f.Marks)
			e.close('}')
		}
		e.close(']')
	}
	if len(s.Nodes) > 0 {
		e.open("nodes", '[')
		for _, n := range s.Nodes {
			e.open("", '{')
			e.str("name", n.Name)
			e.int("memory", n.Memory)
			e.int("watermark", n.Watermark)
			e.strs("alarms", n.Alarms)
			e.close('}')
		}
		e.close(']')
	}
	e.close('}')
	return string(e.b)
}

func queueJSON(e *enc, q *engine.QueueView) {
	e.open("", '{')
	e.str("name", q.Name)
	e.int("pid", int64(q.PID))
	e.int("ready", int64(q.Ready))
	e.int("unacked", int64(q.Unacked))
	e.int("bytes", q.Bytes)
	e.ints("levels", q.Levels)
	e.strs("heads", q.Heads)
	if q.Consumers == nil {
		e.null("consumers")
	} else {
		e.open("consumers", '[')
		for _, c := range q.Consumers {
			e.open("", '{')
			e.str("tag", c.Tag)
			e.str("channel", c.Channel)
			e.int("priority", c.Priority)
			e.int("prefetch", int64(c.Prefetch))
			e.int("unacked", int64(c.Unacked))
			e.str("state", c.State)
			e.bool("noAck", c.NoAck)
			e.close('}')
		}
		e.close(']')
	}
	e.bool("durable", q.Durable)
	e.bool("exclusive", q.Exclusive)
	e.str("policy", q.Policy)
	e.close('}')
}

// samplesJSON encodes metrics samples with their JSON tags; no samples
// is [], never null.
func samplesJSON(v []engine.Sample) string {
	e := &enc{}
	e.open("", '[')
	for i := range v {
		x := &v[i]
		e.open("", '{')
		e.int("time", x.Time)
		e.float("publish", x.Publish)
		e.float("deliver", x.Deliver)
		e.float("ack", x.Ack)
		e.float("confirm", x.Confirm)
		e.int("depth", int64(x.Depth))
		e.int("memory", x.Memory)
		e.floats("scheduler", x.Scheduler)
		e.close('}')
	}
	e.close(']')
	return string(e.b)
}

// linesJSON encodes {"lines": [...]}, what exec, submit and runQuiet return.
func linesJSON(lines []string) string {
	e := &enc{}
	e.open("", '{')
	if lines == nil {
		lines = []string{}
	}
	e.strs("lines", lines)
	e.close('}')
	return string(e.b)
}

// numberedJSON encodes [{"n": N, "text": T}, ...] with an optional "t".
func numberedJSON(n int, at func(i int) (num, t int64, hasT bool, text string)) string {
	e := &enc{}
	e.open("", '[')
	for i := 0; i < n; i++ {
		num, t, hasT, text := at(i)
		e.open("", '{')
		e.int("n", num)
		if hasT {
			e.int("t", t)
		}
		e.str("text", text)
		e.close('}')
	}
	e.close(']')
	return string(e.b)
}

// usageJSON encodes a command's signature for completion and help.
func usageJSON(u *usageView) string {
	e := &enc{}
	e.open("", '{')
	e.str("name", u.Name)
	e.str("usage", u.Usage)
	e.open("params", '[')
	for _, p := range u.Params {
		e.open("", '{')
		e.str("key", p.Key)
		e.str("kind", p.Kind)
		if p.Required {
			e.bool("required", true)
		}
		if len(p.Values) > 0 {
			e.strs("values", p.Values)
		}
		e.close('}')
	}
	e.close(']')
	if u.Extra != "" {
		e.str("extra", u.Extra)
	}
	if len(u.Words) > 0 {
		e.strs("words", u.Words)
	}
	if u.Engine {
		e.bool("engine", true)
	}
	e.close('}')
	return string(e.b)
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

func (p *flatParser) fail(msg string) error { return fmt.Errorf("%s at offset %d", msg, p.pos) }

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
