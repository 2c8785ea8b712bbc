//go:build js && wasm

package main

import (
	"encoding/json"
	"os"
	"runtime"
	"runtime/debug"
	"strings"
	"testing"
)

// TestGCLimitFollowsTheLiveHeap: the memory limit is gcFloor while little
// is live, and twice the live heap after an idle collection finds more
// than half of gcFloor live, so that a page holding much never collects
// more often than with Go's default.
func TestGCLimitFollowsTheLiveHeap(t *testing.T) {
	tuneGC()
	defer debug.SetGCPercent(100)
	collect := func() {
		freed = true // as after a destroy: idle collects whatever it finds
		if !idle() {
			t.Fatal("idle did not collect")
		}
	}
	collect()
	if got := debug.SetMemoryLimit(-1); got != gcFloor {
		t.Fatalf("memory limit %d with little live, want gcFloor %d", got, gcFloor)
	}
	held := make([][]byte, 0, 64)
	for range 48 {
		held = append(held, make([]byte, 1<<20))
	}
	collect()
	if got, least := debug.SetMemoryLimit(-1), int64(2*48<<20); got < least {
		t.Fatalf("memory limit %d with 48 MiB live, want at least %d", got, least)
	}
	runtime.KeepAlive(held)
	held = nil
	collect()
	if got := debug.SetMemoryLimit(-1); got != gcFloor {
		t.Fatalf("memory limit %d once the heap is let go, want gcFloor %d", got, gcFloor)
	}
}

// TestALongCallDoesNotCollectOverAndOver: ten calls one after another,
// with no idle moment between them, each adding 10 MiB to the live heap
// and 30 MiB of garbage, collect a few times, not over and over: with a
// limit that only idle moved, the live heap outgrew it and the collector
// ran again and again (51 collections), and the backlog spiral's first
// widget, a script of such calls, took 69 s to open instead of 9.
func TestALongCallDoesNotCollectOverAndOver(t *testing.T) {
	tuneGC()
	defer debug.SetGCPercent(100)
	runtime.GC()
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	held := make([][]byte, 0, 100)
	var sink []byte
	for call := range 10 {
		followLiveHeap() // as the bridge does before every call
		for i := range 10 {
			held = append(held, make([]byte, 1<<20))
			for range 3 * 1024 {
				sink = make([]byte, 1<<10)
			}
			held[call*10+i][0] = sink[0]
		}
	}
	runtime.ReadMemStats(&after)
	runtime.KeepAlive(held)
	if n := after.NumGC - before.NumGC; n > 12 {
		t.Errorf("%d collections in ten calls that grew the live heap to 100 MiB with 300 MiB of garbage", n)
	}
}

// TestLongCallsReturnUnderTheCollector replays what a lesson widget asked
// of its worker, call by call (recorded in Chromium from "One node's
// alarm blocks the other's publishers": its script, its #@when, a step,
// a step back, play, then the slider to the middle), under the browser's
// pace of collection. Each call must return: when the memory limit was
// changed from a finalizer, the seek to the middle never did, and the
// test ran until its timeout.
func TestLongCallsReturnUnderTheCollector(t *testing.T) {
	tuneGC()
	defer debug.SetGCPercent(100)
	data, err := os.ReadFile("testdata/cluster-widget-calls.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	id := 0 // the simulation the recording calls 1
	for i, line := range strings.Split(strings.TrimSpace(string(data)), "\n") {
		var c []any
		if err := json.Unmarshal([]byte(line), &c); err != nil {
			t.Fatalf("line %d: %v", i+1, err)
		}
		name, args := c[0].(string), c[1:]
		for k, a := range args {
			if f, ok := a.(float64); ok {
				args[k] = int(f)
			}
		}
		if name != "create" {
			args[0] = id
		}
		v := call(t, name, args...)
		if e := errorOf(v); e != "" {
			t.Fatalf("line %d, %s: %s", i+1, name, e)
		}
		if name == "create" {
			id = num(t, v)
		}
	}
	call(t, "destroy", id)
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
		if _, err := b.exec(id, l, 10, 0, false, false); err != nil {
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

// gcSink holds what a test allocates, so that the allocation is made.
var gcSink []byte

// TestIdleLeavesACallRoom: once more than half of the heap's room before
// the collector's next collection is used, idle collects, so that the
// next call has room to run in without a collection inside it. The room
// is up to the collector's goal, which the runtime's other memory keeps
// under the memory limit: measured against the limit, idle left calls
// too little room, and a seek that collected inside its call took ten
// times as long.
func TestIdleLeavesACallRoom(t *testing.T) {
	tuneGC()
	defer debug.SetGCPercent(100)
	freed = true
	if !idle() {
		t.Fatal("idle did not collect")
	}
	objects, goal := heapNow()
	limit := uint64(debug.SetMemoryLimit(-1))
	if goal >= limit || objects >= goal {
		t.Fatalf("heap %d, the collector's goal %d, the limit %d", objects, goal, limit)
	}
	// past half of the room to the goal, short of half of the room to
	// the limit
	target := live + ((goal-live)+(limit-live))/4
	gcSink = make([]byte, target-objects)
	gcSink = nil
	if !idle() {
		now, _ := heapNow()
		t.Fatalf("idle did not collect with %d MiB of %d used before the next collection (the limit is %d MiB)", (now-live)>>20, (goal-live)>>20, limit>>20)
	}
}
