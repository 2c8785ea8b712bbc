package engine

import (
	"runtime"
	"testing"

	"warren/engine/script"
)

func mustExec(tb testing.TB, s *Sim, lines ...string) {
	tb.Helper()
	for _, l := range lines {
		r := s.Run(l, RunOptions{})
		if r.Err != nil {
			tb.Fatalf("%s: %v", l, r.Err)
		}
		for _, out := range r.Lines {
			if len(out) > 6 && out[:6] == "error:" {
				tb.Fatalf("%s: %s", l, out)
			}
		}
	}
}

// runLine runs a line as the console does and returns what it printed.
func (s *Sim) runLine(line string) []string { return s.Run(line, RunOptions{}).Lines }

// cycle publishes msgs transient messages to a consumer that acks every
// delivery, in commands of at most 10,000 messages.
func cycle(tb testing.TB, s *Sim, msgs int) {
	tb.Helper()
	for done := 0; done < msgs; {
		n := min(msgs-done, 10_000)
		mustExec(tb, s, "basic.publish key=bench size=16 count="+itoa(n))
		done += n
	}
}

func cycleSim(tb testing.TB, opts Options) *Sim {
	tb.Helper()
	s := New(opts)
	mustExec(tb, s,
		"queue.declare queue=bench",
		"basic.qos prefetch=200 on=c2.1",
		"basic.consume queue=bench tag=c on=c2.1 ack-every=1",
	)
	return s
}

// BenchmarkTransientCycle publishes, delivers and acks transient messages
// through reader, channel, queue, channel, writer and back, on one queue
// and one scheduler; it reports simulated messages per second of wall time.
func BenchmarkTransientCycle(b *testing.B) {
	s := cycleSim(b, Options{DiscardTrace: true})
	b.ResetTimer()
	cycle(b, s, b.N)
	b.StopTimer()
	if got := s.cluster.ListQueues()[0]; got.Messages != 0 {
		b.Fatalf("queue not drained: %+v", got)
	}
	b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "msgs/s")
}

// BenchmarkRecordedCycle is the same workload recorded as the browser
// records it: every event kept for the timeline and every trace line kept
// for the transcript.
func BenchmarkRecordedCycle(b *testing.B) {
	s := cycleSim(b, Options{Record: true})
	b.ResetTimer()
	cycle(b, s, b.N)
	b.StopTimer()
	if got := s.cluster.ListQueues()[0]; got.Messages != 0 {
		b.Fatalf("queue not drained: %+v", got)
	}
	b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "msgs/s")
	b.ReportMetric(float64(s.Furthest())/float64(b.N), "events/msg")
}

// BenchmarkRecordedRun100k records the run of BenchmarkSeek100k, 100,000
// messages (about 800,000 events), as the browser does, and reports the heap it keeps and
// the memory the Go runtime took from the system for it: in the browser
// build that is the wasm memory, which never shrinks.
func BenchmarkRecordedRun100k(b *testing.B) {
	var live, sys, peak float64
	for b.Loop() {
		runtime.GC()
		var before runtime.MemStats
		runtime.ReadMemStats(&before)
		s := msgRun(b, 100_000)
		var after runtime.MemStats
		runtime.ReadMemStats(&after)
		peak = float64(after.HeapSys) / 1e6
		runtime.GC()
		runtime.ReadMemStats(&after)
		live = float64(after.HeapAlloc-before.HeapAlloc) / 1e6
		sys = float64(after.Sys) / 1e6
		runtime.KeepAlive(s)
	}
	b.ReportMetric(live, "MB-live")
	b.ReportMetric(peak, "MB-heap-sys")
	b.ReportMetric(sys, "MB-sys")
}

func itoa(n int) string {
	return script.Itoa(n)
}

// BenchmarkRecordedCommand is the browser bench's workload: the recorded
// cycle with 20,000 messages in one command, its output lines printed, as
// the widget's console runs it (b.N counts messages).
func BenchmarkRecordedCommand(b *testing.B) {
	s := cycleSim(b, Options{Record: true})
	const perCommand = 20_000
	b.ResetTimer()
	lines := 0
	for done := 0; done < b.N; done += perCommand {
		lines += len(s.runLine("basic.publish key=bench size=16 count=" + itoa(min(perCommand, b.N-done))))
	}
	b.StopTimer()
	if lines < b.N {
		b.Fatalf("%d lines for %d messages", lines, b.N)
	}
	b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "msgs/s")
}

// BenchmarkBrowserCommand is one run of the browser bench's recorded
// command as the widget's worker makes it: a fresh simulation under the
// browser's time budget, the cycle's set-up lines, then one command of
// 20,000 messages that prints at most the 1,000 lines the worker passes
// on (RunOptions.Most). Natively and under wasm it measures the call
// that the bench times in Chromium.
func BenchmarkBrowserCommand(b *testing.B) {
	for b.Loop() {
		s := browserBenchSim(b)
		r := s.Run("basic.publish key=bench size=16 count=20000", RunOptions{Most: 1000})
		shown, omitted := r.Lines, r.Omitted
		if len(shown)+omitted < 20_000 {
			b.Fatalf("%d lines for 20,000 messages", len(shown)+omitted)
		}
	}
}

// BenchmarkBrowserCommandAllLines is BenchmarkBrowserCommand printing
// every line, as an unbounded Run does.
func BenchmarkBrowserCommandAllLines(b *testing.B) {
	for b.Loop() {
		s := browserBenchSim(b)
		if out := s.runLine("basic.publish key=bench size=16 count=20000"); len(out) < 20_000 {
			b.Fatalf("%d lines for 20,000 messages", len(out))
		}
	}
}

// browserBenchSim is a fresh simulation as the browser bench makes it:
// recorded, under the browser's time budget, with the cycle's set-up
// lines run.
func browserBenchSim(b *testing.B) *Sim {
	s := New(Options{Record: true})
	s.SetTimeBudget(BrowserCommandTime, wallClock)
	mustExec(b, s, "queue.declare queue=bench", "basic.qos prefetch=200 on=c2.1", "basic.consume queue=bench tag=c on=c2.1 ack-every=1")
	return s
}
