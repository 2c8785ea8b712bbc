package beam

import "testing"

// TestEventLogKeepsEveryField: events that fit the columns and events that
// do not (a late start, a long cost, a chunk with too many distinct
// tuples) come back as they went in, and truncating drops exactly the
// later ones.
func TestEventLogKeepsEveryField(t *testing.T) {
	var l EventLog
	var want []Event
	at := int64(0)
	for i := int64(1); i <= 3*chunkSize+17; i++ {
		e := Event{N: i, Start: at, End: at + i%7 + 1, Sched: int(i % 4), PID: PID(i%9 + 1), Kind: uint16(i % 30), From: PID(i % 5), Input: i%3 == 0}
		switch i % 1000 {
		case 11:
			e.Start += 1 << 33 // past what a chunk's start column holds
			at = e.Start
		case 12:
			e.End = e.Start + 1<<20
		case 13:
			e.PID = 70_000
		case 14:
			e.Sched = 100
		}
		at = max(at, e.Start) + 3
		l.Add(&e)
		want = append(want, e)
	}
	check := func(n int64) {
		t.Helper()
		if l.Len() != n {
			t.Fatalf("len %d, want %d", l.Len(), n)
		}
		for i := int64(1); i <= n; i++ {
			if got := l.At(i); got != want[i-1] {
				t.Fatalf("event %d: got %+v, want %+v", i, got, want[i-1])
			}
		}
	}
	check(int64(len(want)))
	if len(l.wide) < 10 {
		t.Fatalf("only %d events kept whole: the test misses the wide path", len(l.wide))
	}
	l.Truncate(2*chunkSize + 5)
	want = want[:2*chunkSize+5]
	check(int64(len(want)))
	for i, last := int64(len(want))+1, int64(len(want))+2000; i <= last; i++ {
		e := Event{N: i, Start: at, End: at + 2, PID: 3, Kind: 4, From: 70_001}
		at += 5
		l.Add(&e)
		want = append(want, e)
	}
	check(int64(len(want)))
}
