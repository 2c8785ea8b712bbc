package engine

import (
	"math"
	"strconv"
	"strings"
	"testing"
)

// movingAverage is rabbit_misc:moving_average, written out again here so
// that the engine's rabbit_queue_consumers accounting is checked against
// the formula, not against itself.
func movingAverage(timeUs, halfLifeUs, next, current float64) float64 {
	w := math.Exp(timeUs * math.Log(0.5) / halfLifeUs)
	return next*(1-w) + current*w
}

// TestConsumerUtilisationFormula: a consumer at its prefetch with a message
// waiting makes the queue inactive; consumer_utilisation then falls as
// rabbit_queue_consumers' moving average with a one-second half-life
// says, and rises again once an ack lets the consumer take messages.
func TestConsumerUtilisationFormula(t *testing.T) {
	s := New(Options{})
	util := func() float64 {
		out := s.runLine("list_queues consumer_utilisation")
		_, v, ok := strings.Cut(out[0], "consumer_utilisation=")
		f, err := strconv.ParseFloat(v, 64)
		if !ok || err != nil {
			t.Fatalf("list_queues: %q", out)
		}
		return f
	}
	start := float64(s.rt.Now())
	s.runLine("queue.declare queue=q")
	s.runLine("basic.qos prefetch=1 on=c2.1")
	s.runLine("basic.consume queue=q tag=c on=c2.1")
	if got := util(); got != 1.0 {
		t.Fatalf("with an idle consumer: %v, want 1.0", got)
	}
	// commands start at the time the last one ended: the publish and the
	// ack below act within a few µs of the times read before them
	blocked := float64(s.rt.Now())
	s.runLine("basic.publish key=q body=a count=2") // the second waits: prefetch 1
	s.runLine("run ms=1000")
	now := float64(s.rt.Now())
	active, inactive := blocked-start, now-blocked
	want := movingAverage(active+inactive, 1e6, active/(active+inactive), 1.0)
	if got := util(); math.Abs(got-want) > 1e-3 || got > 0.6 {
		t.Errorf("after a second at its prefetch: %v, want %.4f", got, want)
	}
	// the ack unblocks the consumer: active again, the average taken
	back := float64(s.rt.Now())
	s.runLine("basic.ack tag=1 on=c2.1")
	avg := movingAverage(back-start, 1e6, (blocked-start)/(back-start), 1.0)
	s.runLine("basic.ack tag=2 on=c2.1")
	s.runLine("run ms=2000")
	now = float64(s.rt.Now())
	want = movingAverage(now-back, 1e6, 1.0, avg)
	if got := util(); math.Abs(got-want) > 1e-3 || got < 0.8 {
		t.Errorf("two seconds after the ack: %v, want %.4f", got, want)
	}
}
