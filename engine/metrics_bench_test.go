package engine

import (
	"strconv"
	"testing"
)

// BenchmarkDeclareQueues declares queues one command each, as a script of
// 5,000 queue.declare lines does: one op is one declaration, so ns/op
// stays flat when a command costs the same whatever the number of queues
// (every command runs 150 ms of virtual time, a metrics sample each
// 100 ms).
func BenchmarkDeclareQueues(b *testing.B) {
	for _, record := range []bool{false, true} {
		name := "plain"
		if record {
			name = "recorded"
		}
		b.Run(name, func(b *testing.B) {
			s := New(Options{Record: record})
			b.ReportAllocs()
			for i := 0; b.Loop(); i++ {
				s.runLine("queue.declare queue=q" + strconv.Itoa(i))
			}
		})
	}
}
