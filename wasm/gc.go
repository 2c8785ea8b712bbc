//go:build js && wasm

package main

import (
	"runtime"
	"runtime/debug"
	"runtime/metrics"
)

// How the browser build collects garbage: not by Go's pace (GOGC off),
// but when the program's memory nears a limit, gcFloor or twice what the
// last collection found live if that is more; and, between calls, when
// the worker has nothing to do (idle).
//
// NB: a measured choice. Natively the collector marks on the second core
// while the engine runs; under wasm it marks on the program's one thread,
// concurrently with the engine, and while it marks every pointer the
// engine writes takes the write barrier's slow path. Under Node, the
// browser bench's 20,000-message recorded command took about 250 ms
// without a collection and 420 ms with one; with Go's default pace it had
// three or four. A collection between calls, with nothing else running,
// took 5 to 40 ms. So a call runs with no collection unless it allocates
// most of the room left under the limit, and the collections are done
// when the worker is idle. The limit bounds the memory: the
// 100,000-message recorded run of the browser bench ends at about 23 MB
// live, and the wasm memory, which never shrinks, must stay under 64 MB:
// 47 MB with Go's default, 45 MB with this. Past gcFloor/2 live, the
// limit follows the live heap as Go's default does (GOGC=100), so a page
// holding much is never collected more often than by default.
//
// NB: the limit follows the live heap only after idle's collections,
// which run between calls. It was once set from a finalizer, after any
// collection: in a call that ran long enough for the collector to run in
// it, that finalizer changed the limit (which stops the world) in the
// middle of the call, and the call never returned; a seek in "One node's
// alarm blocks the other's publishers" spun its worker for minutes
// (TestLongCallsReturnUnderTheCollector). A call that outgrows the limit
// now has collections more often until it returns, at most half its time
// (Go's limiter of the collector's share), and none after.
const gcFloor = 52 << 20

// tuneGC sets the collector's pace: no collection by Go's pace, and one
// when the program's memory nears gcFloor.
func tuneGC() {
	debug.SetGCPercent(-1)
	debug.SetMemoryLimit(gcFloor)
}

var liveHeap = []metrics.Sample{{Name: "/gc/heap/live:bytes"}}

// followLiveHeap sets the memory limit to twice the heap the last
// collection found live, or gcFloor if that is more. It is called after
// idle's collections, between calls.
func followLiveHeap() {
	metrics.Read(liveHeap)
	debug.SetMemoryLimit(int64(max(gcFloor, 2*liveHeap[0].Value.Uint64())))
}

// heapNow is what idle reads: the live heap as the last collection found
// it, the heap's objects now (live and dead), and the heap at which the
// next collection starts.
var heapNow = []metrics.Sample{{Name: "/gc/heap/live:bytes"}, {Name: "/memory/classes/heap/objects:bytes"}, {Name: "/gc/heap/goal:bytes"}}

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
func gcDue() bool {
	metrics.Read(heapNow)
	live, objects, goal := heapNow[0].Value.Uint64(), heapNow[1].Value.Uint64(), heapNow[2].Value.Uint64()
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
