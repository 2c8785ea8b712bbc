//go:build js && wasm

package main

// Run with: PATH="$(go env GOROOT)/lib/wasm:$PATH" GOOS=js GOARCH=wasm go test ./wasm

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/hack-pad/safejs"

	"warren/engine"
)

// call invokes a function of the installed `warren` object as a page would.
func call(t *testing.T, name string, args ...any) safejs.Value {
	t.Helper()
	w, err := safejs.Global().Get("warren")
	if err != nil {
		t.Fatal(err)
	}
	v, err := w.Call(name, args...)
	if err != nil {
		t.Fatalf("warren.%s threw: %v", name, err)
	}
	return v
}

func str(t *testing.T, v safejs.Value) string {
	t.Helper()
	if v.Type() != safejs.TypeString {
		t.Fatalf("got a %s, want a string (%s)", v.Type(), errorOf(v))
	}
	s, _ := v.String()
	return s
}

func errorOf(v safejs.Value) string {
	if v.Type() != safejs.TypeObject {
		return ""
	}
	e, err := v.Get("error")
	if err != nil || e.Type() != safejs.TypeString {
		return ""
	}
	s, _ := e.String()
	return s
}

func num(t *testing.T, v safejs.Value) int {
	t.Helper()
	if v.Type() != safejs.TypeNumber {
		t.Fatalf("got a %s, want a number (%s)", v.Type(), errorOf(v))
	}
	n, _ := v.Int()
	return n
}

var installed = func() bool {
	if err := install(newBridge()); err != nil {
		panic(err)
	}
	return true
}()

func TestBridgeRunsAScenario(t *testing.T) {
	id := num(t, call(t, "create", `{"schedulers": 2}`))
	defer call(t, "destroy", id)
	var r struct{ Lines []string }
	json.Unmarshal([]byte(str(t, call(t, "exec", id, "queue.declare queue=q"))), &r)
	if len(r.Lines) != 1 || r.Lines[0] != "c1.1 declare-ok queue=q messages=0 consumers=0" {
		t.Fatalf("exec: %q", r.Lines)
	}
	str(t, call(t, "exec", id, "basic.publish key=q body=m{i} count=3"))
	var snap engine.Snapshot
	if err := json.Unmarshal([]byte(str(t, call(t, "snapshot", id))), &snap); err != nil {
		t.Fatal(err)
	}
	if len(snap.Schedulers) != 2 || len(snap.Queues) != 1 || snap.Queues[0].Ready != 3 {
		t.Fatalf("snapshot: %+v", snap)
	}
	end := snap.Events
	if got := num(t, call(t, "seek", id, 3)); got != 3 {
		t.Fatalf("seek returned %d", got)
	}
	var evs []struct {
		N    int64
		Text string
	}
	json.Unmarshal([]byte(str(t, call(t, "events", id, 1, 100))), &evs)
	if len(evs) != 3 || evs[2].N != 3 || !strings.HasPrefix(evs[2].Text, "#3 ") {
		t.Fatalf("events after seek to 3: %+v", evs)
	}
	if e := errorOf(call(t, "seek", id, end+1)); !strings.HasPrefix(e, "seek: event ") || !strings.Contains(e, "outside the timeline") {
		t.Fatalf("seek past the end: %q", e)
	}
	call(t, "seek", id, end)
	var tr []struct {
		N    int64
		T    int64
		Text string
	}
	json.Unmarshal([]byte(str(t, call(t, "transcript", id, 0))), &tr)
	if len(tr) != 1 || tr[0].N == 0 || tr[0].T == 0 {
		t.Fatalf("transcript: %+v", tr)
	}
	if n := num(t, call(t, "step", id, 5)); n > 5 {
		t.Fatalf("step ran %d", n)
	}
}

// TestBridgeSamples: samples(id, from) gives the series from index from
// on, and after a seek back only what the replay took.
func TestBridgeSamples(t *testing.T) {
	id := num(t, call(t, "create"))
	defer call(t, "destroy", id)
	for _, l := range []string{"queue.declare queue=q", "basic.consume queue=q tag=c on=c2.1 ack-every=1 work-us=200",
		"basic.publish key=q count=2000"} {
		str(t, call(t, "exec", id, l))
	}
	var all []engine.Sample
	if err := json.Unmarshal([]byte(str(t, call(t, "samples", id))), &all); err != nil {
		t.Fatal(err)
	}
	delivered := 0.0
	for _, s := range all {
		delivered += s.Deliver * engine.SampleInterval / 1e6
	}
	if len(all) < 4 || delivered < 1000 {
		t.Fatalf("%d samples, %.0f deliveries in them: %+v", len(all), delivered, all)
	}
	var tail []engine.Sample
	json.Unmarshal([]byte(str(t, call(t, "samples", id, len(all)-2))), &tail)
	if len(tail) != 2 || tail[1].Time != all[len(all)-1].Time {
		t.Errorf("samples from %d: %+v", len(all)-2, tail)
	}
	if got := str(t, call(t, "samples", id, len(all)+5)); got != "[]" {
		t.Errorf("samples past the end: %s", got)
	}
	var snap engine.Snapshot
	call(t, "seek", id, 40)
	json.Unmarshal([]byte(str(t, call(t, "snapshot", id))), &snap)
	var back []engine.Sample
	json.Unmarshal([]byte(str(t, call(t, "samples", id, 0))), &back)
	if len(back) >= len(all) {
		t.Errorf("after a seek back to event 40 (t=%dµs) there are %d samples, as many as at the end", snap.Time, len(back))
	}
	for _, s := range back {
		if s.Time > snap.Time {
			t.Errorf("after a seek back to t=%dµs, a sample of t=%dµs", snap.Time, s.Time)
		}
	}
	if e := errorOf(call(t, "samples", id, "x")); !strings.Contains(e, "must be a number") {
		t.Errorf("samples with a bad from: %q", e)
	}
}

func TestBridgeSubmitThenStep(t *testing.T) {
	id := num(t, call(t, "create"))
	str(t, call(t, "exec", id, "queue.declare queue=q"))
	before := num(t, call(t, "step", id, 1)) // nothing to run: the node is quiet
	str(t, call(t, "exec", id, "submit basic.publish key=q body=x"))
	if ran := num(t, call(t, "step", id, 1)); ran != 1 {
		t.Fatalf("step after submit ran %d (before: %d)", ran, before)
	}
	var r struct{ Lines []string }
	json.Unmarshal([]byte(str(t, call(t, "exec", id, "submit basic.bogus"))), &r)
	if len(r.Lines) != 1 || !strings.HasPrefix(r.Lines[0], "error: ") || !strings.Contains(r.Lines[0], "unknown command") {
		t.Fatalf("submit of a bad line: %q", r.Lines)
	}
}

// TestBridgeExpect: a goal is checked against the simulation as it is, and
// checking it changes nothing.
func TestBridgeExpect(t *testing.T) {
	id := num(t, call(t, "create"))
	str(t, call(t, "exec", id, "queue.declare queue=q"))
	str(t, call(t, "exec", id, "basic.publish key=q body=x"))
	type goal struct {
		Met  bool
		Said struct{ Text string }
		Text string
	}
	check := func(line string) goal {
		var g goal
		if err := json.Unmarshal([]byte(str(t, call(t, "expect", id, line))), &g); err != nil {
			t.Fatal(err)
		}
		g.Text = g.Said.Text
		return g
	}
	before := str(t, call(t, "snapshot", id))
	if g := check("expect queue=q messages=1"); !g.Met || g.Text != "queue q messages=1" {
		t.Errorf("one message: %+v", g)
	}
	if g := check("expect queue=q messages=0"); g.Met || g.Text != "queue q has messages=1 (want 0)" {
		t.Errorf("want none: %+v", g)
	}
	if g := check("expect on=c2.1 saw=deliver body=x"); g.Met {
		t.Errorf("no consumer yet: %+v", g)
	}
	if after := str(t, call(t, "snapshot", id)); after != before {
		t.Errorf("checking goals changed the simulation")
	}
	str(t, call(t, "exec", id, "basic.consume queue=q tag=c no-ack on=c2.1"))
	if g := check("expect on=c2.1 saw=deliver body=x"); !g.Met {
		t.Errorf("after the consume: %+v", g)
	}
	if e := errorOf(call(t, "expect", id, "queue.purge queue=q")); !strings.Contains(e, "a goal is an expect command") {
		t.Errorf("a command that is not a goal: %q", e)
	}
	if e := errorOf(call(t, "expect", id, "expect queue=q mesages=1")); !strings.Contains(e, "not a list_queues column") {
		t.Errorf("a goal with a typo: %q", e)
	}
	// what is left of the goals' budget (engine-worker.js)
	if e := errorOf(call(t, "expect", id, "expect on=c2.1 saw=deliver body=x", -1)); e != "expect: not checked: the goals before it took the time budget of one command here, 10s" {
		t.Errorf("a goal with none of the budget left: %q", e)
	}
	var g struct{ Met bool }
	if err := json.Unmarshal([]byte(str(t, call(t, "expect", id, "expect on=c2.1 saw=deliver body=x", 5000))), &g); err != nil || !g.Met {
		t.Errorf("a goal with 5 s left: %+v %v", g, err)
	}
}

// TestBridgeRefusesBadArguments: whatever a page passes, it gets {error}
// and the Go program goes on.
func TestBridgeRefusesBadArguments(t *testing.T) {
	id := num(t, call(t, "create"))
	for _, c := range []struct {
		fn   string
		args []any
		want string
	}{
		{"exec", []any{}, "missing argument 1"},
		{"exec", []any{"1", "x"}, "must be a number"},
		{"exec", []any{999, "queue.declare queue=q"}, "no simulation 999"},
		{"exec", []any{1.5, "x"}, "whole number"},
		{"create", []any{"{nope"}, "not a JSON object"},
		{"create", []any{`{"schedulers": 0}`}, "schedulers must be"},
		{"create", []any{`{"cores": 2}`}, "unknown option"},
		{"usage", []any{"basic.nope"}, "unknown command"},
		{"parse", []any{"queue.declare queue=q\nbasic.ack tag=x"}, "line 2, column"},
		{"step", []any{id, 0}, "at least 1"},
		{"seek", []any{id, -1}, "outside the timeline"},
	} {
		if got := errorOf(call(t, c.fn, c.args...)); !strings.Contains(got, c.want) {
			t.Errorf("%s%v: error %q, want it to say %q", c.fn, c.args, got, c.want)
		}
	}
}

// TestBridgeRecoversPanics: a panic inside a function becomes {error} and
// breaks only that simulation.
func TestBridgeRecoversPanics(t *testing.T) {
	b := newBridge()
	id, _ := b.create("")
	b.sims[id].sim = nil // the next call on it panics
	f := wrap(b, export{name: "snapshot", sim: true, fn: func(args []safejs.Value) (any, error) {
		return b.snapshot(id)
	}})
	arg, _ := safejs.ValueOf(id)
	got, ok := f(safejs.Null(), []safejs.Value{arg}).(map[string]any)
	if !ok || !strings.Contains(got["error"].(string), "internal error") {
		t.Fatalf("panic gave %v", got)
	}
	if _, err := b.get(id); err == nil || !strings.Contains(err.Error(), "reset it") {
		t.Fatalf("the broken simulation still answers: %v", err)
	}
}

func TestBridgeCompletion(t *testing.T) {
	var names []string
	json.Unmarshal([]byte(str(t, call(t, "names"))), &names)
	if len(names) < 20 || names[0] != "alarm" {
		t.Fatalf("names: %q", names)
	}
	var u usageView
	json.Unmarshal([]byte(str(t, call(t, "usage", "basic.publish"))), &u)
	if u.Extra != "headers" || len(u.Params) == 0 || u.Params[0].Key != "on" {
		t.Fatalf("usage: %+v", u)
	}
	var ok struct{ Commands int }
	json.Unmarshal([]byte(str(t, call(t, "parse", "# a comment\nqueue.declare queue=q\n\nshow queues"))), &ok)
	if ok.Commands != 2 {
		t.Fatalf("parse: %+v", ok)
	}
}

// TestUsageJSONMatchesEncodingJSON: the usage encoder gives the same
// bytes as encoding/json (engine/jsonenc's test covers the others).
func TestUsageJSONMatchesEncodingJSON(t *testing.T) {
	u := usageView{Name: "n", Usage: "u", Params: []paramView{{Key: "k", Kind: "int", Required: true}, {Key: "e", Kind: "enum", Values: []string{"a"}}},
		Extra: "x-args", Words: []string{"w"}, Engine: true}
	want, _ := json.Marshal(u)
	if got := usageJSON(&u); got != string(want) {
		t.Errorf("usage:\n got %s\nwant %s", got, want)
	}
}

// exec with a bound prints the start of the output and counts the rest.
func TestBridgeExecPrintsAtMostWhatIsAsked(t *testing.T) {
	id := num(t, call(t, "create"))
	defer call(t, "destroy", id)
	str(t, call(t, "exec", id, "queue.declare queue=q"))
	str(t, call(t, "exec", id, "basic.consume queue=q tag=c no-ack on=c2.1"))
	var r struct {
		Lines   []string
		Omitted int
	}
	json.Unmarshal([]byte(str(t, call(t, "exec", id, "basic.publish key=q body=m{i} count=5", 2))), &r)
	if len(r.Lines) != 2 || r.Omitted != 3 || !strings.Contains(r.Lines[1], "tag=2 ") {
		t.Fatalf("exec with most=2: %+v", r)
	}
	r.Omitted = -1
	json.Unmarshal([]byte(str(t, call(t, "exec", id, "basic.publish key=q body=m{i} count=5", 0))), &r)
	if len(r.Lines) != 5 || r.Omitted != -1 {
		t.Fatalf("exec with most=0 prints everything and says nothing omitted: %+v", r)
	}
}

// TestBridgeHeldElsewhere: what the page's other workers hold (elsewhere)
// counts against the page's one memory budget with what this worker's
// simulations hold, and held says what those hold, for the page to hand
// the others.
func TestBridgeHeldElsewhere(t *testing.T) {
	id := num(t, call(t, "create"))
	defer call(t, "destroy", id)
	str(t, call(t, "exec", id, "queue.declare queue=q"))
	before := num(t, call(t, "held"))
	if v := call(t, "elsewhere", float64(engine.SharedHeldBytes-2<<20)); v.Type() != safejs.TypeBoolean {
		t.Fatalf("elsewhere: %s", errorOf(v))
	}
	out := str(t, call(t, "exec", id, "basic.publish key=q size=4194304"))
	if !strings.Contains(out, "MB of messages and files, more than their memory budget of 512 MB; publish fewer or smaller messages, or reset another widget") {
		t.Fatalf("a publish past the page's budget with 510 MB held elsewhere: %s", out)
	}
	if n := num(t, call(t, "held")); n != before {
		t.Fatalf("the refused publish: held %d, was %d", n, before)
	}
	call(t, "elsewhere", 0)
	if out := str(t, call(t, "exec", id, "basic.publish key=q size=4194304")); strings.Contains(out, "error:") {
		t.Fatalf("with nothing held elsewhere: %s", out)
	}
	if n := num(t, call(t, "held")); n < before+4<<20 {
		t.Fatalf("after a 4 MB publish: held %d, was %d", n, before)
	}
	if e := errorOf(call(t, "elsewhere", "lots")); !strings.Contains(e, "must be a number") {
		t.Fatalf("elsewhere of a string: %q", e)
	}
}

// TestBridgeErrorsComeAsData: an error the engine says as data reaches
// JavaScript with its sentence beside its English (said, as jsonenc.Said
// writes it), the bridge function's name wrapped around it as around the
// English; a line the engine refuses comes in exec's answer as its
// sentence.
func TestBridgeErrorsComeAsData(t *testing.T) {
	id := num(t, call(t, "create"))
	said := func(v safejs.Value) (s struct {
		Text, Key string
		Args      []json.RawMessage
	}) {
		t.Helper()
		js, err := v.Get("said")
		if err != nil || js.Type() != safejs.TypeString {
			t.Fatalf("%q without its sentence", errorOf(v))
		}
		text, _ := js.String()
		if err := json.Unmarshal([]byte(text), &s); err != nil || s.Text != errorOf(v) {
			t.Fatalf("%q said as %s", errorOf(v), text)
		}
		return s
	}
	// an error that names the function already
	if s := said(call(t, "seek", id, 99)); s.Key != "con.seekOutside" {
		t.Fatalf("seek past the end said as %+v", s)
	}
	// the function's name before one that does not
	if s := said(call(t, "create", `{"colour":1}`)); s.Key != "con.named" || len(s.Args) != 2 || !strings.Contains(string(s.Args[1]), `"key":"con.optsUnknown"`) {
		t.Fatalf("create with an unknown option said as %+v", s)
	}
	var r struct {
		Lines []string
		Said  [][]json.RawMessage
	}
	json.Unmarshal([]byte(str(t, call(t, "exec", id, "basic.ack tag=x"))), &r)
	if len(r.Lines) != 1 || len(r.Said) != 1 || !strings.Contains(string(r.Said[0][1]), `"key":"con.error"`) || !strings.Contains(string(r.Said[0][1]), `"key":"con.mustInt"`) {
		t.Fatalf("a refused line: %q said as %s", r.Lines, r.Said)
	}
}

// TestBridgeUpcomingAndEventAt: at the end of a scenario the bridge says
// what the node does next (the channel's consumer-timeout tick, half an
// hour away; work now after a submit; null on an empty node), and finds
// the last event that starts by a virtual time; a goal's checks come
// with its verdict.
func TestBridgeUpcomingAndEventAt(t *testing.T) {
	id := num(t, call(t, "create"))
	if got := str(t, call(t, "upcoming", id)); got != "null" {
		t.Errorf("an empty node has %s upcoming", got)
	}
	for _, l := range []string{"queue.declare queue=q", "basic.consume queue=q tag=c on=c2.1", "basic.publish key=q body=x"} {
		str(t, call(t, "exec", id, l))
	}
	var u struct {
		In      int64
		Timer   bool
		Process string
		What    string
	}
	if err := json.Unmarshal([]byte(str(t, call(t, "upcoming", id))), &u); err != nil || !u.Timer || u.Process != "channel c2.1" || u.What != "tick" || u.In < 30*60_000_000 {
		t.Errorf("at the end: %+v %v", u, err)
	}
	var snap struct{ Furthest int64 }
	json.Unmarshal([]byte(str(t, call(t, "snapshot", id))), &snap)
	if n := num(t, call(t, "eventAt", id, 1<<40)); int64(n) != snap.Furthest || snap.Furthest == 0 {
		t.Errorf("the last event by a time past the end is %v, want %d", n, snap.Furthest)
	}
	if n := num(t, call(t, "eventAt", id, -1)); n != 0 {
		t.Errorf("the last event before time 0 is %v", n)
	}
	if e := errorOf(call(t, "eventAt", id, "soon")); e == "" {
		t.Error("eventAt with a word for a time is not refused")
	}
	var g struct {
		Checks []struct{ Name, Want, Found string }
	}
	json.Unmarshal([]byte(str(t, call(t, "expect", id, "expect queue=q consumers=2"))), &g)
	if len(g.Checks) != 1 || g.Checks[0] != (struct{ Name, Want, Found string }{"consumers", "2", "1"}) {
		t.Errorf("the goal's checks: %+v", g.Checks)
	}
	str(t, call(t, "exec", id, "submit basic.publish key=q body=y"))
	if err := json.Unmarshal([]byte(str(t, call(t, "upcoming", id))), &u); err != nil || u.Timer || u.In != 0 {
		t.Errorf("after a submit: %+v %v", u, err)
	}
}

// TestBridgeFirstEvents: the moments of several #@when lines come back in
// one answer, in their order, -1 for one that never holds, the
// simulation where it was; a line that does not start with an event
// number is refused, saying which.
func TestBridgeFirstEvents(t *testing.T) {
	id := num(t, call(t, "create"))
	defer call(t, "destroy", id)
	for _, l := range []string{"queue.declare queue=q", "basic.publish key=q size=10 count=50"} {
		str(t, call(t, "exec", id, l))
	}
	var before, after struct{ Events int64 }
	json.Unmarshal([]byte(str(t, call(t, "snapshot", id))), &before)
	var r struct {
		At    []int64
		Error string
	}
	if err := json.Unmarshal([]byte(str(t, call(t, "firstEvents", id, "0 expect queue=q messages=40\n0 expect queue=q messages=999\n0 expect queue=q messages=10"))), &r); err != nil {
		t.Fatal(err)
	}
	if len(r.At) != 3 || r.At[0] <= r.At[2] || r.At[2] <= 0 || r.At[1] != -1 || r.Error != "" {
		t.Errorf("moments %+v", r)
	}
	json.Unmarshal([]byte(str(t, call(t, "snapshot", id))), &after)
	if after.Events != before.Events {
		t.Errorf("left at event %d, was at %d", after.Events, before.Events)
	}
	if e := errorOf(call(t, "firstEvents", id, "0 expect queue=q messages=1\nsoon expect queue=q messages=2")); !strings.Contains(e, "line 2 starts with \"soon\"") {
		t.Errorf("a line without its event: %q", e)
	}
}

// TestBridgeKeep: keep keeps the state as it is now, and the engine
// counts it among the timeline's checkpoints; a handle that names
// nothing is refused.
func TestBridgeKeep(t *testing.T) {
	id := num(t, call(t, "create"))
	defer call(t, "destroy", id)
	for _, l := range []string{"queue.declare queue=q", "basic.publish key=q size=10 count=50"} {
		str(t, call(t, "exec", id, l))
	}
	if v := call(t, "keep", id); v.Type() != safejs.TypeBoolean {
		t.Fatalf("keep answered a %s (%s)", v.Type(), errorOf(v))
	}
	var st struct{ Kept int }
	json.Unmarshal([]byte(str(t, call(t, "stats", id))), &st)
	if st.Kept < 1 {
		t.Errorf("after keep, the stats count %d kept states", st.Kept)
	}
	if e := errorOf(call(t, "keep", 99999)); e == "" {
		t.Error("keep of no simulation is not refused")
	}
}

// TestBridgeExecAtEnd: exec with atEnd runs its line at the end of the
// timeline while the simulation stays at the event it shows; the
// timeline grows by what the line ran.
func TestBridgeExecAtEnd(t *testing.T) {
	id := num(t, call(t, "create"))
	str(t, call(t, "exec", id, "queue.declare queue=q"))
	str(t, call(t, "exec", id, "basic.publish key=q body=m{i} count=5"))
	type pos struct{ Events, Furthest int64 }
	at := func() pos {
		var p pos
		if err := json.Unmarshal([]byte(str(t, call(t, "snapshot", id))), &p); err != nil {
			t.Fatal(err)
		}
		return p
	}
	end := at().Events
	num(t, call(t, "seek", id, end-2))
	var r struct{ Lines []string }
	json.Unmarshal([]byte(str(t, call(t, "exec", id, "basic.publish key=q body=n{i} count=3", nil, 0, 1, 1))), &r)
	if len(r.Lines) > 0 && strings.HasPrefix(r.Lines[0], "error: ") {
		t.Fatalf("at the end: %q", r.Lines)
	}
	if p := at(); p.Events != end-2 || p.Furthest <= end {
		t.Fatalf("after a line at the end: at %d of %d, want %d of more than %d", p.Events, p.Furthest, end-2, end)
	}
	if e := errorOf(call(t, "exec", id, "basic.publish key=q", nil, 0, 1, "x")); !strings.Contains(e, "atEnd") {
		t.Errorf("a bad atEnd: %q", e)
	}
}
