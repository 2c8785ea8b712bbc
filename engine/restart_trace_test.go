package engine

import (
	"flag"
	"os"
	"runtime"
	"strings"
	"testing"
)

// restartScripts stop and start nodes every way there is: a single node
// restarted clean, after a crash and after a power loss (queues of both
// index versions, confirmed and unconfirmed persistent messages, a
// transient one), and a node of a cluster stopped and started again.
var restartScripts = map[string][]string{
	"restart": {
		"set file-size-limit=16384",
		"queue.declare queue=v2 durable x-queue-version=2",
		"queue.declare queue=v1 durable x-queue-version=1",
		"queue.declare queue=gone",
		"confirm.select",
		"basic.publish key=v2 body=p{i} count=4 persistent",
		"basic.publish key=v1 size=5000 count=3 persistent",
		"basic.publish key=v2 body=transient",
		"basic.get queue=v2",
		"restart kind=clean",
		"basic.get queue=v2 no-ack",
		"basic.publish key=v1 body=unconfirmed persistent on=c1.2",
		"restart kind=crash",
		"list_queues name messages",
		"confirm.select on=c2.1",
		"basic.publish key=v2 body=confirmed persistent on=c2.1",
		"basic.publish key=v1 body=in-flight persistent on=c3.1",
		"restart kind=power-loss",
		"list_queues name messages",
		"show files",
	},
	"stop_app": {
		"cluster nodes=2",
		"connect on=c2 node=2",
		"queue.declare queue=far durable on=c2.1",
		"queue.declare queue=brief on=c2.1",
		"basic.publish key=far body=f{i} count=3 persistent on=c2.1",
		"basic.consume queue=far tag=c on=c1.1",
		"stop_app node=2",
		"queue.declare queue=far passive on=c1.2",
		"start_app node=2",
		"list_queues name messages node",
		"basic.get queue=far no-ack on=c1.3",
	},
}

// restartTrace runs a script and writes down everything that happened:
// each command, the lines its clients saw and every event the engine ran
// for it, then the whole again after a seek back to the start and forward
// to the end (a replay through the restarts).
func restartTrace(t *testing.T, lines []string) string {
	t.Helper()
	s := New(Options{Record: true})
	var b strings.Builder
	from := s.EventCount()
	for _, l := range lines {
		b.WriteString("> " + l + "\n")
		for _, out := range s.runLine(l) {
			b.WriteString(out + "\n")
		}
		for n := from + 1; n <= s.EventCount(); n++ {
			e := s.Event(n)
			b.WriteString(s.Describe(&e) + "\n")
		}
		from = s.EventCount()
	}
	end := s.Furthest()
	if err := s.SeekEvent(1); err != nil {
		t.Fatal(err)
	}
	if err := s.SeekEvent(end); err != nil {
		t.Fatal(err)
	}
	b.WriteString("> seek back to 1 and forward to the end\n")
	for _, l := range s.Transcript() {
		b.WriteString(l.Text + "\n")
	}
	for _, l := range s.runLine("show files") {
		b.WriteString(l + "\n")
	}
	return b.String()
}

// TestRestartTrace checks every event and every line of restartScripts
// against testdata/restart-trace/NAME.txt, written natively (go test
// -run TestRestartTrace -rewrite ./engine). The scripts run under
// WebAssembly too (scripts/test runs the engine's tests under Node), and
// must give the same file: the browser build restarts, stops and starts
// nodes as the native one does, event for event.
func TestRestartTrace(t *testing.T) {
	for name, lines := range restartScripts {
		t.Run(name, func(t *testing.T) {
			got := restartTrace(t, lines)
			file := "testdata/restart-trace/" + name + ".txt"
			if rw := flag.Lookup("rewrite"); rw != nil && rw.Value.String() == "true" && runtime.GOOS != "js" {
				if err := os.WriteFile(file, []byte(got), 0o644); err != nil {
					t.Fatal(err)
				}
				return
			}
			want, err := os.ReadFile(file)
			if err != nil {
				t.Fatalf("%v (write it natively with -rewrite)", err)
			}
			if got != string(want) {
				g, w := strings.Split(got, "\n"), strings.Split(string(want), "\n")
				for i := range max(len(g), len(w)) {
					if i >= len(g) || i >= len(w) || g[i] != w[i] {
						t.Fatalf("%s on %s differs from %s at line %d:\n got  %q\n want %q", name, runtime.GOOS, file, i+1, at(g, i), at(w, i))
					}
				}
			}
		})
	}
}

func at(lines []string, i int) string {
	if i < len(lines) {
		return lines[i]
	}
	return "(end)"
}
