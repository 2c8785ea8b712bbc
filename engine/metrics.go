package engine

import (
	"fmt"
	"strconv"
	"strings"

	"warren/engine/say"
)

// SampleInterval is the width of one metrics bucket in virtual µs.
const SampleInterval = 100_000

// maxSamples bounds the series kept (the oldest are dropped).
const maxSamples = 3000

// Sample is the node over one interval of virtual time: rates per second,
// and gauges at its end.
type Sample struct {
	Time      int64     `json:"time"` // end of the interval, virtual µs
	Publish   float64   `json:"publish"`
	Deliver   float64   `json:"deliver"`
	Ack       float64   `json:"ack"`
	Confirm   float64   `json:"confirm"`
	Depth     int       `json:"depth"` // ready + unacked over all queues
	Memory    int64     `json:"memory"`
	Scheduler []float64 `json:"scheduler"` // utilisation of each scheduler, 0..1
}

type metrics struct {
	next    int64 // when the next sample is due
	last    int64 // when the previous one was taken
	prev    [4]int64
	busy    []int64
	samples []Sample
}

// sample records every interval that ended by now. Rates are over the
// whole span since the last sample (idle intervals are filled in so that
// the chart's time axis stays even).
//
// Nothing runs between the intervals one call fills, so the gauges (depth,
// memory) are measured once per call, and the intervals after the first
// are idle: their cost does not grow with the queues, the processes or
// the messages, however long the jump.
func (s *Sim) sample() {
	m := &s.metrics
	now := s.rt.Now()
	if m.next > now {
		return
	}
	depth, memory := s.cluster.Depth(), s.node.Memory()
	st := s.cluster.Stats
	cur := [4]int64{st.Published, st.Delivered, st.Acked, st.Confirmed}
	scheds := s.rt.Schedulers()
	var idle []float64 // the utilisations of an idle interval, shared
	for m.next <= now {
		end := m.next
		smp := Sample{Time: end, Depth: depth, Memory: memory}
		if span := float64(end-m.last) / 1e6; span > 0 {
			smp.Publish = float64(cur[0]-m.prev[0]) / span
			smp.Deliver = float64(cur[1]-m.prev[1]) / span
			smp.Ack = float64(cur[2]-m.prev[2]) / span
			smp.Confirm = float64(cur[3]-m.prev[3]) / span
		}
		if idle != nil {
			smp.Scheduler = idle
		} else {
			smp.Scheduler = make([]float64, len(scheds))
			for i, sc := range scheds {
				prev := int64(0)
				if i < len(m.busy) {
					prev = m.busy[i]
				}
				if end > m.last {
					smp.Scheduler[i] = min(1, float64(sc.Busy-prev)/float64(end-m.last))
				}
			}
			m.busy = m.busy[:0]
			for _, sc := range scheds {
				m.busy = append(m.busy, sc.Busy)
			}
			idle = make([]float64, len(scheds))
		}
		m.prev, m.last = cur, end
		m.samples = append(m.samples, smp)
		if len(m.samples) >= 2*maxSamples {
			// keep the newest in place: no copy of the series per sample
			n := copy(m.samples, m.samples[len(m.samples)-maxSamples:])
			clear(m.samples[n:])
			m.samples = m.samples[:n]
		}
		m.next = end + SampleInterval
		if now-m.next > 10*SampleInterval {
			// a long idle jump: skip ahead, one empty sample marks it
			m.next = now - now%SampleInterval
		}
	}
}

// Samples returns the metrics series so far (the last maxSamples), oldest
// first.
func (s *Sim) Samples() []Sample {
	smp := s.metrics.samples
	return smp[max(0, len(smp)-maxSamples):]
}

var sparks = []rune("▁▂▃▄▅▆▇█")

// sparkline draws values as a row of block characters scaled to their max.
func sparkline(vals []float64) (string, float64) {
	top := 0.0
	for _, v := range vals {
		top = max(top, v)
	}
	var b strings.Builder
	for _, v := range vals {
		i := 0
		if top > 0 {
			i = int(v / top * float64(len(sparks)-1))
		}
		b.WriteRune(sparks[i])
	}
	return b.String(), top
}

// rates prints the last samples as text charts, one line a series, the
// way the management UI draws its rate charts.
func (s *Sim) rates(n int) []string {
	smp := s.Samples()
	if len(smp) > n {
		smp = smp[len(smp)-n:]
	}
	if len(smp) == 0 {
		return []string{"rates: no samples yet (one every 100ms of virtual time)"}
	}
	series := []struct {
		name string
		get  func(Sample) float64
		unit string // its key: con.show.unit.perSecond, msgs, bytes
	}{
		{"publish", func(x Sample) float64 { return x.Publish }, "perSecond"},
		{"deliver", func(x Sample) float64 { return x.Deliver }, "perSecond"},
		{"ack", func(x Sample) float64 { return x.Ack }, "perSecond"},
		{"depth", func(x Sample) float64 { return float64(x.Depth) }, "msgs"},
		{"memory", func(x Sample) float64 { return float64(x.Memory) }, "bytes"},
	}
	whole := func(v float64) string { return strconv.FormatFloat(v, 'f', 0, 64) }
	out := []string{s.sayLine(say.S("con.show.rates", formatTime(smp[0].Time-SampleInterval), formatTime(smp[len(smp)-1].Time), strconv.Itoa(SampleInterval/1000)))}
	for _, sr := range series {
		vals := make([]float64, len(smp))
		for i, x := range smp {
			vals[i] = sr.get(x)
		}
		line, top := sparkline(vals)
		out = append(out, s.sayLine(say.T("con.show.rateRow", fmt.Sprintf("%-8s %s", sr.name, line), whole(top), say.T("con.show.unit."+sr.unit), whole(vals[len(vals)-1]))))
	}
	for i := range smp[len(smp)-1].Scheduler {
		vals := make([]float64, len(smp))
		for k, x := range smp {
			if i < len(x.Scheduler) {
				vals[k] = x.Scheduler[i] * 100
			}
		}
		line, _ := sparkline(append(vals, 100))
		out = append(out, s.sayLine(say.S("con.show.schedRow", fmt.Sprintf("sched%-3d %s", i+1, string([]rune(line)[:len(vals)])), whole(vals[len(vals)-1])+"%")))
	}
	return out
}
