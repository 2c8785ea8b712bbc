//go:build js && wasm

package main

import (
	"strconv"
	"strings"

	"warren/engine"
	"warren/engine/jsonenc"
	"warren/engine/say"
)

// fileBytes reads one file of the simulated node's disk for the Files view, at
// the moment shown: the JSON of jsonenc.FileBytes.
func (b *bridge) fileBytes(id int, path string) (string, error) {
	s, err := b.get(id)
	if err != nil {
		return "", err
	}
	f, err := s.FileBytes(path)
	if err != nil {
		return "", err
	}
	return jsonenc.FileBytes(&f), nil
}

// firstEvents finds the moments of a block's #@when lines in one pass
// (engine.FirstEventsWhere): whens holds a line "FROM GOAL" for each, and
// the answer is JSON {"at": [event or -1, ...]}, in their order; when a
// budget stopped the pass, the moments found before it keep their events
// and "error" and "said" say why it stopped.
func (b *bridge) firstEvents(id int, whens string) (string, error) {
	s, err := b.get(id)
	if err != nil {
		return "", err
	}
	var list []engine.When
	for i, l := range strings.Split(whens, "\n") {
		if strings.TrimSpace(l) == "" {
			continue
		}
		from, goal, _ := strings.Cut(l, " ")
		n, err := strconv.ParseInt(from, 10, 64)
		if err != nil {
			return "", say.E("con.whenFrom", strconv.Itoa(i+1), strconv.Quote(from))
		}
		list = append(list, engine.When{Goal: goal, From: n})
	}
	at, err := s.FirstEventsWhere(list)
	var e jsonenc.Encoder
	e.Open("", '{')
	e.Open("at", '[')
	for _, n := range at {
		e.Int("", n)
	}
	e.Close(']')
	if err != nil {
		e.Str("error", err.Error())
		e.Said("said", say.Of(err))
	}
	e.Close('}')
	return e.String(), nil
}
