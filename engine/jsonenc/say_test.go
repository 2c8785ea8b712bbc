package jsonenc

import (
	"testing"

	"warren/engine/say"
)

// TestSaid: a sentence goes out as its English and its key and
// arguments, a sentence inside it as a key and arguments of its own.
func TestSaid(t *testing.T) {
	e := &Encoder{}
	e.Said("", say.T("engine.ack", "queue q", "channel c1.1", say.S("engine.readyUnacked", "2", "1")))
	want := `{"text":"queue q takes an ack from channel c1.1; 2 ready, 1 unacked","key":"engine.ack","args":["queue q","channel c1.1",{"key":"engine.readyUnacked","args":["2","1"]}]}`
	if got := e.String(); got != want {
		t.Errorf("got\n%s\nwant\n%s", got, want)
	}
}
