// Package nodetest finds Node for the tests that run the widget's
// JavaScript modules under it.
package nodetest

import (
	"os"
	"os/exec"
	"testing"
)

// Path returns the path of node. Without it the test fails under CI
// (CI=true), which must run every test, and is skipped elsewhere; what
// names the tests that need it, for the message.
func Path(t testing.TB, what string) string {
	t.Helper()
	node, err := exec.LookPath("node")
	if err == nil {
		return node
	}
	if os.Getenv("CI") == "true" {
		t.Fatalf("node is missing: CI must run %s (apt-get install nodejs)", what)
	}
	t.Skipf("skipping %s: node is missing (apt-get install nodejs); under CI=true this fails", what)
	return ""
}
