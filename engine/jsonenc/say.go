package jsonenc

import (
	"warren/engine"
	"warren/engine/say"
)

// Said writes a sentence of the engine's as data the widget says in any
// language: {"text": English, "key": K, "args": [...]}, each argument a
// string or, for a sentence inside it, {"key": K, "args": [...]}.
func (e *Encoder) Said(k string, t say.Text) { e.saidAs(k, t.String(), t) }

// saidAs is Said for a sentence whose English, text, is at hand.
func (e *Encoder) saidAs(k, text string, t say.Text) {
	e.Open(k, '{')
	e.Str("text", text)
	e.saidParts(t)
	e.Close('}')
}

func (e *Encoder) saidParts(t say.Text) {
	e.Str("key", t.Key)
	e.Open("args", '[')
	for _, a := range t.Args {
		switch v := a.(type) {
		case say.Text:
			e.Open("", '{')
			e.saidParts(v)
			e.Close('}')
		case string:
			e.Str("", v)
		default:
			e.Str("", "?")
		}
	}
	e.Close(']')
}

// Answer writes what a command printed: {"lines": [...]}, with
// "omitted": N when lines holds only the first of them, "said": [[i,
// sentence], ...] for the lines the engine says as data (Result.Said;
// the sentence as Said writes it), "explain": [[i, sentence], ...] for
// the lines that show a reply of RabbitMQ's whose meaning the engine says
// (Result.Explain: a sentence of the widget's catalogs, its text empty),
// and "cut": N when the time budget stopped the command
// after N events (Result.Cut).
func Answer(r engine.Result) string {
	e := &Encoder{}
	e.Open("", '{')
	lines := r.Lines
	if lines == nil {
		lines = []string{}
	}
	e.Strs("lines", lines)
	if r.Omitted > 0 {
		e.Int("omitted", int64(r.Omitted))
	}
	if len(r.Said) > 0 {
		e.Open("said", '[')
		for _, l := range r.Said {
			e.Open("", '[')
			e.Int("", int64(l.At))
			e.saidAs("", lines[l.At], l.Text) // the line is the sentence's English
			e.Close(']')
		}
		e.Close(']')
	}
	if len(r.Explain) > 0 {
		e.Open("explain", '[')
		for _, l := range r.Explain {
			e.Open("", '[')
			e.Int("", int64(l.At))
			e.saidAs("", "", l.Text) // the widget's words: no English here (engine/explain.go)
			e.Close(']')
		}
		e.Close(']')
	}
	if r.Cut > 0 {
		e.Int("cut", r.Cut)
	}
	e.Close('}')
	return e.String()
}
