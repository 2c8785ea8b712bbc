package site_test

import (
	"strings"
	"testing"

	"warren/tutorials"
)

// TestPlaygroundTutorials: the playground lists RabbitMQ's six tutorials,
// and each link opens the playground running that tutorial's scenario to
// its end, showing what the engine shows natively.
func TestPlaygroundTutorials(t *testing.T) {
	b := newBrowser(t)
	b.open("/playground/")
	links := evalJS[[]string](b, `[...document.querySelectorAll(".playground-tutorials a")].map(a => a.href)`)
	all := tutorials.All()
	if len(links) != len(all) {
		t.Fatalf("the playground lists %d tutorials, want %d", len(links), len(all))
	}
	for i, tu := range all {
		if !strings.Contains(links[i], "/playground/#w=") {
			t.Fatalf("%s: link %q is not a playground share link", tu.Slug, links[i])
		}
		tab := b.tab()
		tab.open(links[i])
		got := tab.shown("warren-scenario")
		s := native(t, tu.Script())
		if got.End == 0 || got.End != s.Furthest() {
			t.Errorf("%s: the playground ran to event %d, the engine natively to %d", tu.Slug, got.End, s.Furthest())
		}
		ready, _ := want(t, s, got.Pos)
		sameCounts(t, tu.Slug+" ready", got.Ready, ready)
		tab.noErrors()
	}
	b.noErrors()
}
