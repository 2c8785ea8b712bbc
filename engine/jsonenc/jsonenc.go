// Package jsonenc writes the JSON the browser bridge (wasm/) sends: the
// engine's snapshots, samples, trace lines and events, with the bytes
// encoding/json gives for the same values, without its cost. NB:
// encoding/json costs about 80 kB of the gzipped binary, and a
// reflection-based encoder about 11 kB, which the size budget
// (wasm/size_test.go) cannot spare. The package builds natively, so that
// its test compares every encoder with encoding/json in plain go test: a
// field added to engine.Snapshot that is missing here fails it.
package jsonenc

import (
	"math"
	"strconv"
	"unicode/utf8"

	"warren/engine"
)

// Encoder appends JSON to its buffer. Values written with an empty key
// are array elements or the top-level value.
type Encoder struct {
	b     []byte
	comma bool // the next value needs a comma before it
}

// Key starts a value: the comma before it, and its key unless k is "".
func (e *Encoder) Key(k string) {
	if e.comma {
		e.b = append(e.b, ',')
	}
	e.comma = true
	if k != "" {
		e.b = AppendString(e.b, k)
		e.b = append(e.b, ':')
	}
}

// Open starts an object (c is '{') or an array ('[') under key k.
func (e *Encoder) Open(k string, c byte) {
	e.Key(k)
	e.b = append(e.b, c)
	e.comma = false
}

// Close ends the object or array Open started (c is '}' or ']').
func (e *Encoder) Close(c byte) {
	e.b = append(e.b, c)
	e.comma = true
}

// Str writes a string.
func (e *Encoder) Str(k, v string) {
	e.Key(k)
	e.b = AppendString(e.b, v)
}

// Int writes an integer.
func (e *Encoder) Int(k string, v int64) {
	e.Key(k)
	e.b = strconv.AppendInt(e.b, v, 10)
}

// Bool writes true or false.
func (e *Encoder) Bool(k string, v bool) {
	e.Key(k)
	e.b = strconv.AppendBool(e.b, v)
}

// Null writes null.
func (e *Encoder) Null(k string) {
	e.Key(k)
	e.b = append(e.b, "null"...)
}

// Float writes a finite float64 as encoding/json does (ES6 number form).
func (e *Encoder) Float(k string, f float64) {
	e.Key(k)
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

// Strs writes a string list; nil is null, as in encoding/json.
func (e *Encoder) Strs(k string, v []string) {
	if v == nil {
		e.Null(k)
		return
	}
	e.Open(k, '[')
	for _, s := range v {
		e.Str("", s)
	}
	e.Close(']')
}

// Ints writes an integer list; nil is null, as in encoding/json.
func (e *Encoder) Ints(k string, v []int) {
	if v == nil {
		e.Null(k)
		return
	}
	e.Open(k, '[')
	for _, n := range v {
		e.Int("", int64(n))
	}
	e.Close(']')
}

// Floats writes a number list; nil is null, as in encoding/json.
func (e *Encoder) Floats(k string, v []float64) {
	if v == nil {
		e.Null(k)
		return
	}
	e.Open(k, '[')
	for _, f := range v {
		e.Float("", f)
	}
	e.Close(']')
}

const hexDigits = "0123456789abcdef"

// AppendString quotes s as encoding/json does, HTML escaping included, so
// that both give the same bytes.
func AppendString(b []byte, s string) []byte {
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

// Snapshot encodes an engine.Snapshot with its JSON tags.
func Snapshot(s *engine.Snapshot) string {
	e := &Encoder{}
	e.Open("", '{')
	e.Int("time", s.Time)
	e.Int("events", s.Events)
	e.Int("furthest", s.Furthest)
	if s.Schedulers == nil {
		e.Null("schedulers")
	} else {
		e.Open("schedulers", '[')
		for _, v := range s.Schedulers {
			e.Open("", '{')
			e.Int("busy", v.Busy)
			e.Float("util", v.Util)
			e.Int("running", int64(v.Running))
			if v.Node != "" {
				e.Str("node", v.Node)
			}
			e.Close('}')
		}
		e.Close(']')
	}
	if s.Processes == nil {
		e.Null("processes")
	} else {
		e.Open("processes", '[')
		for _, p := range s.Processes {
			e.Open("", '{')
			e.Int("pid", int64(p.PID))
			e.Str("name", p.Name)
			e.Str("kind", p.Kind)
			e.Str("state", p.State)
			e.Int("mailbox", int64(p.Mailbox))
			e.Strs("head", p.Head)
			e.Int("socket", int64(p.Socket))
			e.Int("reductions", p.Reductions)
			e.Int("handled", p.Handled)
			e.Bool("blocked", p.Blocked)
			if p.Node != "" {
				e.Str("node", p.Node)
			}
			e.Close('}')
		}
		e.Close(']')
	}
	if s.Credit == nil {
		e.Null("credit")
	} else {
		e.Open("credit", '[')
		for _, c := range s.Credit {
			e.Open("", '{')
			e.Int("from", int64(c.From))
			e.Int("to", int64(c.To))
			e.Int("credit", int64(c.Credit))
			e.Int("initial", int64(c.Initial))
			e.Bool("blocked", c.Blocked)
			e.Close('}')
		}
		e.Close(']')
	}
	if s.Queues == nil {
		e.Null("queues")
	} else {
		e.Open("queues", '[')
		for i := range s.Queues {
			queueJSON(e, &s.Queues[i])
		}
		e.Close(']')
	}
	e.Int("memory", s.Memory)
	e.Int("watermark", s.Watermark)
	e.Strs("alarms", s.Alarms)
	if s.Files == nil {
		e.Null("files")
	} else {
		e.Open("files", '[')
		for _, f := range s.Files {
			e.Open("", '{')
			e.Str("path", f.Path)
			e.Str("kind", f.Kind)
			e.Int("size", f.Size)
			e.Int("synced", f.Synced)
			e.Int("entries", int64(f.Entries))
			e.Int("live", int64(f.Live))
			e.Str("marks", f.Marks)
			if f.GC != "" {
				e.Str("gc", f.GC)
				e.saidAs("gcSaid", f.GC, f.GCSaid) // GC is its English
			}
			e.Close('}')
		}
		e.Close(']')
	}
	if len(s.Nodes) > 0 {
		e.Open("nodes", '[')
		for _, n := range s.Nodes {
			e.Open("", '{')
			e.Str("name", n.Name)
			e.Int("memory", n.Memory)
			e.Int("watermark", n.Watermark)
			e.Strs("alarms", n.Alarms)
			e.Close('}')
		}
		e.Close(']')
	}
	e.Close('}')
	return e.String()
}

func queueJSON(e *Encoder, q *engine.QueueView) {
	e.Open("", '{')
	e.Str("name", q.Name)
	e.Int("pid", int64(q.PID))
	e.Int("ready", int64(q.Ready))
	e.Int("unacked", int64(q.Unacked))
	e.Int("bytes", q.Bytes)
	e.Ints("levels", q.Levels)
	e.Strs("heads", q.Heads)
	e.Strs("headProps", q.HeadProps)
	if q.Consumers == nil {
		e.Null("consumers")
	} else {
		e.Open("consumers", '[')
		for _, c := range q.Consumers {
			e.Open("", '{')
			e.Str("tag", c.Tag)
			e.Str("channel", c.Channel)
			e.Int("priority", c.Priority)
			e.Int("prefetch", int64(c.Prefetch))
			e.Int("unacked", int64(c.Unacked))
			e.Str("state", c.State)
			e.Bool("noAck", c.NoAck)
			e.Close('}')
		}
		e.Close(']')
	}
	e.Bool("durable", q.Durable)
	e.Bool("exclusive", q.Exclusive)
	e.Str("policy", q.Policy)
	e.Float("utilisation", q.Utilisation)
	if q.Down {
		e.Bool("down", true)
	}
	e.Close('}')
}

// Samples encodes metrics samples with their JSON tags; no samples
// is [], never null.
func Samples(v []engine.Sample) string {
	e := &Encoder{}
	e.Open("", '[')
	for i := range v {
		x := &v[i]
		e.Open("", '{')
		e.Int("time", x.Time)
		e.Float("publish", x.Publish)
		e.Float("deliver", x.Deliver)
		e.Float("ack", x.Ack)
		e.Float("confirm", x.Confirm)
		e.Int("depth", int64(x.Depth))
		e.Int("memory", x.Memory)
		e.Floats("scheduler", x.Scheduler)
		e.Close('}')
	}
	e.Close(']')
	return e.String()
}

// Numbered encodes [{"n": N, "text": T}, ...] with an optional "t".
func Numbered(n int, at func(i int) (num, t int64, hasT bool, text string)) string {
	e := &Encoder{}
	e.Open("", '[')
	for i := 0; i < n; i++ {
		num, t, hasT, text := at(i)
		e.Open("", '{')
		e.Int("n", num)
		if hasT {
			e.Int("t", t)
		}
		e.Str("text", text)
		e.Close('}')
	}
	e.Close(']')
	return e.String()
}

// String returns what was written.
func (e *Encoder) String() string { return string(e.b) }
