//go:build js && wasm

package engine

import "testing"

// TestBrowserBuildRefusesAppCommands: the browser build cannot stop, start
// or restart a node (it has no recovery code); it refuses them before the
// clock moves or a pending event runs.
func TestBrowserBuildRefusesAppCommands(t *testing.T) {
	s := New(Options{Record: true})
	mustExec(t, s, "cluster nodes=2", "queue.declare queue=q")
	if _, err := s.Submit("basic.publish key=q body=pending"); err != nil {
		t.Fatal(err)
	}
	refusedChangesNothing(t, s, "stop_app node=2", "not in the browser build")
	refusedChangesNothing(t, s, "start_app node=2", "not in the browser build")
	one := New(Options{Record: true})
	mustExec(t, one, "queue.declare queue=q")
	refusedChangesNothing(t, one, "restart kind=crash", "not in the browser build")
}
