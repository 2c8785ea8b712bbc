package engine

import (
	"strconv"
	"strings"
	"testing"
)

// TestPersistenceCostRatio: the cost table makes persistent messages with
// confirms and manual acks cost about three times what transient auto-acked
// ones do, as a real RabbitMQ 3.10.8 broker measured on this machine
// (reference/rabbitmq-observed.md section D: 32,664 against 10,362 msgs/s,
// a ratio of 3.15). The engine's ratio, in virtual time, must be within 25%
// of it; scripts/bench prints both.
func TestPersistenceCostRatio(t *testing.T) {
	rate := func(lines ...string) float64 {
		s := New(Options{DiscardTrace: true})
		for _, l := range lines {
			if out := s.runLine(l); len(out) > 0 && strings.HasPrefix(out[0], "error:") {
				t.Fatalf("%s: %s", l, out[0])
			}
		}
		out := s.runLine("show throughput")
		_, rest, _ := strings.Cut(out[0], " delivered=20000 (")
		v, err := strconv.ParseFloat(strings.TrimSuffix(strings.Fields(rest)[0], "/s)"), 64)
		if err != nil {
			t.Fatalf("show throughput: %q", out)
		}
		return v
	}
	transient := rate("set trace=summary", "queue.declare queue=a", "basic.consume queue=a tag=c no-ack on=c2.1",
		"basic.publish key=a size=16 count=20000")
	persistent := rate("set trace=summary", "queue.declare queue=b durable", "basic.qos prefetch=200 on=c2.1",
		"basic.consume queue=b tag=c on=c2.1 ack-every=1", "confirm.select", "basic.publish key=b size=16 count=20000 persistent")
	const broker = 32664.0 / 10362.0
	got := transient / persistent
	if got < broker*0.75 || got > broker*1.25 {
		t.Errorf("transient %.0f msgs/s, persistent %.0f: ratio %.2f, want within 25%% of the broker's %.2f", transient, persistent, got, broker)
	}
}
