package jsonenc

import "warren/engine/say"

// Said writes a sentence of the engine's as data the widget says in any
// language: {"text": English, "key": K, "args": [...]}, each argument a
// string or, for a sentence inside it, {"key": K, "args": [...]}.
func (e *Encoder) Said(k string, t say.Text) {
	e.Open(k, '{')
	e.Str("text", t.String())
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
