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
	var ms []struct {
		Event int64  `json:"event"`
		Kind  string `json:"kind"`
		Text  string `json:"text"`
	}
	if err := json.Unmarshal([]byte(str(t, call(t, "markers", id))), &ms); err != nil {
		t.Fatal(err)
	}
	var out int64
	for _, m := range ms {
		if m.Kind == "credit-out" && strings.HasPrefix(m.Text, "reader c1 has used its credit") {
			out = m.Event
			break
		}
	}
	if out == 0 {
		t.Fatalf("no credit-out marker for the reader in %+v", ms)
	}
	call(t, "seek", id, 3)
	if got := str(t, call(t, "narrate", id)); got != "writer c1.1 sends frames to the client" {
		t.Errorf("event 3 narrated as %q", got)
	}
}
