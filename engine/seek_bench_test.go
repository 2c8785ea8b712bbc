package engine

import "testing"

// seekRun builds a recorded run of at least minEvents events, as the widget
// records one: a consumer acking every delivery of transient messages.
func seekRun(tb testing.TB, minEvents int64) *Sim {
	tb.Helper()
	s := New(Options{Record: true})
	mustExec(tb, s,
		"queue.declare queue=seek",
		"basic.qos prefetch=200 on=c2.1",
		"basic.consume queue=seek tag=c on=c2.1 ack-every=1",
	)
	for s.Furthest() < minEvents {
		mustExec(tb, s, "basic.publish key=seek size=16 count=2000")
	}
	return s
}

// BenchmarkSeekEvent seeks to the middle and to the end of a run of
// 100,000 events, what scrubbing the widget's timeline costs (the widget's
// goal is under 100 ms in the browser).
func BenchmarkSeekEvent(b *testing.B) {
	s := seekRun(b, 100_000)
	end := s.Furthest()
	for _, c := range []struct {
		name string
		at   int64
	}{{"middle", end / 2}, {"end", end}, {"start", 1}} {
		b.Run(c.name, func(b *testing.B) {
			for b.Loop() {
				if err := s.SeekEvent(c.at); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(b.Elapsed().Seconds()*1000/float64(b.N), "ms/seek")
			b.ReportMetric(float64(end), "events")
		})
	}
}

// TestSeekRunLength keeps seekRun honest: the benchmark's run has the
// events it claims and a seek lands where it was asked to.
func TestSeekRunLength(t *testing.T) {
	if testing.Short() {
		t.Skip("builds a 100,000-event run")
	}
	s := seekRun(t, 100_000)
	end := s.Furthest()
	if end < 100_000 {
		t.Fatalf("run has %d events", end)
	}
	if err := s.SeekEvent(end / 2); err != nil {
		t.Fatal(err)
	}
	if got := s.Snapshot().Events; got != end/2 {
		t.Fatalf("seek to %d landed on %d", end/2, got)
	}
}
