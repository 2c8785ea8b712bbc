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
	defer debug.SetGCPercent(100)
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

// TestIdleCollectsWhatADestroyedSimulationHeld: the worker's idle call
// collects after a simulation is destroyed (its memory is garbage), and not
// again while little has been allocated since.
func TestIdleCollectsWhatADestroyedSimulationHeld(t *testing.T) {
	tuneGC()
	defer debug.SetGCPercent(100)
	b := newBridge()
	id, err := b.create("")
	if err != nil {
		t.Fatal(err)
	}
	for _, l := range []string{"queue.declare queue=q", "basic.publish key=q size=16 count=2000"} {
		if _, err := b.exec(id, l, 10, 0, false); err != nil {
			t.Fatal(err)
		}
	}
	idle() // what other tests destroyed
	runtime.GC()
	var before runtime.MemStats
	runtime.ReadMemStats(&before)
	if idle() {
		t.Fatal("idle collected with nothing allocated since the last collection")
	}
	b.destroy(id)
	if !idle() {
		t.Fatal("idle did not collect after a simulation was destroyed")
	}
	var after runtime.MemStats
	runtime.ReadMemStats(&after)
	if after.NumGC == before.NumGC || after.HeapAlloc >= before.HeapAlloc {
		t.Fatalf("idle's collection freed nothing: %d GCs, heap %d bytes, before %d GCs, %d bytes", after.NumGC, after.HeapAlloc, before.NumGC, before.HeapAlloc)
	}
	if idle() {
		t.Fatal("idle collected again with nothing allocated since")
	}
}
