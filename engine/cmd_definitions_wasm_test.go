//go:build js && wasm

package engine

import "testing"

// TestDefinitionsRefusedInTheBrowser: the browser build refuses both
// commands, says what to do instead, and changes nothing.
func TestDefinitionsRefusedInTheBrowser(t *testing.T) {
	s := New(Options{})
	s.runLine("queue.declare queue=before")
	refusedChangesNothing(t, s, `import_definitions {"queues":[{"name":"a"}]}`, "import_definitions: not in the browser build of warren: drop or paste the definitions file on the scenario editor")
	refusedChangesNothing(t, s, "export_definitions", "export_definitions: not in the browser build")
}
