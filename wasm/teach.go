//go:build js && wasm

package main

import (
	"warren/engine"
	"warren/engine/jsonenc"
)

// narrate says the current event in plain words, for the live region.
func (b *bridge) narrate(id int) (string, error) {
	s, err := b.get(id)
	if err != nil {
		return "", err
	}
	return s.NarrateNow(), nil
}

// markers lists the timeline's markers:
// [{"event": N, "time": µs, "kind": "...", "text": "..."}, ...].
func (b *bridge) markers(id int) (string, error) {
	s, err := b.get(id)
	if err != nil {
		return "", err
	}
	return markersJSON(s.Markers()), nil
}

func markersJSON(v []engine.Marker) string {
	e := &jsonenc.Encoder{}
	e.Open("", '[')
	for _, m := range v {
		e.Open("", '{')
		e.Int("event", m.Event)
		e.Int("time", m.Time)
		e.Str("kind", m.Kind)
		e.Str("text", m.Text)
		e.Close('}')
	}
	e.Close(']')
	return e.String()
}
