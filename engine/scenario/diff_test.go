package scenario

import (
	"strings"
	"testing"
)

func TestUnifiedEqual(t *testing.T) {
	if d := Unified("a", "b", []string{"x", "y"}, []string{"x", "y"}, 3); d != "" {
		t.Errorf("equal inputs gave a diff:\n%s", d)
	}
}

func TestUnified(t *testing.T) {
	a := []string{"1", "2", "3", "4", "5", "6", "7", "8", "9", "10"}
	b := []string{"1", "2", "three", "4", "5", "6", "7", "8", "9", "10", "11"}
	got := Unified("expected", "actual", a, b, 1)
	want := `--- expected
+++ actual
@@ -2,3 +2,3 @@
 2
-3
+three
 4
@@ -10 +10,2 @@
 10
+11
`
	if got != want {
		t.Errorf("got\n%s\nwant\n%s", got, want)
	}
}

func TestUnifiedMergesCloseChanges(t *testing.T) {
	a := []string{"a", "b", "c", "d", "e"}
	b := []string{"a", "B", "c", "D", "e"}
	got := Unified("x", "y", a, b, 1)
	if strings.Count(got, "@@ ") != 1 {
		t.Errorf("changes one line apart should share a hunk:\n%s", got)
	}
	if !strings.Contains(got, "@@ -1,5 +1,5 @@") {
		t.Errorf("hunk header:\n%s", got)
	}
}

func TestUnifiedFromEmpty(t *testing.T) {
	got := Unified("expected", "actual", nil, []string{"error: x"}, 3)
	want := "--- expected\n+++ actual\n@@ -0,0 +1 @@\n+error: x\n"
	if got != want {
		t.Errorf("got %q, want %q", got, want)
	}
	got = Unified("expected", "actual", []string{"gone"}, nil, 3)
	want = "--- expected\n+++ actual\n@@ -1 +0,0 @@\n-gone\n"
	if got != want {
		t.Errorf("got %q, want %q", got, want)
	}
}
