//go:build js && wasm

package main

import (
	"runtime"
	"runtime/debug"
	"runtime/metrics"
)

var liveHeap = []metrics.Sample{{Name: "/gc/heap/live:bytes"}}

// gcPercent and gcFloor set how often the garbage collector runs in the
// browser build: it lets the heap grow to five times what the last
// collection found live (GOGC=400) while the program's memory stays under
// gcFloor, and to twice the live heap (Go's default, GOGC=100) past that,
// so that it never collects more often than by default.
//
// NB: a measured choice. Natively the collector marks on the second core
// while the engine runs; under wasm it marks on the program's one thread,
// and while it marks, every pointer the engine writes goes through a write
// barrier. With Go's default it collected three or four times in the
// browser bench's 20,000-message recorded command and marked during most
// of it. Under Node, CPU of that command, median of 9, three interleaved
// rounds: 316-372 ms with Go's default, 230-290 ms with this (floor 48
// MiB: 274-279 ms, 56 MiB: 228-270 ms). The floor bounds the memory: the
// 100,000-message recorded run of the browser bench ends at about 23 MB
// live and the wasm memory, which never shrinks, must stay under 64 MB:
// 47 MB with Go's default, 52-53 MB with this (48 MiB: 48-51, 56 MiB:
// 56-59).
const (
	gcPercent = 400
	gcFloor   = 52 << 20
)

// tuneGC sets the collector's pace and, after every collection, the memory
// limit that follows the live heap.
func tuneGC() {
	debug.SetGCPercent(gcPercent)
	debug.SetMemoryLimit(gcFloor)
	armGC()
}

// armGC makes the next collection call followLiveHeap: the finalizer of an
// object nothing holds runs after the collection that finds it dead.
func armGC() {
	runtime.SetFinalizer(&gcSentinel{}, func(*gcSentinel) { followLiveHeap(); armGC() })
}

type gcSentinel struct{ _ *int } // holds a pointer: not a tiny allocation

// followLiveHeap sets the memory limit to twice the heap the last
// collection found live, or gcFloor if that is more.
func followLiveHeap() {
	metrics.Read(liveHeap[:])
	debug.SetMemoryLimit(int64(max(gcFloor, 2*liveHeap[0].Value.Uint64())))
}
