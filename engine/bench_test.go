package engine

import (
	"testing"

	"warren/engine/script"
)

func mustExec(tb testing.TB, s *Sim, lines ...string) {
	tb.Helper()
	for _, l := range lines {
		cmd, err := script.ParseLine(l, 0)
		if err != nil {
			tb.Fatal(err)
		}
		for _, out := range s.Exec(cmd) {
			if len(out) > 6 && out[:6] == "error:" {
				tb.Fatalf("%s: %s", l, out)
			}
		}
	}
}

// BenchmarkTransientCycle publishes, delivers and acks transient messages
// through reader, channel, queue, channel, writer and back, on one queue
// and one scheduler; it reports simulated messages per second of wall time.
func BenchmarkTransientCycle(b *testing.B) {
	s := New(Options{DiscardTrace: true})
	mustExec(b, s,
		"queue.declare queue=bench",
		"basic.qos prefetch=200 on=c2.1",
		"basic.consume queue=bench tag=c on=c2.1 ack-every=1",
	)
	b.ResetTimer()
	for done := 0; done < b.N; {
		n := min(b.N-done, 10_000)
		mustExec(b, s, "basic.publish key=bench size=16 count="+itoa(n))
		done += n
	}
	b.StopTimer()
	if got := s.cluster.ListQueues()[0]; got.Messages != 0 {
		b.Fatalf("queue not drained: %+v", got)
	}
	b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "msgs/s")
}

func itoa(n int) string {
	return script.Itoa(n)
}
