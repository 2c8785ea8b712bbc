package beam

import "testing"

// TestMailboxRingFollowsWhatItHolds: a burst grows a mailbox's ring; as
// it drains, the ring halves whenever it is less than a third full, so
// that what a checkpoint copies stays within three times what the
// mailbox holds, and the messages come out in the order they went in,
// across every resize, pushes and pops mixed.
func TestMailboxRingFollowsWhatItHolds(t *testing.T) {
	var m mailbox
	next, want := int64(0), int64(0)
	push := func(k int) {
		for range k {
			m.push(&Msg{N: next})
			next++
		}
	}
	pop := func(k int) {
		t.Helper()
		for range k {
			if got := m.pop().N; got != want {
				t.Fatalf("popped message %d, want %d", got, want)
			}
			want++
		}
	}
	push(60_000)
	if len(m.buf) != 65536 {
		t.Fatalf("a burst of 60,000 made a ring of %d", len(m.buf))
	}
	for _, left := range []int{40_000, 16_800, 9_000, 2_000, 700} {
		pop(m.len() - left)
		if n := len(m.buf); n > max(3*left, 2*keepRing) {
			t.Errorf("holding %d messages, the ring has %d slots", left, n)
		}
		push(100)
		pop(100)
	}
	pop(m.len())
	if m.buf != nil {
		t.Fatalf("an empty mailbox keeps a ring of %d", len(m.buf))
	}
}
