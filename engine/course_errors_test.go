package engine

import (
	"slices"
	"strings"
	"testing"
)

// run executes lines on s and returns the output of the last one.
func runLines(t *testing.T, s *Sim, lines ...string) []string {
	t.Helper()
	var out []string
	for _, l := range lines {
		out = s.runLine(l)
		for _, o := range out {
			if strings.HasPrefix(o, "error:") {
				t.Fatalf("%s: %s", l, o)
			}
		}
	}
	return out
}

// TestShowCreditMsgStoreLink: the queue's link to the message store is
// counted against msg_store_credit_disc_bound's 4000, not the 400 of the
// links between channels and queues.
func TestShowCreditMsgStoreLink(t *testing.T) {
	s := New(Options{Record: true})
	out := runLines(t, s, "queue.declare queue=q durable",
		"submit basic.publish key=q size=5000 persistent count=500", "run ms=3", "show credit")
	var store string
	for _, l := range out {
		if strings.Contains(l, "-> msg_store_persistent") {
			store = l
		}
	}
	if !strings.HasPrefix(store, "credit queue q -> msg_store_persistent ") || !strings.HasSuffix(store, "/4000") {
		t.Errorf("the queue's link to the message store: got %q, want it counted against /4000\n%s", store, strings.Join(out, "\n"))
	}
	if !slices.ContainsFunc(out, func(l string) bool {
		return strings.HasPrefix(l, "credit channel c1.1 -> queue q ") && strings.HasSuffix(l, "/400")
	}) {
		t.Errorf("the channel's link to the queue should stay /400:\n%s", strings.Join(out, "\n"))
	}
}

// TestExpectSawOnConnection: blocked is a connection's line, and
// `expect on=c1 saw=blocked` checks for it as its usage says.
func TestExpectSawOnConnection(t *testing.T) {
	s := New(Options{Record: true})
	if got := s.runLine("expect on=c1 saw=blocked"); len(got) != 1 || !strings.HasPrefix(got[0], "goal not met: c1 saw blocked") {
		t.Fatalf("before any alarm: %v", got)
	}
	runLines(t, s, "queue.declare queue=q", "alarm set=memory", "basic.publish key=q body=x", "run ms=10")
	if got := s.runLine("expect on=c1 saw=blocked"); len(got) != 1 || got[0] != "goal met: c1 saw blocked" {
		t.Errorf("after the alarm blocked c1: %v", got)
	}
	if got := s.runLine("expect on=c2 saw=blocked"); len(got) != 1 || !strings.HasPrefix(got[0], "goal not met") {
		t.Errorf("c2 never connected: %v", got)
	}
}

// TestDeclareWaitsForRAMNodes: a metadata change is an mnesia
// sync_transaction, which commits on every node holding the tables, RAM
// nodes included: a declaration in a cluster of a disc node and a RAM node
// waits a round trip over the link.
func TestDeclareWaitsForRAMNodes(t *testing.T) {
	declared := func(cluster string) string {
		s := New(Options{Record: true})
		runLines(t, s, cluster, "set trace=summary", "submit queue.declare queue=slow")
		for i := 0; i < 20; i++ {
			for _, l := range s.runLine("step") {
				if strings.Contains(l, "declare-ok") {
					return s.runLine("show clock")[0]
				}
			}
		}
		t.Fatalf("%s: no declare-ok", cluster)
		return ""
	}
	alone := declared("set schedulers=1")
	ram := declared("cluster nodes=2 ram=1 link-us=2000")
	disc := declared("cluster nodes=2 link-us=2000")
	if ram != disc {
		t.Errorf("a RAM peer should be waited for as a disc peer is: with a RAM node %q, with a disc node %q (alone %q)", ram, disc, alone)
	}
	if ram == alone {
		t.Errorf("with a RAM node the declaration did not wait: %q, alone %q", ram, alone)
	}
}
