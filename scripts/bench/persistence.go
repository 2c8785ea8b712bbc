package main

// What persistence costs: the two workloads of reference/rabbitmq-observed.md
// section D, on the engine in virtual time and on the broker end to end, and
// the ratio of their throughputs.
//
//	(a) transient: a non-durable queue, transient messages, no confirms,
//	    an auto-ack consumer;
//	(b) persistent: a durable queue, persistent messages, publisher
//	    confirms with at most 100 unconfirmed, a consumer with prefetch 200
//	    that acks each delivery.
//
// The engine's cost table is calibrated so that its (a)/(b) ratio is within
// 25% of the broker's.

import (
	"fmt"
	"strconv"
	"strings"
	"time"

	amqp "github.com/rabbitmq/amqp091-go"

	"warren/engine"
)

// Recorded broker figures, reference/rabbitmq-observed.md section D: the
// medians of nine runs of 100,000 16-byte messages each, on this machine.
const (
	recordedTransient  = 32664.0
	recordedPersistent = 10362.0
)

// persistenceTolerance is how far the engine's ratio may be from the
// broker's, as a share of the broker's.
const persistenceTolerance = 0.25

// persistenceWorkloads are the engine's commands for (a) and (b); each
// ends with the publish whose throughput is read.
var persistenceWorkloads = [2][]string{
	{"set trace=summary", "queue.declare queue=bench", "basic.consume queue=bench tag=c no-ack on=c2.1",
		"basic.publish key=bench size=16 count=%d"},
	{"set trace=summary", "queue.declare queue=bench durable", "basic.qos prefetch=200 on=c2.1",
		"basic.consume queue=bench tag=c on=c2.1 ack-every=1", "confirm.select",
		"basic.publish key=bench size=16 count=%d persistent"},
}

// enginePersistence runs (a) and (b) on fresh simulations and returns each
// one's delivered messages per second of virtual time, as show throughput
// reports it.
func enginePersistence(n int) (transient, persistent float64, err error) {
	var rates [2]float64
	for i, lines := range persistenceWorkloads {
		s := engine.New(engine.Options{DiscardTrace: true})
		for _, l := range lines {
			if strings.Contains(l, "%d") {
				l = fmt.Sprintf(l, n)
			}
			if out := s.Run(l, engine.RunOptions{}).Lines; len(out) > 0 && strings.HasPrefix(out[0], "error:") {
				return 0, 0, fmt.Errorf("%s: %s", l, out[0])
			}
		}
		out := s.Run("show throughput", engine.RunOptions{}).Lines
		if len(out) != 1 {
			return 0, 0, fmt.Errorf("show throughput: %q", out)
		}
		if rates[i], err = deliveredRate(out[0]); err != nil {
			return 0, 0, err
		}
	}
	return rates[0], rates[1], nil
}

// deliveredRate reads R from a show throughput line's `delivered=N (R/s)`.
func deliveredRate(line string) (float64, error) {
	_, rest, ok := strings.Cut(line, " delivered=")
	if ok {
		_, rest, ok = strings.Cut(rest, "(")
	}
	if ok {
		rest, _, ok = strings.Cut(rest, "/s)")
	}
	v, err := strconv.ParseFloat(rest, 64)
	if !ok || err != nil {
		return 0, fmt.Errorf("no delivered rate in %q", line)
	}
	return v, nil
}

// brokerPersistence runs (a) and (b) on the broker at url and returns each
// one's messages per second end to end.
func brokerPersistence(url string, n int) (transient, persistent float64, err error) {
	if transient, err = brokerMode(url, n, false); err != nil {
		return 0, 0, err
	}
	persistent, err = brokerMode(url, n, true)
	return transient, persistent, err
}

// brokerMode runs one workload: (b) when persistent is set, else (a).
func brokerMode(url string, n int, persistent bool) (float64, error) {
	c, err := dialPair(url, url)
	if err != nil {
		return 0, err
	}
	defer c.close()
	pub, con := c.pub, c.con
	const q = "warren.bench.persistence"
	if _, err := pub.QueueDelete(q, false, false, false); err != nil {
		return 0, err
	}
	if _, err := pub.QueueDeclare(q, persistent, false, false, false, nil); err != nil {
		return 0, err
	}
	defer pub.QueueDelete(q, false, false, false)
	if persistent {
		if err := con.Qos(200, 0, false); err != nil {
			return 0, err
		}
	}
	deliveries, err := con.Consume(q, "bench", !persistent, false, false, false, nil)
	if err != nil {
		return 0, err
	}
	msg := amqp.Publishing{Body: make([]byte, 16)}
	var window chan struct{} // a token per unconfirmed publish, at most 100
	if persistent {
		msg.DeliveryMode = amqp.Persistent
		if err := pub.Confirm(false); err != nil {
			return 0, err
		}
		window = make(chan struct{}, 100)
		confirms := pub.NotifyPublish(make(chan amqp.Confirmation, 100))
		go func() {
			for range confirms {
				<-window
			}
		}()
	}
	start := time.Now()
	if err := pump(pub, q, msg, n, deliveries, persistent, window); err != nil {
		return 0, err
	}
	return float64(n) / time.Since(start).Seconds(), nil
}

// printPersistence prints the engine's ratio and the broker's recorded one
// and, when measure is set and the broker at url answers, the broker's
// ratio measured now, each with whether the engine's is within
// persistenceTolerance of it. On a machine that others are loading the
// measured figures fall (transient ones most) and the recorded ones, from
// a quiet machine, are the calibration's reference.
func printPersistence(url string, engineN, brokerN int, measure bool) error {
	et, ep, err := enginePersistence(engineN)
	if err != nil {
		return err
	}
	engineRatio := et / ep
	fmt.Printf("engine: transient %.0f msgs/s, persistent with confirms %.0f msgs/s of virtual time (%d messages each): persistent/transient cost ratio %.2f\n",
		et, ep, engineN, engineRatio)
	verdict := func(bt, bp float64, source string) {
		brokerRatio := bt / bp
		fmt.Printf("rabbitmq: transient %.0f msgs/s, persistent with confirms %.0f msgs/s end to end (%s): persistent/transient cost ratio %.2f\n",
			bt, bp, source, brokerRatio)
		off := engineRatio/brokerRatio - 1
		within := "yes"
		if off > persistenceTolerance || off < -persistenceTolerance {
			within = "no"
		}
		fmt.Printf("engine/rabbitmq persistence ratio: %.2f against %.2f %s (%+.0f%%), within 25%%: %s\n",
			engineRatio, brokerRatio, strings.Fields(source)[0], off*100, within)
	}
	verdict(recordedTransient, recordedPersistent, "recorded in reference/rabbitmq-observed.md section D, medians of 9 runs")
	if measure {
		t, p, err := brokerPersistence(url, brokerN)
		if err != nil {
			fmt.Printf("rabbitmq: persistence not measured (%v)\n", err)
			return nil
		}
		verdict(t, p, fmt.Sprintf("measured now, %d messages each", brokerN))
	}
	return nil
}
