package engine

import "testing"

// BenchmarkSnapshotFiles takes the widget's snapshot of a node whose disk
// holds about 30 MB: a version 2 queue with 10,000 persistent 1 kB
// messages in its .qs files, and one with 2,000 persistent 8 kB messages
// in the message store. The widget asks for a snapshot after every step,
// and each one lists the files with their entries.
func BenchmarkSnapshotFiles(b *testing.B) {
	s := New(Options{})
	mustExec(b, s,
		"queue.declare queue=small durable x-queue-version=2",
		"queue.declare queue=large durable x-queue-version=2",
		"confirm.select on=c1.1",
		"basic.publish key=small size=1024 persistent count=10000",
		"basic.publish key=large size=8192 persistent count=2000",
		"run",
	)
	var size, entries int64
	for _, f := range s.Snapshot().Files {
		size += f.Size
		entries += int64(f.Entries)
	}
	if size < 25_000_000 || entries < 12_000 {
		b.Fatalf("the disk holds %d bytes in %d entries", size, entries)
	}
	for b.Loop() {
		s.Snapshot()
	}
	b.ReportMetric(float64(size)/1e6, "MB-on-disk")
	b.ReportMetric(b.Elapsed().Seconds()*1000/float64(b.N), "ms/snapshot")
}
