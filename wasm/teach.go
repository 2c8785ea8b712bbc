//go:build js && wasm

package main

import "warren/engine"

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
	e := &enc{}
	e.open("", '[')
	for _, m := range v {
		e.open("", '{')
		e.int("event", m.Event)
		e.int("time", m.Time)
		e.str("kind", m.Kind)
		e.str("text", m.Text)
		e.close('}')
	}
	e.close(']')
	return string(e.b)
}
