package order

import (
	"slices"
	"testing"
)

// TestSameOrderAsSlices: the same order as slices.Sort.
func TestSameOrderAsSlices(t *testing.T) {
	s := []string{"queue b", "", "queue a", "Queue", "queue b", "é", "0.rdq", "10.rdq", "2.rdq"}
	want := slices.Clone(s)
	slices.Sort(want)
	if Strings(s); !slices.Equal(s, want) {
		t.Errorf("strings: %q, want %q", s, want)
	}
	n := []int{3, -1, 40, 3, 0, 1 << 40, -7}
	wantN := slices.Clone(n)
	slices.Sort(wantN)
	if Ints(n); !slices.Equal(n, wantN) {
		t.Errorf("ints: %v, want %v", n, wantN)
	}
}
