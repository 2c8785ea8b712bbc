// Command bench measures how fast the engine simulates RabbitMQ and, when a
// broker is reachable on loopback, how fast that broker does the same work.
//
//	go run ./scripts/bench [-n 200000] [-url amqp://guest:guest@127.0.0.1:5672/]
//	go run ./scripts/bench -hop [-n 50000]
//	go run ./scripts/bench -browser
//	go run ./scripts/bench -pages
//	go run ./scripts/bench -persistence [-persist-n 50000]
//
// The workload is a transient publish-deliver-ack cycle on one queue: one
// publisher connection, one consumer connection with prefetch 200 that
// acknowledges every delivery. For the engine it prints simulated messages
// per second of wall time (and per second of virtual time: what the
// simulated broker would sustain, and per second of the process's CPU,
// which a busy machine disturbs less); for the broker, messages per second end
// to end. The engine's cycle is measured again recorded as the browser
// records it, and a 100,000-message recorded run is sought through at 10
// points. Then the engine's and the broker's throughput ratio of transient
// to persistent messages with confirms (persistence.go), ending with
// `engine/rabbitmq persistence ratio: E against B (+N%), within 25%: yes`;
// without a broker the recorded figures of reference/rabbitmq-observed.md
// section D stand for it. -persistence measures that ratio alone.
//
// -browser measures the widget in Chromium instead (site's
// BenchmarkBrowser, which builds the site and drives /usr/bin/chromium):
// the first widget answering a step after navigation, cold and warm, the
// longest main-thread task on each lesson page, the recorded cycle in
// Chromium and natively and their ratio (the same 20,000-message command
// on both sides, interleaved native then Chromium: two warm-up runs each,
// then five measured runs each, every run printed; the ratio is that of
// the medians, with the best runs' ratio beside it), seek and step-back
// times at 10 points of a 100,000-message run, the memory of its history,
// and the shipped wasm sizes.
//
// -pages reads every lesson page, English and Chinese, in Chromium as a
// reader does (site's BenchmarkLessonPages), at full speed and with the
// CPU slowed fourfold: per widget, a step answered after it came into
// view and its worst seek and step back; per page, the first step
// answered after navigation, the longest main-thread task and the tab's
// memory in all its processes.
package main

import (
	"flag"
	"fmt"
	"os"
	"runtime"
	"strconv"
	"time"

	amqp "github.com/rabbitmq/amqp091-go"

	"warren/engine"
)

func main() {
	n := flag.Int("n", 200_000, "messages per run")
	url := flag.String("url", "amqp://guest:guest@127.0.0.1:5672/", "broker to compare with (loopback only)")
	hop := flag.Bool("hop", false, "measure instead what a message crossing between the two nodes of scripts/broker.sh's cluster costs, on the broker and on the engine")
	url2 := flag.String("url2", "amqp://guest:guest@127.0.0.1:5673/", "with -hop: the second node")
	browser := flag.Bool("browser", false, "measure instead the widget in Chromium (the site's BenchmarkBrowser)")
	pages := flag.Bool("pages", false, "measure instead every lesson page in Chromium, as read, at full speed and with the CPU slowed fourfold (the site's BenchmarkLessonPages; WARREN_BENCH_PAGES and WARREN_BENCH_CPU narrow it)")
	persistence := flag.Bool("persistence", false, "measure only what persistence costs: transient against persistent with confirms, on the engine and the broker, and their ratios")
	persistN := flag.Int("persist-n", 50_000, "messages per persistence run on the broker (the engine runs 20,000)")
	flag.Parse()

	if *persistence {
		if err := printPersistence(*url, 20_000, *persistN, true); err != nil {
			fmt.Fprintln(os.Stderr, "bench:", err)
			os.Exit(1)
		}
		return
	}

	if *pages {
		if err := benchBrowser("-pages", "BenchmarkLessonPages", "6h"); err != nil {
			fmt.Fprintln(os.Stderr, "bench:", err)
			os.Exit(1)
		}
		return
	}

	if *browser {
		if err := benchBrowser("-browser", "BenchmarkBrowser", "20m"); err != nil {
			fmt.Fprintln(os.Stderr, "bench:", err)
			os.Exit(1)
		}
		return
	}

	if *hop {
		if err := benchHop([2]string{*url, *url2}, min(*n, 50_000), 3, []int{16, 8192}); err != nil {
			fmt.Fprintln(os.Stderr, "bench:", err)
			os.Exit(1)
		}
		return
	}

	cpu0 := cpuSeconds()
	eng, virt, err := benchEngine(*n)
	engCPU := cpuSeconds() - cpu0
	if err != nil {
		fmt.Fprintln(os.Stderr, "bench:", err)
		os.Exit(1)
	}
	fmt.Printf("engine: %d transient messages published, delivered and acked in one queue: %.0f msgs/s of wall time (%s, GOMAXPROCS=%d)\n",
		*n, eng, runtime.Version(), runtime.GOMAXPROCS(0))
	fmt.Printf("engine: the simulated node sustains %.0f msgs/s of virtual time on one scheduler\n", virt)
	fmt.Printf("engine: the same cycle took %.2f s of this process's CPU (garbage collection included): %.0f msgs per CPU second\n", engCPU, float64(*n)/engCPU)
	if err := printRecorded(*n, eng); err != nil {
		fmt.Fprintln(os.Stderr, "bench:", err)
		os.Exit(1)
	}

	real, err := benchBroker(*url, min(*n, 100_000))
	if err != nil {
		fmt.Printf("rabbitmq: not measured (%v)\n", err)
	} else {
		fmt.Printf("rabbitmq: %d transient messages published, delivered and acked through amqp091-go: %.0f msgs/s\n", min(*n, 100_000), real)
		fmt.Printf("engine/rabbitmq transient ratio: %.1f\n", eng/real)
	}
	if err := printPersistence(*url, 20_000, *persistN, err == nil); err != nil {
		fmt.Fprintln(os.Stderr, "bench:", err)
		os.Exit(1)
	}
}

// benchEngine runs the cycle on a fresh simulation; it returns simulated
// messages per wall second and per virtual second.
func benchEngine(n int) (wall, virtual float64, err error) {
	s := engine.New(engine.Options{DiscardTrace: true})
	for _, l := range []string{
		"queue.declare queue=bench",
		"basic.qos prefetch=200 on=c2.1",
		"basic.consume queue=bench tag=c on=c2.1 ack-every=1",
	} {
		if out := s.Run(l, engine.RunOptions{}).Lines; len(out) > 0 && len(out[0]) > 5 && out[0][:6] == "error:" {
			return 0, 0, fmt.Errorf("%s: %s", l, out[0])
		}
	}
	const batch = 10_000
	start := time.Now()
	busy0 := s.Snapshot().Schedulers[0].Busy
	for done := 0; done < n; done += batch {
		k := min(batch, n-done)
		s.Run("basic.publish key=bench size=16 count="+strconv.Itoa(k), engine.RunOptions{})
	}
	elapsed := time.Since(start)
	if q := s.Snapshot().Queues[0]; q.Ready+q.Unacked != 0 {
		return 0, 0, fmt.Errorf("queue not drained: %d left", q.Ready+q.Unacked)
	}
	busy := s.Snapshot().Schedulers[0].Busy - busy0
	return float64(n) / elapsed.Seconds(), float64(n) / (float64(busy) / 1e6), nil
}

// benchBroker runs the same cycle on a real broker.
func benchBroker(url string, n int) (float64, error) {
	c, err := dialPair(url, url)
	if err != nil {
		return 0, err
	}
	defer c.close()
	pub, con := c.pub, c.con
	const q = "warren.bench"
	if err := freshQueue(pub, q); err != nil {
		return 0, err
	}
	defer pub.QueueDelete(q, false, false, false)
	if err := con.Qos(200, 0, false); err != nil {
		return 0, err
	}
	deliveries, err := con.Consume(q, "bench", false, false, false, false, nil)
	if err != nil {
		return 0, err
	}
	start := time.Now()
	if err := pump(pub, q, amqp.Publishing{Body: make([]byte, 16)}, n, deliveries, true, nil); err != nil {
		return 0, err
	}
	return float64(n) / time.Since(start).Seconds(), nil
}

// pair is a publisher's connection and a consumer's, with a channel each.
type pair struct {
	pubConn, conConn *amqp.Connection
	pub, con         *amqp.Channel
}

// dialPair opens the publisher's connection to pubURL and the consumer's
// to conURL.
func dialPair(pubURL, conURL string) (*pair, error) {
	c := &pair{}
	var err error
	dial := amqp.Config{Dial: amqp.DefaultDial(2 * time.Second)}
	if c.pubConn, err = amqp.DialConfig(pubURL, dial); err != nil {
		return nil, err
	}
	if c.conConn, err = amqp.DialConfig(conURL, dial); err == nil {
		if c.pub, err = c.pubConn.Channel(); err == nil {
			c.con, err = c.conConn.Channel()
		}
	}
	if err != nil {
		c.close()
		return nil, err
	}
	return c, nil
}

func (c *pair) close() {
	for _, conn := range []*amqp.Connection{c.pubConn, c.conConn} {
		if conn != nil {
			conn.Close()
		}
	}
}

// freshQueue declares an empty non-durable queue, deleting any left over,
// on the node of ch's connection (client-local).
func freshQueue(ch *amqp.Channel, q string) error {
	if _, err := ch.QueueDelete(q, false, false, false); err != nil {
		return err
	}
	_, err := ch.QueueDeclare(q, false, false, false, false, nil)
	return err
}

// pump publishes n copies of msg to q in the background and receives them
// from deliveries, acking each when ack is set. With a window, each
// publish first takes a slot of it (whoever reads the confirms frees them).
func pump(pub *amqp.Channel, q string, msg amqp.Publishing, n int, deliveries <-chan amqp.Delivery, ack bool, window chan struct{}) error {
	go func() {
		for i := 0; i < n; i++ {
			if window != nil {
				window <- struct{}{}
			}
			if pub.Publish("", q, false, false, msg) != nil {
				return
			}
		}
	}()
	timeout := time.After(5 * time.Minute)
	for got := 0; got < n; got++ {
		select {
		case d, ok := <-deliveries:
			if !ok {
				return fmt.Errorf("consumer closed after %d deliveries", got)
			}
			if ack {
				if err := d.Ack(false); err != nil {
					return err
				}
			}
		case <-timeout:
			return fmt.Errorf("timed out after %d deliveries", got)
		}
	}
	return nil
}
