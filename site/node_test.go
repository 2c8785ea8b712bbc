package site

import (
	"os"
	"os/exec"
	"testing"
)

// TestWidgetModulesUnderNode runs the unit tests of the widget's DOM-free
// modules (widgettest/, Node's own test runner). Without Node the test
// fails under CI (CI=true) and is skipped elsewhere.
func TestWidgetModulesUnderNode(t *testing.T) {
	node, err := exec.LookPath("node")
	if err != nil {
		if os.Getenv("CI") == "true" {
			t.Fatal("node is missing: CI must run the widget's unit tests (apt-get install nodejs)")
		}
		t.Skip("skipping the widget's unit tests: node is missing (apt-get install nodejs); under CI=true this fails")
	}
	out, err := exec.Command(node, "--test", "widgettest/").CombinedOutput()
	if err != nil {
		t.Fatalf("node --test widgettest/: %v\n%s", err, out)
	}
}
