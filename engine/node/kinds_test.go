package node

import "testing"

// TestEveryKindHasAName: each message kind is named in the event views,
// by its constant, not by its position in a list.
func TestEveryKindHasAName(t *testing.T) {
	for k := uint16(1); k < kindCount; k++ {
		if KindName(k) == "?" {
			t.Errorf("message kind %d has no name", k)
		}
	}
	if KindName(0) != "?" || KindName(kindCount) != "?" {
		t.Error("a kind that does not exist has a name")
	}
	if KindName(kStoreSync) != "sync" || KindName(kTimerTTL) != "drop_expired" || KindName(kMemoryCheck) != "update" {
		t.Errorf("the store's sync timer is %q, a queue's TTL timer %q, the memory check %q",
			KindName(kStoreSync), KindName(kTimerTTL), KindName(kMemoryCheck))
	}
}
