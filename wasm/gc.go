//go:build js && wasm

package main

import (
	"runtime"
	"runtime/debug"
)

// How the browser build collects garbage: at Go's pace with GOGC=200, a
// collection each time the heap has grown to three times what the last
// one found live; and, between calls, when the worker has nothing to do
// (idle), which most often collects before a call would have to.
//
// NB: a measured choice. Natively the collector marks on the second core
// while the engine runs; under wasm it marks on the program's one thread,
// and while it marks, every pointer the engine writes takes the write
// barrier's slow path, so each collection inside a call costs that call.
// Under Node, with the engine as it is now, the browser bench's
// 20,000-message recorded command (a small heap) took 186-189 ms with no
// collection but under a 52 MB limit, 200-202 ms at GOGC=200 and about
// 280 ms at Go's default GOGC=100 (interleaved runs); the backlog
// spiral's first block (964,000 events, 125 MB live) took 5.9 s at
// GOGC=200, 6.3-6.6 s at GOGC=100, and 9.7-9.9 s under the 52 MB limit,
// which the live heap outgrew inside one call, so that the collector ran
// again and again (TestALongCallDoesNotCollectOverAndOver).
//
// NB: there is no memory limit. One that follows the live heap can only
// be set between calls, or from a finalizer: in a call that ran long
// enough for the collector to run in it, such a finalizer changed the
// limit in the middle of the call, and the call never returned; a seek in
// "One node's alarm blocks the other's publishers" spun its worker for
// minutes (TestLongCallsReturnUnderTheCollector). A limit set between
// calls is outgrown inside one, as above.
const gcPercent = 200

// tuneGC sets the collector's pace.
func tuneGC() { debug.SetGCPercent(gcPercent) }

// heapNow reads the heap as idle weighs it: its objects now (live and
// dead), the heap at which the next collection starts, and the live heap
// the last collection found, which set that goal (it is live × (1 +
// gcPercent/100); a tiny heap's goal is Go's least, a few MB, and its
// live heap reads larger than it is, which only makes idle wait longer).
// runtime.ReadMemStats rather than runtime/metrics, which costs the
// browser build 23 kB of code for its table of metrics.
func heapNow() (live, objects, goal uint64) {
	var m runtime.MemStats
	runtime.ReadMemStats(&m)
	return m.NextGC * 100 / (100 + gcPercent), m.HeapAlloc, m.NextGC
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
	return true
}

// gcDue says whether idle would collect now, and if so forgets freed.
func gcDue() bool {
	live, objects, goal := heapNow()
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
		collecting = false
	}()
	return true
}
