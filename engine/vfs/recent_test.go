package vfs

import (
	"strconv"
	"strings"
	"testing"
)

// TestRecentKeepsTheLastOperations: the ring keeps the last RecentChanges
// operations, oldest first, and says which failed and why.
func TestRecentKeepsTheLastOperations(t *testing.T) {
	m := NewMemFS()
	m.SetTracing(false)
	m.KeepRecent(true)
	m.MkdirAll("q")
	f := mustCreate(t, m, "q/0.qi")
	for i := 0; i < RecentChanges+5; i++ {
		f.Write([]byte("entry" + strconv.Itoa(i%10)))
	}
	if err := m.SetFault(FaultSyncFail, "*.qi"); err != nil {
		t.Fatal(err)
	}
	if err := f.Sync(); err == nil {
		t.Fatal("a faulted sync succeeded")
	}
	ops := m.Recent()
	if len(ops) != RecentChanges {
		t.Fatalf("%d operations kept, want %d", len(ops), RecentChanges)
	}
	if got, want := ops[len(ops)-1].String(), "fsync q/0.qi failed: eio"; got != want {
		t.Errorf("last: %q, want %q", got, want)
	}
	if got, want := ops[len(ops)-2].String(), "write q/0.qi 6@"+strconv.Itoa(6*(RecentChanges+4)); got != want {
		t.Errorf("the write before it: %q, want %q", got, want)
	}
	for _, o := range ops[:len(ops)-1] {
		if !strings.HasPrefix(o.String(), "write q/0.qi 6@") {
			t.Errorf("kept an older operation: %q", o.String())
		}
	}
	m.ClearFaults()
	if err := m.SetFault(FaultENOSPC, "*.qi"); err != nil {
		t.Fatal(err)
	}
	f.Write([]byte("more"))
	if got := m.Recent()[RecentChanges-1].String(); !strings.HasSuffix(got, "failed: enospc") {
		t.Errorf("a write to a full disk: %q", got)
	}
}
