package browser_test

import (
	"strings"
	"testing"

	"warren/engine"
)

// TestRestartInThePlayground restarts the node in the playground after a
// power loss and stops and starts a node of a cluster, as natively: the
// browser build has the whole engine.
func TestRestartInThePlayground(t *testing.T) {
	b := newBrowser(t)
	b.open("/playground/")
	w := "warren-scenario"
	for _, l := range []string{
		"queue.declare queue=kept durable",
		"confirm.select",
		"basic.publish key=kept body=confirmed persistent",
		"basic.publish key=kept body=unconfirmed persistent on=c1.2",
	} {
		b.console(w, l)
	}
	b.console(w, "restart kind=power-loss")
	if out := b.lastOutput(w); len(out) == 0 || strings.Contains(strings.Join(out, " "), "error") || !strings.Contains(strings.Join(out, " "), "c1 connection-lost") {
		t.Fatalf("restart kind=power-loss printed %q", out)
	}
	b.console(w, "list_queues name messages")
	native := native(t, `queue.declare queue=kept durable
confirm.select
basic.publish key=kept body=confirmed persistent
basic.publish key=kept body=unconfirmed persistent on=c1.2
restart kind=power-loss`)
	want := native.Run("list_queues name messages", engine.RunOptions{}).Lines
	kept := func(lines []string) string {
		for _, l := range lines {
			if strings.Contains(l, "name=kept ") {
				return l
			}
		}
		return "(no line for kept)"
	}
	if got := b.lastOutput(w); kept(got) != kept(want) || kept(want) == "(no line for kept)" {
		t.Errorf("after the power loss the playground lists %q, natively %q", got, want)
	}
	b.shot("playground-power-loss")

	b.open("/test-cluster-stop.html")
	b.console("#c", "stop_app node=2")
	if out := strings.Join(b.lastOutput("#c"), "\n"); strings.Contains(out, "error") {
		t.Errorf("stop_app node=2 printed %q", out)
	}
	b.console("#c", "start_app node=2")
	b.console("#c", "basic.get queue=far no-ack")
	if out := strings.Join(b.lastOutput("#c"), "\n"); !strings.Contains(out, "get-ok") || !strings.Contains(out, "body=f0") {
		t.Errorf("after start_app node=2, basic.get printed %q", out)
	}
	b.noErrors()
}

func init() {
	testPages["test-cluster-stop.html"] = `<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8"><title>stop a node</title>
<link rel="stylesheet" href="/widget.css"><script src="/widget.js" defer></script></head>
<body><warren-scenario id="c">cluster nodes=2
connect on=c2 node=2
queue.declare queue=far durable on=c2.1
confirm.select on=c2.1
basic.publish key=far body=f{i} count=2 persistent on=c2.1</warren-scenario></body></html>`
}
