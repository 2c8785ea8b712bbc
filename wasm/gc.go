//go:build js && wasm

package main

import (
	"runtime"
	"runtime/debug"
	"runtime/metrics"
)

// How the browser build collects garbage: not by Go's pace (GOGC off),
// but when the program's memory nears a limit, gcFloor or twice what the
// last collection found live if that is more. The worker no longer calls
// idle between calls (engine-worker.js says why: in Chromium the first
// call after a runtime.GC forced from JavaScript's call now and then never
// answered), so the collections run inside the calls, as seldom as the
// limit allows.
//
// NB: a measured choice. Natively the collector marks on the second core
// while the engine runs; under wasm it marks on the program's one thread,
// concurrently with the engine, and while it marks every pointer the
// engine writes takes the write barrier's slow path. Under Node, the
// browser bench's 20,000-message recorded command took about 250 ms
// without a collection and 420 ms with one; with Go's default pace it had
// three or four. A collection between calls, with nothing else running,
// took 5 to 40 ms. So a call runs with no collection unless it allocates
// most of the room left under the limit. The limit bounds the memory: the
// 100,000-message recorded run of the browser bench ends at about 23 MB
// live, and the wasm memory, which never shrinks, must stay under 64 MB:
// 47 MB with Go's default, 45 MB with idle collections, 55 MB in the
// browser bench without them (at 89c07d5). Past gcFloor/2 live, the
// limit follows the live heap as Go's default does (GOGC=100), so a page
// holding much is never collected more often than by default.
const gcFloor = 52 << 20

// tuneGC sets the collector's pace and, after every collection, the memory
// limit that follows the live heap.
func tuneGC() {
	debug.SetGCPercent(-1)
	debug.SetMemoryLimit(gcFloor)
	armGC()
}

// armGC makes the next collection call followLiveHeap: the finalizer of an
// object nothing holds runs after the collection that finds it dead.
func armGC() {
	runtime.SetFinalizer(&gcSentinel{}, func(*gcSentinel) { followLiveHeap(); armGC() })
}

type gcSentinel struct{ _ *int } // holds a pointer: not a tiny allocation

var liveHeap = []metrics.Sample{{Name: "/gc/heap/live:bytes"}}

// followLiveHeap sets the memory limit to twice the heap the last
// collection found live, or gcFloor if that is more.
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
// and says whether it did. The worker used to call it when it had
// answered and nothing had come since; it no longer does (see above).
// NB: runtime.GC blocks the JavaScript callback that calls it until the
// sweep is done, which may wait for what only a turn of JavaScript's
// event loop gives: a collection between calls must be made otherwise.
func idle() bool {
	metrics.Read(heapNow)
	live, objects, goal := heapNow[0].Value.Uint64(), heapNow[1].Value.Uint64(), heapNow[2].Value.Uint64()
	if !freed && (objects < live+1<<20 || goal > objects && objects-live < (goal-live)/2) {
		return false
	}
	freed = false
	runtime.GC()
	return true
}
