package boot

import (
	"slices"

	"fmt"
	"path"
	"strings"
	"testing"
	"warren/engine"

	"warren/engine/definitions"
	"warren/engine/store/format"
	"warren/engine/store/inspect"
	"warren/internal/fixtures"
)

// openSnapshot reads a fixture snapshot as a dropped folder.
func openSnapshot(t *testing.T, snap string) *inspect.Folder {
	t.Helper()
	var files []inspect.NamedFile
	for _, f := range fixtures.Dropped(t, snap, "A") {
		files = append(files, inspect.NamedFile(f))
	}
	fo, err := inspect.OpenFolder(files)
	if err != nil {
		t.Fatal(err)
	}
	return fo
}

// summary is what a reader sees of a recovered node: each queue with its
// messages (the body up to its second '-', then the priority and
// redelivered flag when set) and what it lost, and each directory gone.
func summary(n *Node) string {
	var b strings.Builder
	for _, q := range n.Queues {
		fmt.Fprintf(&b, "queue %s", q.Name)
		if q.Assumed {
			b.WriteString(" (assumed durable)")
		}
		b.WriteString(":")
		for _, m := range q.Messages {
			body := string(m.Body)
			if i := strings.Index(body, "-"); i >= 0 {
				if j := strings.Index(body[i+1:], "-"); j >= 0 {
					body = body[:i+1+j+1]
				}
			}
			fmt.Fprintf(&b, " %s", body)
			if m.Props.Has(format.FlagPriority) {
				fmt.Fprintf(&b, "p%d", m.Props.Priority)
			}
			if !m.Redelivered {
				b.WriteString("(first)")
			}
		}
		whys := map[string]int{}
		for _, l := range q.Lost {
			whys[l.Why]++
		}
		for why, k := range whys {
			fmt.Fprintf(&b, "; %d lost: %s", k, why)
		}
		b.WriteString("\n")
	}
	for _, g := range n.Gone {
		fmt.Fprintf(&b, "gone %s (%s, %d messages): %s\n", g.Dir, g.Name, g.Messages, g.Why)
	}
	return b.String()
}

func basic(q string, from int) string {
	var b strings.Builder
	b.WriteString("queue " + q + ":")
	for i := from; i < 20; i++ {
		fmt.Fprintf(&b, " small-%02d-", i)
	}
	for i := 0; i < 5; i++ {
		fmt.Fprintf(&b, " LARGE-%d-", i)
	}
	return b.String() + "\n"
}

// TestRecoverFixtures recovers every RabbitMQ 3.10.8 snapshot with its
// case's definitions and compares what comes back with what a real
// 3.10.8 node recovered from the same files on boot, as each CASE.md
// records under "After a restart (observed)": a durable queue keeps its
// persistent messages that were not acked (25 before the acks, 22 after,
// whether the acks were in the journal or the index already), every one
// redelivered, a priority queue gives them highest priority first, and a
// queue that is not durable does not come back at all.
func TestRecoverFixtures(t *testing.T) {
	transientGone := func(dir, name string, msgs int) string {
		return fmt.Sprintf("gone queues/%s (%s, %d messages): %s\n", dir, name, msgs, WhyNotDurable)
	}
	want := map[string]string{
		"v1-basic/A0": basic("fx.v1", 0),
		"v1-basic/A":  basic("fx.v1", 0),
		"v1-basic/B0": basic("fx.v1", 3),
		"v1-basic/B":  basic("fx.v1", 3),
		"v2-basic/A":  basic("fx.v2", 0),
		"v2-basic/B":  basic("fx.v2", 3),
		// published with priority absent, 1, 2, 3, 0, 2 (CASE.md)
		"v2-priority/A":        "queue fx.prio: prio-03-p3 prio-02-p2 prio-05-p2 prio-01-p1 prio-00- prio-04-p0\n",
		"transient/A":          "",
		"transient-v2/A":       transientGone("BHY2AMU7QJIEUBX9VLUSS98EY", "fx.transient.v2", 0),
		"transient-lazy/A0":    transientGone("2L5V044LOQ13TBZUNX3ONTGDW", "fx.transient.lazy", 7),
		"transient-lazy/A":     transientGone("2L5V044LOQ13TBZUNX3ONTGDW", "fx.transient.lazy", 7),
		"transient-lazy-v2/A0": transientGone("64OT0YCNO3EGP8VWZ39WMOL1E", "fx.transient.lazy.v2", 0),
		"transient-lazy-v2/A":  transientGone("64OT0YCNO3EGP8VWZ39WMOL1E", "fx.transient.lazy.v2", 7),
	}
	snaps := fixtures.Snapshots(t)
	if len(snaps) != len(want) {
		t.Fatalf("%d snapshots %v, the test knows %d", len(snaps), snaps, len(want))
	}
	for _, snap := range snaps {
		t.Run(snap, func(t *testing.T) {
			d, err := definitions.Parse(fixtures.Definitions[path.Dir(snap)])
			if err != nil {
				t.Fatal(err)
			}
			n, err := Recover(openSnapshot(t, snap), d)
			if err != nil {
				t.Fatal(err)
			}
			if got := summary(n); got != want[snap] {
				t.Errorf("recovered:\n%s\nwant:\n%s", got, want[snap])
			}
		})
	}
}

// TestRecoverWithoutDefinitions: without definitions a queue is named by
// its directory's .queue_name and assumed durable, its priorities and
// index version read from its files; a directory without .queue_name is
// named by the directory; a transient message never comes back, and the
// report says why.
func TestRecoverWithoutDefinitions(t *testing.T) {
	n, err := Recover(openSnapshot(t, "v2-priority/A"), nil)
	if err != nil {
		t.Fatal(err)
	}
	if got, want := summary(n), "queue fx.prio (assumed durable): prio-03-p3 prio-02-p2 prio-05-p2 prio-01-p1 prio-00- prio-04-p0\n"; got != want {
		t.Errorf("v2-priority/A:\n%s\nwant:\n%s", got, want)
	}
	if n.Named != "folder" || len(n.Queues) != 1 || len(n.Queues[0].Dirs) != 4 ||
		n.Queues[0].Args.String() != "{x-max-priority=3, x-queue-version=2}" {
		t.Errorf("v2-priority/A: named by %q, queues %+v", n.Named, n.Queues)
	}

	n, err = Recover(openSnapshot(t, "transient-lazy/A"), nil)
	if err != nil {
		t.Fatal(err)
	}
	if got, want := summary(n), "queue fx.transient.lazy (assumed durable):; 7 lost: "+WhyTransient+"\n"; got != want {
		t.Errorf("transient-lazy/A:\n%s\nwant:\n%s", got, want)
	}

	// v2-basic/B without its .queue_name: the directory names the queue
	fo := openSnapshot(t, "v2-basic/B")
	var files []inspect.NamedFile
	for _, f := range fo.Files() {
		if path.Base(f.Path) == ".queue_name" {
			continue
		}
		data, err := fo.Read(f.Path)
		if err != nil {
			t.Fatal(err)
		}
		files = append(files, inspect.NamedFile{Path: f.Path, Data: data})
	}
	fo, err = inspect.OpenFolder(files)
	if err != nil {
		t.Fatal(err)
	}
	n, err = Recover(fo, nil)
	if err != nil {
		t.Fatal(err)
	}
	want := strings.Replace(basic("4OY5891YZFXPTW9JTXY2VNWGS", 3), ":", " (assumed durable):", 1)
	if got := summary(n); got != want {
		t.Errorf("v2-basic/B without .queue_name:\n%s\nwant:\n%s", got, want)
	}

	// definitions that name another queue: the directory is deleted
	d, err := definitions.Parse(`{"queues":[{"name":"other","durable":true}]}`)
	if err != nil {
		t.Fatal(err)
	}
	n, err = Recover(openSnapshot(t, "v2-basic/B"), d)
	if err != nil {
		t.Fatal(err)
	}
	if got, want := summary(n), "queue other:\ngone queues/4OY5891YZFXPTW9JTXY2VNWGS (fx.v2, 22 messages): "+WhyUnknown+"\n"; got != want {
		t.Errorf("v2-basic/B with other definitions:\n%s\nwant:\n%s", got, want)
	}
}

// TestScriptStartsTheNode: the lines Script writes for a recovered folder
// start the simulated node with the same queues and messages, which come
// back redelivered after the crash the folder shows, in priority order.
func TestScriptStartsTheNode(t *testing.T) {
	for _, snap := range []string{"v2-basic/B", "v2-priority/A", "v1-basic/B0"} {
		n, err := Recover(openSnapshot(t, snap), nil)
		if err != nil {
			t.Fatal(err)
		}
		s := engine.New(engine.Options{})
		for _, line := range Script(n) {
			if strings.HasPrefix(line, "#") {
				continue
			}
			if out := s.Run(line, engine.RunOptions{}).Lines; len(out) != 0 && strings.HasPrefix(out[0], "error") {
				t.Fatalf("%s: %q printed %q", snap, line, out)
			}
		}
		q := n.Queues[0]
		if got, want := s.Run("list_queues name durable messages", engine.RunOptions{}).Lines, []string{fmt.Sprintf("queue name=%s durable=true messages=%d", q.Name, len(q.Messages))}; !slices.Equal(got, want) {
			t.Fatalf("%s: list_queues %q, want %q", snap, got, want)
		}
		for i, m := range q.Messages {
			out := s.Run("basic.get queue="+q.Name+" no-ack", engine.RunOptions{}).Lines
			want := " redelivered "
			if len(out) != 1 || !strings.Contains(out[0], want) || !strings.Contains(out[0], "body="+string(m.Body[:8])) {
				t.Fatalf("%s: get %d gave %q, want %s and the body %.8s", snap, i, out, want, m.Body)
			}
		}
	}
}
