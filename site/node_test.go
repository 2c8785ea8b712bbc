package site

import (
	"os/exec"
	"testing"

	"warren/internal/nodetest"
)

// TestWidgetModulesUnderNode runs the unit tests of the widget's DOM-free
// modules (widgettest/, Node's own test runner). Without Node the test
// fails under CI (CI=true) and is skipped elsewhere.
func TestWidgetModulesUnderNode(t *testing.T) {
	node := nodetest.Path(t, "the widget's unit tests")
	out, err := exec.Command(node, "--test", "widgettest/").CombinedOutput()
	if err != nil {
		t.Fatalf("node --test widgettest/: %v\n%s", err, out)
	}
}
