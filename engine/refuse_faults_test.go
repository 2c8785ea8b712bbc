package engine

import (
	"strings"
	"testing"

	"warren/engine/script"
)

// faultSetups are simulations with messages on disk in every kind of
// queue file (a v2 index and store, a v1 index and journal, a lazy queue,
// one message unacknowledged), on one node and in a cluster whose second
// node holds the queues.
var faultSetups = map[string][]string{
	"one node": {
		"connect on=c2 node=1",
		"queue.declare queue=q1 durable x-queue-version=2",
		"queue.declare queue=q2 durable",
		"queue.declare queue=q3 durable x-queue-mode=lazy",
		"basic.publish key=q1 persistent body=m{i} count=40",
		"basic.publish key=q2 persistent body=m{i} count=40",
		"basic.publish key=q3 persistent size=5000 count=10",
		"basic.get queue=q1 on=c2.1",
	},
	"cluster": {
		"cluster nodes=3",
		"connect on=c2 node=2",
		"queue.declare queue=q1 durable x-queue-version=2 on=c2.1",
		"queue.declare queue=q2 durable on=c2.1",
		"queue.declare queue=q3 durable x-queue-mode=lazy on=c2.1",
		"basic.publish key=q1 persistent body=m{i} count=40 on=c2.1",
		"basic.publish key=q2 persistent body=m{i} count=40 on=c2.1",
		"basic.publish key=q3 persistent size=5000 count=10 on=c2.1",
		"basic.get queue=q1 on=c2.1",
	},
}

// faultCommands are one or more lines of every command of the language,
// each valid on both setups (some are refused there, which is the point).
var faultCommands = []string{
	"alarm set=memory", "alarm clear=disk",
	"basic.ack tag=1 on=c2.1", "basic.cancel tag=none", "basic.consume queue=q1 tag=k", "basic.get queue=q2",
	"basic.nack tag=1 on=c2.1", "basic.publish key=q1 persistent body=x", "basic.publish key=q2 persistent size=9000 count=3",
	"basic.qos prefetch=5", "basic.recover requeue on=c2.1", "basic.reject tag=1 on=c2.1",
	"channel.close on=c2.1", "clear_policy name=p", "cluster nodes=2", "confirm.select", "connect on=c3 node=1",
	"connection.close on=c2", "crash queue=q1", "crash queue=q2", "delete_queue queue=q2", "delete_queue queue=q1 if-empty",
	"exchange.bind destination=amq.fanout source=amq.direct key=k", "exchange.declare exchange=e type=fanout durable",
	"exchange.delete exchange=amq.topic", "exchange.unbind destination=amq.fanout source=amq.direct key=k",
	"expect queue=q1 messages=39", "fault clear", "fault write-fail path=*.idx",
	"list_bindings", "list_channels", "list_connections", "list_consumers", "list_exchanges", "list_policies", "list_queues",
	"purge_queue queue=q2", "queue.bind queue=q1 exchange=amq.fanout", "queue.declare queue=q4 durable x-queue-version=2",
	"queue.delete queue=q3", "queue.purge queue=q1", "queue.unbind queue=q1 exchange=amq.fanout",
	"restart kind=clean", "restart kind=crash", "restart kind=power-loss", "run ms=200",
	"set version=3.13", "set watermark=1000", "set_policy name=p pattern=q.* max-length=1", "show files disk",
	"start_app node=2", "step n=5", "stop_app node=2", "stop_app node=1", "submit basic.publish key=q1 persistent",
	"tx.select", "tx.commit", "tx.rollback", "wait ms=50",
	"export_definitions",
	`import_definitions {"queues":[{"name":"q9","vhost":"/","durable":true,"auto_delete":false,"arguments":{}}]}`,
}

// faultPatterns are the queue files a fault can hit.
var faultPatterns = []string{"*.qi", "*.qs", "*.idx", "journal.jif"}

// TestRefusalsUnderFaultsChangeNothing: on one node and in a cluster,
// under every fault kind on every kind of queue file, every command of
// the language either acts or is refused with one error line, and a
// refused one leaves the simulation exactly as it was: its state, its
// history and its trace. (stop_app or restart whose queue cannot sync its
// index as it stops used to say error and still close the connections,
// record the command and move the clock.)
func TestRefusalsUnderFaultsChangeNothing(t *testing.T) {
	kinds := []string{"sync-fail", "write-fail", "enospc"}
	patterns := faultPatterns
	if testing.Short() {
		patterns = patterns[:1]
	}
	names := map[string]bool{}
	for _, l := range faultCommands {
		names[strings.Fields(l)[0]] = true
	}
	for _, n := range script.Names() {
		if !names[n] && n != "show" && n != "expect" {
			t.Errorf("no line of %s among faultCommands", n)
		}
	}
	refusals := 0
	for setup, lines := range faultSetups {
		for _, kind := range kinds {
			for _, pattern := range patterns {
				node := ""
				if setup == "cluster" {
					node = " node=2"
				}
				fault := "fault " + kind + " path=" + pattern + node
				for _, line := range faultCommands {
					s := New(Options{Record: true})
					mustExec(t, s, lines...)
					mustExec(t, s, fault)
					before := wholeState(t, s)
					ops, furthest, trace := len(s.ops), s.Furthest(), len(s.Transcript())
					out := s.runLine(line)
					if len(out) == 0 || !strings.HasPrefix(out[0], "error: ") {
						continue
					}
					refusals++
					where := setup + ", " + fault + ", " + line
					if len(out) != 1 {
						t.Errorf("%s: refused with %d lines: %q", where, len(out), out)
					}
					if after := wholeState(t, s); after != before {
						t.Errorf("%s: %s\nchanged the simulation:\n%s", where, out[0], diffState(before, after))
					} else if len(s.ops) != ops || s.Furthest() != furthest || len(s.Transcript()) != trace {
						t.Errorf("%s: %s\nchanged the history", where, out[0])
					}
					// the next command sees nothing of the refused one
					if got := s.runLine("list_connections"); len(got) > 0 && strings.Contains(strings.Join(got, "\n"), "closed") {
						t.Errorf("%s: the next command printed %q", where, got)
					}
				}
			}
		}
	}
	if refusals == 0 {
		t.Fatal("no command was refused under a fault")
	}
	t.Logf("%d refusals", refusals)
}
