package main

import (
	"fmt"
	"slices"
	"strconv"
	"syscall"
	"time"

	"warren/engine"
)

// benchRecorded runs the cycle with every event and trace line recorded,
// as the browser runs it (engine.Options{Record: true}); it returns
// simulated messages per wall second.
func benchRecorded(n int) (float64, error) {
	s, err := cycleSim(engine.Options{Record: true})
	if err != nil {
		return 0, err
	}
	start := time.Now()
	for done := 0; done < n; done += 10_000 {
		s.Run("basic.publish key=bench size=16 count="+strconv.Itoa(min(10_000, n-done)), engine.RunOptions{})
	}
	elapsed := time.Since(start)
	if q := s.Snapshot().Queues[0]; q.Ready+q.Unacked != 0 {
		return 0, fmt.Errorf("queue not drained: %d left", q.Ready+q.Unacked)
	}
	return float64(n) / elapsed.Seconds(), nil
}

func cycleSim(opts engine.Options) (*engine.Sim, error) {
	s := engine.New(opts)
	for _, l := range []string{
		"queue.declare queue=bench",
		"basic.qos prefetch=200 on=c2.1",
		"basic.consume queue=bench tag=c on=c2.1 ack-every=1",
	} {
		if out := s.Run(l, engine.RunOptions{}).Lines; len(out) > 0 && len(out[0]) > 5 && out[0][:6] == "error:" {
			return nil, fmt.Errorf("%s: %s", l, out[0])
		}
	}
	return s, nil
}

// seekFigures records a run of msgs messages, 2,000 a command, and at 10
// points of it (5%, 15%, ... 95% of its events) seeks there from the end
// and steps one event back, then goes back to the end (the slider dragged
// to its end). It returns the times in ms, the run's events and what its
// checkpoints cost.
func seekFigures(msgs int) (seeks, backs, ends []float64, points []int64, end int64, cps engine.CheckpointStats, err error) {
	s, err := cycleSim(engine.Options{Record: true})
	if err != nil {
		return
	}
	for i := 0; i < msgs; i += 2000 {
		s.Run("basic.publish key=bench size=16 count="+strconv.Itoa(min(2000, msgs-i)), engine.RunOptions{})
	}
	end = s.Furthest()
	for k := int64(0); k < 10; k++ {
		at := end * (2*k + 1) / 20
		t0 := time.Now()
		if err = s.SeekEvent(end); err != nil {
			return
		}
		if k > 0 {
			ends = append(ends, time.Since(t0).Seconds()*1000)
		}
		t0 = time.Now()
		if err = s.SeekEvent(at); err != nil {
			return
		}
		seeks = append(seeks, time.Since(t0).Seconds()*1000)
		t0 = time.Now()
		if err = s.StepBack(); err != nil {
			return
		}
		backs = append(backs, time.Since(t0).Seconds()*1000)
		points = append(points, at)
	}
	return seeks, backs, ends, points, end, s.Checkpoints(), nil
}

// printRecorded prints the recorded figures: msgs/s recorded against
// unrecorded (eng), and the seek and step-back times of a
// 100,000-message run.
func printRecorded(n int, eng float64) error {
	cpu0 := cpuSeconds()
	rec, err := benchRecorded(n)
	recCPU := cpuSeconds() - cpu0
	if err != nil {
		return err
	}
	fmt.Printf("engine: the same %d messages recorded as the browser records them (every event and trace line): %.0f msgs/s of wall time, %.2f of unrecorded\n", n, rec, rec/eng)
	fmt.Printf("engine: recorded, it took %.2f s of this process's CPU: %.0f msgs per CPU second\n", recCPU, float64(n)/recCPU)
	seeks, backs, ends, points, end, cps, err := seekFigures(100_000)
	if err != nil {
		return err
	}
	for i := range points {
		fmt.Printf("engine: seek in a 100,000-message run (%d events) to event %d (%d%%): %.1f ms, one step back: %.1f ms\n", end, points[i], 10*i+5, seeks[i], backs[i])
	}
	fmt.Printf("engine: seek median %.1f ms, worst %.1f ms; step back median %.1f ms, worst %.1f ms; back to the end median %.1f ms, worst %.1f ms\n", median(seeks), slices.Max(seeks), median(backs), slices.Max(backs), median(ends), slices.Max(ends))
	fmt.Printf("engine: checkpoints: %d, one every %d events, %.1f MB\n", cps.Count, cps.Interval, float64(cps.Bytes)/1e6)
	return nil
}

func median(v []float64) float64 {
	s := slices.Clone(v)
	slices.Sort(s)
	return (s[(len(s)-1)/2] + s[len(s)/2]) / 2
}

// cpuSeconds is the CPU time this process has used, user and system, on
// every thread: on a shared machine it says what a run cost where wall
// time says also how busy the machine was.
func cpuSeconds() float64 {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return float64(ru.Utime.Nano()+ru.Stime.Nano()) / 1e9
}
