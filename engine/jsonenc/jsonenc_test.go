package jsonenc

import (
	"encoding/json"
	"testing"

	"warren/engine"
)

// TestMatchesEncodingJSON: the hand-written encoders give the same bytes
// as encoding/json, so a field the engine adds and the encoder lacks
// fails here.
func TestMatchesEncodingJSON(t *testing.T) {
	s := engine.New(engine.Options{Record: true, Schedulers: 2})
	for _, l := range []string{
		"queue.declare queue=q x-max-priority=3", "basic.qos prefetch=2 on=c2.1",
		"basic.consume queue=q tag=c<&> on=c2.1", "basic.publish key=q body=\"<b>\"&é count=5 priority=2",
		"set watermark=1000", "basic.publish key=q size=100 count=3",
		"queue.declare queue=d durable", "basic.publish key=d persistent size=5000",
	} {
		s.Run(l, engine.RunOptions{})
	}
	if err := s.Run("basic.publish key=q body=m count=50", engine.RunOptions{Hold: true}).Err; err != nil {
		t.Fatal(err)
	}
	s.Step(30)
	cl := engine.New(engine.Options{})
	for _, l := range []string{"cluster nodes=2", "connect on=c2 node=2", "queue.declare queue=far on=c2.1", "basic.publish key=far body=x", "alarm set=memory"} {
		cl.Run(l, engine.RunOptions{})
	}
	// a durable queue whose node is stopped: only its record, marked down
	down := engine.New(engine.Options{})
	for _, l := range []string{"cluster nodes=2", "connect on=c2 node=2", "queue.declare queue=gone durable on=c2.1", "stop_app node=2"} {
		down.Run(l, engine.RunOptions{})
	}
	snaps := []engine.Snapshot{s.Snapshot(), engine.New(engine.Options{}).Snapshot(), cl.Snapshot(), down.Snapshot()}
	if q := snaps[3].Queues; len(q) != 1 || !q[0].Down {
		t.Fatalf("the stopped node's queue is not in the snapshot, down: %+v", q)
	}
	for _, snap := range snaps {
		want, _ := json.Marshal(snap)
		if got := Snapshot(&snap); got != string(want) {
			t.Fatalf("snapshot JSON differs:\n got %s\nwant %s", got, want)
		}
	}
	for _, f := range []float64{0, 1, 0.5, 1e-7, 3.0000001e-9, 123456789.125, 1e21, 2.5e-5} {
		snap := engine.Snapshot{Schedulers: []engine.SchedulerView{{Util: f}}}
		want, _ := json.Marshal(snap)
		if got := Snapshot(&snap); got != string(want) {
			t.Errorf("util %v:\n got %s\nwant %s", f, got, want)
		}
	}
	for _, str := range []string{"plain", "quote\" back\\ nl\n tab\t ctl\x01", "<html>&", "é ü \u2028 \u2029", "bad \xff utf8"} {
		want, _ := json.Marshal(str)
		if got := string(AppendString(nil, str)); got != string(want) {
			t.Errorf("string %q: got %s want %s", str, got, want)
		}
	}
	moved := engine.New(engine.Options{Record: true, Schedulers: 2})
	for _, l := range []string{"set watermark=30000000", "queue.declare queue=q", "basic.qos prefetch=20 on=c2.1",
		"basic.consume queue=q tag=c on=c2.1 ack-every=1 work-us=150", "basic.publish key=q size=5000 count=3000"} {
		moved.Run(l, engine.RunOptions{})
	}
	series := append(moved.Samples(), engine.Sample{Time: 1, Publish: 1e-7, Deliver: 1.0 / 3, Ack: 1e21}, engine.Sample{})
	if len(series) < 10 {
		t.Fatalf("only %d samples: the run is too short to test with", len(series))
	}
	for _, v := range [][]engine.Sample{series, {}} {
		want, _ := json.Marshal(v)
		if got := Samples(v); got != string(want) {
			t.Errorf("samples JSON differs:\n got %.500s\nwant %.500s", got, want)
		}
	}
	if got := Samples(nil); got != "[]" {
		t.Errorf("no samples: got %s, want []", got)
	}
	lines := []string{"c1.1 deliver body=<&>", ""}
	want, _ := json.Marshal(map[string][]string{"lines": lines})
	if got := Answer(engine.Result{Lines: lines}); got != string(want) {
		t.Errorf("lines:\n got %s\nwant %s", got, want)
	}
	if got := Answer(engine.Result{}); got != `{"lines":[]}` {
		t.Errorf("no lines: got %s", got)
	}
	type numbered struct {
		N    int64  `json:"n"`
		T    *int64 `json:"t,omitempty"`
		Text string `json:"text"`
	}
	at := int64(7)
	want, _ = json.Marshal([]numbered{{N: 1, T: &at, Text: "a"}, {N: 2, Text: "\"b\""}})
	got := Numbered(2, func(i int) (int64, int64, bool, string) {
		if i == 0 {
			return 1, 7, true, "a"
		}
		return 2, 0, false, "\"b\""
	})
	if got != string(want) {
		t.Errorf("numbered:\n got %s\nwant %s", got, want)
	}
}
