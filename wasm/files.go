//go:build js && wasm

package main

import "warren/engine/jsonenc"

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

// firstEvent is the first event from event from on at which the goal (an
// expect line) holds, or -1: where a lesson block with a #@when opens.
func (b *bridge) firstEvent(id int, goal string, from int64) (int64, error) {
	s, err := b.get(id)
	if err != nil {
		return 0, err
	}
	n, ok, err := s.FirstEventWhere(goal, from)
	if err != nil {
		return 0, err
	}
	if !ok {
		return -1, nil
	}
	return n, nil
}
