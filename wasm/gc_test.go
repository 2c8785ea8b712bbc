//go:build js && wasm

package main

import (
	"runtime"
	"runtime/debug"
	"testing"
)

// TestGCLimitFollowsTheLiveHeap: the memory limit is gcFloor while little
// is live, and twice the live heap after a collection finds more than half
// of gcFloor live, so that a page holding much never collects more often
// than with Go's default.
func TestGCLimitFollowsTheLiveHeap(t *testing.T) {
	tuneGC()
	defer debug.SetGCPercent(debug.SetGCPercent(100))
	runtime.GC()
	runtime.GC() // the finalizer of the first runs before the second ends
	runtime.Gosched()
	if got := debug.SetMemoryLimit(-1); got != gcFloor {
		t.Fatalf("memory limit %d with little live, want gcFloor %d", got, gcFloor)
	}
	held := make([][]byte, 0, 64)
	for range 48 {
		held = append(held, make([]byte, 1<<20))
	}
	runtime.GC()
	runtime.GC()
	runtime.Gosched()
	if got, least := debug.SetMemoryLimit(-1), int64(2*48<<20); got < least {
		t.Fatalf("memory limit %d with 48 MiB live, want at least %d", got, least)
	}
	runtime.KeepAlive(held)
	held = nil
	runtime.GC()
	runtime.GC()
	runtime.Gosched()
	if got := debug.SetMemoryLimit(-1); got != gcFloor {
		t.Fatalf("memory limit %d once the heap is let go, want gcFloor %d", got, gcFloor)
	}
}
