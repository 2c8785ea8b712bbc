//go:build js && wasm

package main

import (
	"runtime"
	"runtime/debug"
)

// How the browser build collects garbage: not by Go's pace (GOGC off),
// but when the program's memory nears a limit, gcFloor or twice the live
// heap if that is more; and, between calls, when the worker has nothing
// to do (idle).
//
// NB: a measured choice. Natively the collector marks on the second core
// while the engine runs; under wasm it marks on the program's one thread,
// and while it marks, every pointer the engine writes takes the write
// barrier's slow path, so each collection inside a call costs that call.
// In Chromium, the first widget of "What persistence costs" (301,232
// events, about 22 MB live) ran its script in 3.4 s of the engine's
// time under this limit, with idle's collections between its commands,
// 6.8 s at GOGC=200 and 10.4 s at Go's default GOGC=100. The limit
// bounds the memory, and the wasm memory never shrinks: the
// 100,000-message recorded run of the browser bench ends at about 23 MB
// live and stays under 64 MB.
//
// NB: the limit follows the live heap at the start of every call and
// after idle's collections, never from a finalizer. A finalizer run by a
// collection in the middle of a long call changed the limit there, and
// the call never returned: a seek in "One node's alarm blocks the
// other's publishers" spun its worker for minutes
// (TestLongCallsReturnUnderTheCollector). And a limit that only idle
// moved was outgrown by a script's calls one after another, with no idle
// moment between them: the collector ran again and again
// (TestALongCallDoesNotCollectOverAndOver), and the backlog spiral's
// first widget took 69 s to open instead of 9.
const gcFloor = 52 << 20

// tuneGC sets the collector's pace.
func tuneGC() {
	debug.SetGCPercent(-1)
	debug.SetMemoryLimit(gcFloor)
}

// heapNow is the heap's objects now (live and dead), and the heap size
// the collector starts its next collection at.
func heapNow() (objects, next uint64) {
	var m runtime.MemStats
	runtime.ReadMemStats(&m)
	return m.HeapAlloc, m.NextGC
}

// live is the live heap as the limit was last set from: what idle's last
// collection found, or, after a collection inside a call, the heap at the
// start of the next call, which holds what that collection found and
// what was made since (runtime/metrics would say what it found alone, but
// its table of metrics costs the browser build 9 kB of gzip).
var live uint64

// seenGC is the count of collections live was read after.
var seenGC uint32

// followLiveHeap sets the memory limit to twice the live heap, or gcFloor
// if that is more, once a collection has run since it last did: before
// each call (the bridge calls it), after a collection inside the calls
// before, when the live heap may have grown past what the limit was set
// for; and after idle's collections, when the heap is what they found
// live.
func followLiveHeap() {
	var m runtime.MemStats
	runtime.ReadMemStats(&m)
	if m.NumGC == seenGC {
		return
	}
	seenGC, live = m.NumGC, m.HeapAlloc
	debug.SetMemoryLimit(max(gcFloor, 2*int64(live)))
}

// freed says a simulation was destroyed since the last collection: its
// memory, live then, is garbage now.
var freed bool

// idle collects garbage once more than half of the room before the next
// collection is used, or a simulation was destroyed since the last one,
// and says whether it did.
func idle() bool {
	if !gcDue() {
		return false
	}
	runtime.GC()
	followLiveHeap()
	return true
}

// gcDue says whether idle would collect now, and if so forgets freed.
//
// NB: the room is up to the collector's own goal, not the memory limit:
// the limit counts the runtime's other memory too, so the heap's goal is
// some 10 MB under it. Measured against the limit, "What persistence
// costs" began seeks with its heap 36 MB of a 42 MB goal; a seek that
// made 6 MB then collected inside the call, and took 2.4 s instead of
// 0.2 (TestIdleLeavesACallRoom).
func gcDue() bool {
	objects, goal := heapNow()
	if !freed && (objects < live+1<<20 || goal > objects && objects-live < (goal-live)/2) {
		return false
	}
	freed = false
	return true
}

// collecting says a collection idleCall started has not ended yet.
var collecting bool

// idleCall is idle for JavaScript, which the worker calls when it has
// answered and nothing has come since (engine-worker.js). It decides at
// once and collects in a goroutine of its own, so that the call's own
// goroutine has returned before the collection starts. Go's wasm runtime
// runs that goroutine before it hands control back to JavaScript; if the
// collection must wait for a turn of JavaScript's event loop (a timer),
// JavaScript gets its answer then, and the collection goes on later.
//
// NB: runtime.GC made inside the call itself sometimes wedged the worker
// in Chromium, on the backlog spiral page: the first call after it never
// answered, and the worker spun for minutes (TestHeavyPageProbe). A call
// into Go whose goroutine blocks before it returns leaves JavaScript's
// call and Go's record of it out of step.
func idleCall() bool {
	if collecting || !gcDue() {
		return false
	}
	collecting = true
	go func() {
		runtime.GC()
		followLiveHeap()
		collecting = false
	}()
	return true
}
