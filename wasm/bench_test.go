//go:build js && wasm

package main

// Run with: PATH="$(go env GOROOT)/lib/wasm:$PATH" GOOS=js GOARCH=wasm go test -run '^$' -bench . ./wasm

import (
	"strings"
	"testing"
)

// BenchmarkWorkerCommand is the browser bench's recorded command as the
// widget's worker runs it, with the browser build's collector (tuneGC):
// create a simulation, run the cycle's set-up lines, then time exec of
// 20,000 messages printing at most the 1,000 lines the worker passes on;
// destroy it and let the worker's idle call collect, untimed.
func BenchmarkWorkerCommand(b *testing.B) {
	tuneGC()
	br := newBridge()
	b.StopTimer()
	for range b.N {
		id, err := br.create("")
		if err != nil {
			b.Fatal(err)
		}
		for _, l := range []string{"queue.declare queue=bench", "basic.qos prefetch=200 on=c2.1", "basic.consume queue=bench tag=c on=c2.1 ack-every=1"} {
			if _, err := br.exec(id, l, 1000, 0, false, false); err != nil {
				b.Fatal(err)
			}
		}
		b.StartTimer()
		out, err := br.exec(id, "basic.publish key=bench size=16 count=20000", 1000, 0, false, false)
		b.StopTimer()
		if err != nil || !strings.Contains(out, `"omitted":`) {
			b.Fatalf("%.200s %v", out, err)
		}
		br.destroy(id)
		idle()
	}
}
