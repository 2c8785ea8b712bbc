//go:build js && wasm

package main

import (
	"warren/engine"
	"warren/engine/jsonenc"
)

// narrate says the current event in plain words, for the live region:
// {"text": English, "key": K, "args": [...]} (jsonenc.Said).
func (b *bridge) narrate(id int) (string, error) {
	s, err := b.get(id)
	if err != nil {
		return "", err
	}
	e := &jsonenc.Encoder{}
	e.Said("", s.NarrateNow())
	return e.String(), nil
}

// markers lists the timeline's markers:
// [{"event": N, "time": µs, "kind": "...", "said": {...}}, ...], said as
// jsonenc.Said writes it.
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
		e.Said("said", m.Say)
		e.Close('}')
	}
	e.Close(']')
	return e.String()
}
