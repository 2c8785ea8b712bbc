//go:build js && wasm

package main

import (
	"encoding/json"
	"strings"
	"testing"
)

// TestBridgeNarrateAndMarkers: the page reads the current event in words
// and the timeline's markers, the credit running out among them.
func TestBridgeNarrateAndMarkers(t *testing.T) {
	if !installed {
		t.Fatal("install failed")
	}
	id := num(t, call(t, "create", `{}`))
	defer call(t, "destroy", id)
	call(t, "exec", id, "queue.declare queue=orders")
	call(t, "exec", id, "submit basic.publish key=orders body=m count=2000")
	call(t, "exec", id, "run ms=100")
	type said struct {
		Text string `json:"text"`
		Key  string `json:"key"`
		Args []any  `json:"args"`
	}
	var ms []struct {
		Event int64  `json:"event"`
		Kind  string `json:"kind"`
		Said  said   `json:"said"`
	}
	if err := json.Unmarshal([]byte(str(t, call(t, "markers", id))), &ms); err != nil {
		t.Fatal(err)
	}
	var out int64
	for _, m := range ms {
		if m.Kind == "credit-out" && strings.HasPrefix(m.Said.Text, "reader c1 has used its credit") && m.Said.Key == "engine.m.creditOut" && m.Said.Args[0] == "reader c1" {
			out = m.Event
			break
		}
	}
	if out == 0 {
		t.Fatalf("no credit-out marker for the reader in %+v", ms)
	}
	call(t, "seek", id, 3)
	var got said
	if err := json.Unmarshal([]byte(str(t, call(t, "narrate", id))), &got); err != nil {
		t.Fatal(err)
	}
	if got.Text != "writer c1.1 sends frames to the client" || got.Key != "engine.sendCommand" || len(got.Args) != 1 || got.Args[0] != "writer c1.1" {
		t.Errorf("event 3 narrated as %+v", got)
	}
}
