package browser_test

import (
	"fmt"
	"strings"
	"testing"
)

// TestClusterMemory: in a cluster each scheduler is labelled with its node,
// the memory panel has a gauge for each node, and an alarm raised on the second node is named with its node and
// said to block publishers everywhere; the table form lists each node's
// memory. The numbers are the engine's, run natively.
func TestClusterMemory(t *testing.T) {
	b := newBrowser(t)
	b.open("/test-cluster.html")
	snap := native(t, scenarioCluster).Snapshot()
	if len(snap.Nodes) != 2 || len(snap.Nodes[1].Alarms) == 0 || len(snap.Nodes[0].Alarms) != 0 {
		t.Fatalf("the scenario ends with nodes %+v: want the alarm on the second node only", snap.Nodes)
	}
	type panel struct {
		Rows  []string `json:"rows"`
		Badge string   `json:"badge"`
	}
	got := evalJS[panel](b, `(() => {
		const m = `+in("warren-scenario", ".memory")+`;
		return {rows: [...m.querySelectorAll(".meter-row")].map((r) => r.textContent),
			badge: m.querySelector(".badge").textContent};
	})()`)
	want := []string{"rabbit", "rabbit-2"}
	if len(got.Rows) != 2 {
		t.Fatalf("the memory panel has rows %q, want one per node", got.Rows)
	}
	for i, r := range got.Rows {
		mib := fmt.Sprintf("%.0f MiB", float64(snap.Nodes[i].Memory)/(1<<20)) // as formatBytes writes 10 MiB and over
		if !strings.HasPrefix(r, want[i]) || !strings.Contains(r, mib) {
			t.Errorf("memory row %d says %q, want %s with %s", i, r, want[i], mib)
		}
	}
	if got.Badge != "Alarm: memory on rabbit-2@localhost (publishers on every node blocked)" {
		t.Errorf("the alarm badge says %q", got.Badge)
	}
	sched := evalJS[[]string](b, `[...`+in("warren-scenario", ".sched")+`.querySelectorAll(".meter-row .k")].map((k) => k.textContent)`)
	if strings.Join(sched, ",") != "S1 rabbit,S2 rabbit-2" {
		t.Errorf("the schedulers are labelled %q", sched)
	}
	b.shotElement("warren-scenario", "cluster-memory")

	evalJS[bool](b, in("warren-scenario", "button.view")+".click(), true")
	rows := evalJS[[]string](b, `[...`+in("warren-scenario", ".tables")+`.querySelector("table").tBodies[0].rows].map((r) => r.textContent)`)
	var mem []string
	for _, r := range rows {
		if strings.HasPrefix(r, "Memory") || strings.HasPrefix(r, "Alarms") {
			mem = append(mem, r)
		}
	}
	if len(mem) != 3 || !strings.HasPrefix(mem[0], "Memory of rabbit@localhost") || !strings.HasPrefix(mem[1], "Memory of rabbit-2@localhost") ||
		mem[2] != "Alarmsmemory on rabbit-2@localhost" {
		t.Errorf("the node table's memory rows: %q", mem)
	}
	b.noErrors()
}
