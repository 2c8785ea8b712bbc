package node

import (
	"regexp"
	"testing"
)

// TestPatternAgreesWithRegexp checks the policy pattern matcher against Go's
// regexp (which agrees with PCRE on this subset) over many names.
func TestPatternAgreesWithRegexp(t *testing.T) {
	patterns := []string{`^amq\.`, `.*`, `^ha\.`, `^(a|b)$`, `queue$`, `^pol-min\.`, `^x[0-9]+\.y`, `[^a-c]z`,
		`^(orders|payments)\..*\.dlq$`, `a?b+c*`, `\d\d`, `^\w+$`, `^$`, `(?:ab)+$`, `o.x`, `^a|b$`, `[-a]`, `[a\-z]`, `\s`}
	names := []string{"", "amq.gen-1", "ha.one", "a", "b", "ab", "myqueue", "queue.x", "pol-min.arg", "x12.y", "x.y",
		"az", "dz", "orders.eu.dlq", "payments.dlq", "orders.dlq.x", "abbbc", "c", "12", "a1", "word_1", "ab ab", "ababab",
		"-", "z", "a b", "oox"}
	for _, p := range patterns {
		mine, err := compilePattern(p)
		if err != nil {
			t.Fatalf("%q: %v", p, err)
		}
		ref := regexp.MustCompile(p)
		for _, n := range names {
			if got, want := mine.MatchString(n), ref.MatchString(n); got != want {
				t.Errorf("pattern %q on %q: got %v, want %v", p, n, got, want)
			}
		}
	}
	for _, bad := range []string{`(`, `a)`, `[a`, `*a`, `a\`, `\p{L}`, `[z-a]`} {
		if _, err := compilePattern(bad); err == nil {
			t.Errorf("%q compiled", bad)
		}
	}
}
