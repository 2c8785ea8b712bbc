package engine

import (
	"runtime"
	"strings"
	"testing"
)

// BenchmarkProbe runs the share-link probes of a script from a stranger,
// once each, and reports the events run and the memory the Go runtime
// took from the system (natively, or under wasm what a tab would hold):
//
//	go test -run X -bench Probe -benchtime 1x ./engine
func BenchmarkProbe(b *testing.B) {
	declares := make([]string, 5000)
	for i := range declares {
		declares[i] = "queue.declare queue=q" + itoa(i)
	}
	for _, p := range []struct {
		name  string
		lines []string
	}{
		{"run", []string{"set watermark=1000000000", "run events=100000000"}},
		{"publish", []string{"basic.publish key=q count=10000000"}},
		{"names", []string{"basic.consume queue=q tag=" + strings.Repeat("t", 1<<20), "queue.declare queue=" + strings.Repeat("q", 1<<20)}},
		{"declare5000", declares},
	} {
		b.Run(p.name, func(b *testing.B) {
			var s *Sim
			for b.Loop() {
				s = New(Options{Record: true})
				for _, l := range p.lines {
					out := s.runLine(l)
					if len(p.lines) < 10 && len(out) > 0 {
						b.Logf("%.50s: %.160s", l, out[len(out)-1])
					}
				}
			}
			var ms runtime.MemStats
			runtime.ReadMemStats(&ms)
			b.ReportMetric(float64(s.rt.Events()), "events")
			b.ReportMetric(float64(ms.Sys>>20), "MB-sys")
		})
	}
}
