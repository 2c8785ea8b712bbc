package main

// The cross-node hop, measured on the two-node cluster that scripts/broker.sh
// starts: what a message that crosses from one node to another costs the
// broker in CPU time, against the same message staying on one node.
//
// Each run publishes through rabbit@localhost. Locally the queue and its
// consumer are on rabbit@localhost too; remotely both are on
// rabbit-2@localhost, so every message crosses once, from the publisher's
// channel to the queue. The cost is the CPU time (user and system, from
// /proc) both nodes' VMs spent during the run, per message. Scheduler wall
// time would not do: on a machine where the nodes and the client share two
// cores, a scheduler the OS preempts counts as busy. The engine models a
// crossing as Costs.DistHop charged to the sender and again to the
// receiver.

import (
	"fmt"
	"os"
	"os/exec"
	"slices"
	"strconv"
	"strings"

	amqp "github.com/rabbitmq/amqp091-go"

	"warren/engine"
)

var hopNodes = [2]string{"rabbit@localhost", "rabbit-2@localhost"}

// beamPid is the OS process of a node's Erlang VM.
func beamPid(node string) (int, error) {
	out, err := exec.Command("rabbitmqctl", "-q", "-n", node, "eval", "os:getpid().").CombinedOutput()
	if err != nil {
		return 0, fmt.Errorf("rabbitmqctl -n %s eval: %v: %s", node, err, strings.TrimSpace(string(out)))
	}
	return strconv.Atoi(strings.Trim(strings.TrimSpace(string(out)), `"`))
}

// cpuMicros is the CPU time, user and system, that process pid has used.
func cpuMicros(pid int) (float64, error) {
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		return 0, err
	}
	// the fields after the command name, which is in parentheses
	f := strings.Fields(string(b[strings.LastIndexByte(string(b), ')')+1:]))
	if len(f) < 13 {
		return 0, fmt.Errorf("/proc/%d/stat: %q", pid, b)
	}
	utime, err1 := strconv.ParseInt(f[11], 10, 64)
	stime, err2 := strconv.ParseInt(f[12], 10, 64)
	if err1 != nil || err2 != nil {
		return 0, fmt.Errorf("/proc/%d/stat: %q", pid, b)
	}
	const ticks = 100 // USER_HZ on Linux
	return float64(utime+stime) * 1e6 / ticks, nil
}

// hopRun publishes n messages of size bytes through the first node to a
// queue with a consumer on node at (0 or 1), and returns the scheduler µs
// per message both nodes spent.
func hopRun(urls [2]string, pids [2]int, at, n, size int) (float64, error) {
	c, err := dialPair(urls[0], urls[at])
	if err != nil {
		return 0, err
	}
	defer c.close()
	pub, con := c.pub, c.con
	const q = "warren.bench.hop"
	// client-local: the queue lives on the node of the consumer's connection
	if err := freshQueue(con, q); err != nil {
		return 0, err
	}
	defer con.QueueDelete(q, false, false, false)
	deliveries, err := con.Consume(q, "hop", true, false, false, false, nil)
	if err != nil {
		return 0, err
	}
	var before [2]float64
	for i, pid := range pids {
		if before[i], err = cpuMicros(pid); err != nil {
			return 0, err
		}
	}
	if err := pump(pub, q, amqp.Publishing{Body: make([]byte, size)}, n, deliveries, false, nil); err != nil {
		return 0, err
	}
	busy := 0.0
	for i, pid := range pids {
		after, err := cpuMicros(pid)
		if err != nil {
			return 0, err
		}
		busy += after - before[i]
	}
	return busy / float64(n), nil
}

// benchHop measures the hop for each body size: the median of runs runs
// locally and remotely, and what a crossing added.
func benchHop(urls [2]string, n, runs int, sizes []int) error {
	var pids [2]int
	for i, node := range hopNodes {
		pid, err := beamPid(node)
		if err != nil {
			return err
		}
		pids[i] = pid
	}
	for _, size := range sizes {
		var med [2]float64
		for at := range 2 {
			var xs []float64
			for range runs {
				x, err := hopRun(urls, pids, at, n, size)
				if err != nil {
					return err
				}
				xs = append(xs, x)
			}
			slices.Sort(xs)
			med[at] = xs[len(xs)/2]
		}
		fmt.Printf("rabbitmq: %d-byte messages, CPU µs per message on both nodes: %.1f with the queue on the publisher's node, %.1f with it on the other (median of %d runs of %d)\n",
			size, med[0], med[1], runs, n)
		fmt.Printf("rabbitmq: a crossing of a %d-byte message costs %.1f µs, sender and receiver together\n", size, med[1]-med[0])
		local, remote, err := engineHop(n, size)
		if err != nil {
			return err
		}
		fmt.Printf("engine:   %d-byte messages, %.1f µs per message locally, %.1f remotely: a crossing costs %.1f µs\n", size, local, remote, remote-local)
	}
	return nil
}

// engineHop runs the same two workloads on a simulated two-node cluster and
// returns the scheduler µs per message both nodes spent, locally and
// remotely.
func engineHop(n, size int) (local, remote float64, err error) {
	for at := range 2 {
		s := engine.New(engine.Options{DiscardTrace: true})
		lines := []string{"cluster nodes=2", "connect on=c1 node=1", fmt.Sprintf("connect on=c2 node=%d", at+1),
			"queue.declare queue=hop on=c2.1", "basic.consume queue=hop tag=hop no-ack on=c2.1"}
		for _, l := range lines {
			if out := s.Run(l, engine.RunOptions{}).Lines; len(out) > 0 && strings.HasPrefix(out[0], "error:") {
				return 0, 0, fmt.Errorf("%s: %s", l, out[0])
			}
		}
		busy := func() (b int64) {
			for _, sc := range s.Snapshot().Schedulers {
				b += sc.Busy
			}
			return b
		}
		b0 := busy()
		s.Run(fmt.Sprintf("basic.publish key=hop size=%d count=%d", size, n), engine.RunOptions{})
		per := float64(busy()-b0) / float64(n)
		if at == 0 {
			local = per
		} else {
			remote = per
		}
	}
	return local, remote, nil
}
