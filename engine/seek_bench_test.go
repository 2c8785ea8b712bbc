package engine

import (
	"slices"
	"strconv"
	"testing"
	"time"
)

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

// msgRun builds the recorded run of the figures: 100,000 messages
// published 2,000 a command to a consumer acking each (about 800,000
// events).
func msgRun(tb testing.TB, msgs int) *Sim {
	tb.Helper()
	s := New(Options{Record: true})
	mustExec(tb, s,
		"queue.declare queue=seek",
		"basic.qos prefetch=200 on=c2.1",
		"basic.consume queue=seek tag=c on=c2.1 ack-every=1",
	)
	for i := 0; i < msgs; i += 2000 {
		mustExec(tb, s, "basic.publish key=seek size=16 count="+strconv.Itoa(min(2000, msgs-i)))
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

// BenchmarkSeek100k is the timeline of a 100,000-message run: at 10
// points (5%, 15%, ... 95% of its events) it seeks there from the end,
// and steps one event back from there. It reports the time of each, the
// median and the worst over the points, and the memory the timeline's
// seek machinery keeps.
func BenchmarkSeek100k(b *testing.B) {
	s := msgRun(b, 100_000)
	end := s.Furthest()
	var seeks, backs []float64
	for b.Loop() {
		seeks, backs = seeks[:0], backs[:0]
		for k := int64(0); k < 10; k++ {
			at := end * (2*k + 1) / 20
			if err := s.SeekEvent(end); err != nil {
				b.Fatal(err)
			}
			t0 := time.Now()
			if err := s.SeekEvent(at); err != nil {
				b.Fatal(err)
			}
			seeks = append(seeks, ms(time.Since(t0)))
			t0 = time.Now()
			if err := s.SeekEvent(at - 1); err != nil {
				b.Fatal(err)
			}
			backs = append(backs, ms(time.Since(t0)))
			if got := s.rt.Events(); got != at-1 {
				b.Fatalf("step back from %d landed on %d", at, got)
			}
		}
	}
	for k := range seeks {
		b.Logf("at %2d%% (event %d): seek %.1f ms, step back %.1f ms", 10*k+5, end*int64(2*k+1)/20, seeks[k], backs[k])
	}
	b.ReportMetric(median(seeks), "ms/seek-median")
	b.ReportMetric(slices.Max(seeks), "ms/seek-max")
	b.ReportMetric(median(backs), "ms/back-median")
	b.ReportMetric(slices.Max(backs), "ms/back-max")
	b.ReportMetric(float64(end), "events")
	cs := s.Checkpoints()
	b.ReportMetric(float64(cs.Bytes)/1e6, "MB-checkpoints")
	b.ReportMetric(float64(cs.Count), "checkpoints")
}

func ms(d time.Duration) float64 { return d.Seconds() * 1000 }

func median(v []float64) float64 {
	s := slices.Clone(v)
	slices.Sort(s)
	if len(s) == 0 {
		return 0
	}
	return (s[(len(s)-1)/2] + s[len(s)/2]) / 2
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
