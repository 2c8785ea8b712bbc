//go:build js && wasm

package main

import (
	"fmt"
	"strconv"
	"strings"
	"time"

	"warren/engine"
	"warren/engine/jsonenc"
	"warren/engine/say"
	"warren/engine/script"
)

// bridge holds the simulations of one page, by handle. Its methods are the
// functions of the JavaScript object `warren`, in Go terms: they take
// decoded arguments and return what JavaScript receives.
type bridge struct {
	sims map[int]*handle
	next int
	// elsewhere is what the simulations of the page's other engine
	// workers hold (setElsewhere): the page's simulations together are
	// inside engine.SharedHeldBytes, not each worker's
	elsewhere int64
}

// handle is one simulation. A simulation that panicked is kept, broken,
// so that every later call says why instead of running on a state that
// may be half changed.
type handle struct {
	sim    *engine.Sim
	broken string
}

func newBridge() *bridge { return &bridge{sims: map[int]*handle{}} }

// maxSchedulers matches the language's `set schedulers=N` bound.
const maxSchedulers = 64

// create starts a simulation and returns its handle. optsJSON is empty or
// a JSON object: {"schedulers": N}.
func (b *bridge) create(optsJSON string) (int, error) {
	opts := engine.Options{Record: true}
	if strings.TrimSpace(optsJSON) != "" {
		o, err := parseFlatObject(optsJSON)
		if err != nil {
			return 0, say.Wrap("con.optsNotObject", err)
		}
		for k, v := range o {
			switch k {
			case "schedulers":
				n, ok := v.(int64)
				if !ok || n < 1 || n > maxSchedulers {
					return 0, say.E("con.optsSchedulers", strconv.Itoa(maxSchedulers), fmt.Sprint(v))
				}
				opts.Schedulers = int(n)
			default:
				return 0, say.E("con.optsUnknown", strconv.Quote(k))
			}
		}
	}
	b.next++
	s := engine.New(opts)
	s.SetTimeBudget(engine.BrowserCommandTime, sinceStart)
	b.sims[b.next] = &handle{sim: s}
	return b.next, nil
}

// get finds a usable simulation.
func (b *bridge) get(id int) (*engine.Sim, error) {
	h, ok := b.sims[id]
	if !ok {
		return nil, say.E("con.noSim", strconv.Itoa(id))
	}
	if h.broken != "" {
		return nil, say.E("con.simStopped", strconv.Itoa(id), h.broken)
	}
	return h.sim, nil
}

// breakSim marks a simulation unusable after a panic in it.
func (b *bridge) breakSim(id int, why string) {
	if h, ok := b.sims[id]; ok {
		h.broken = why
	}
}

func (b *bridge) destroy(id int) bool {
	_, ok := b.sims[id]
	delete(b.sims, id)
	freed = freed || ok
	return ok
}

// exec runs a line (engine.Sim.Run); with most > 0 only the first most
// lines of its output are printed and sent, and "omitted" counts the
// others: the page shows no more (engine-worker.js), and the text of a
// long run's thousands of deliveries costs more to build and carry than
// the run. With cut > 0 it stops after that many events, where the time
// budget stopped it when it first ran, or sooner if the time budget stops
// it; whole runs it without the time budget (a lesson's own line).
func (b *bridge) exec(id int, line string, most int, cut int64, whole, atEnd bool) (string, error) {
	s, err := b.get(id)
	if err != nil {
		return "", err
	}
	s.SetOthersHeld(b.othersHeld(id))
	return jsonenc.Answer(s.Run(line, engine.RunOptions{Most: most, Cut: cut, Whole: whole, AtEnd: atEnd})), nil
}

func (b *bridge) step(id int, n int64) (int64, error) {
	s, err := b.get(id)
	if err != nil {
		return 0, err
	}
	if n < 1 {
		return 0, say.E("con.stepN", strconv.FormatInt(n, 10))
	}
	return s.Step(n), nil
}

func (b *bridge) seek(id int, n int64) (int64, error) {
	s, err := b.get(id)
	if err != nil {
		return 0, err
	}
	if err := s.SeekEvent(n); err != nil {
		return 0, err
	}
	return n, nil
}

// keep keeps the simulation's state as it is now, for a seek back to it
// to restore (engine.Sim.Keep): the widget calls it at the moment it
// opens at.
func (b *bridge) keep(id int) (bool, error) {
	s, err := b.get(id)
	if err != nil {
		return false, err
	}
	if err := s.Keep(); err != nil {
		return false, err
	}
	return true, nil
}

func (b *bridge) snapshot(id int) (string, error) {
	s, err := b.get(id)
	if err != nil {
		return "", err
	}
	snap := s.Snapshot()
	return snapshotJSON(&snap), nil
}

// expect checks one goal (an expect line) against the simulation as it is
// now, without changing it: {"met": true|false, "said": {...}, "checks":
// [{"name", "want", "found", "of"?}]}, what it found as jsonenc.Said
// writes it and, for a goal that compares values, each one wanted and
// found (engine.Check).
//
// With ms it has at most that many milliseconds of the time budget left
// (engine.Sim.ExpectWithin; less than 1: none, and it is not checked):
// the goals of one message share one budget (engine-worker.js).
func (b *bridge) expect(id int, line string, ms int64) (string, error) {
	s, err := b.get(id)
	if err != nil {
		return "", err
	}
	var g engine.Goal
	if ms != 0 {
		g, err = s.ExpectWithin(line, time.Duration(ms)*time.Millisecond)
	} else {
		g, err = s.Expect(line)
	}
	if err != nil {
		return "", err
	}
	e := jsonenc.Encoder{}
	e.Open("", '{')
	e.Bool("met", g.Met)
	e.Said("said", g.Say)
	if len(g.Checks) > 0 {
		e.Open("checks", '[')
		for _, c := range g.Checks {
			e.Open("", '{')
			e.Str("name", c.Name)
			e.Str("want", c.Want)
			e.Str("found", c.Found)
			if c.Of > 0 {
				e.Int("of", int64(c.Of))
			}
			e.Close('}')
		}
		e.Close(']')
	}
	e.Close('}')
	return e.String(), nil
}

// transcript returns the trace lines from index from on (0 for all): a
// page that keeps what it has read asks only for the new ones.
func (b *bridge) transcript(id int, from int) (string, error) {
	s, err := b.get(id)
	if err != nil {
		return "", err
	}
	n := s.TranscriptLen()
	from = min(max(from, 0), n)
	lines := s.TraceLines(from, n)
	return numberedJSON(len(lines), func(i int) (int64, int64, bool, string) {
		return lines[i].Event, lines[i].Time, true, lines[i].Text
	}), nil
}

// samples returns the node's metrics samples (one per 100 ms of virtual
// time) from index from on (0 for all): a page that keeps what it has read
// asks only for the new ones. After a seek back the series is the one the
// replay took, up to the current time.
func (b *bridge) samples(id int, from int) (string, error) {
	s, err := b.get(id)
	if err != nil {
		return "", err
	}
	all := s.Samples()
	from = min(max(from, 0), len(all))
	return samplesJSON(all[from:]), nil
}

// maxEventsPerCall bounds one events() answer; a page pages through more.
const maxEventsPerCall = 10_000

// events describes the events numbered from..to (inclusive, 1-based) that
// the current state has run: after a seek back, those up to the seek point.
func (b *bridge) events(id int, from, to int64) (string, error) {
	s, err := b.get(id)
	if err != nil {
		return "", err
	}
	from = max(from, 1)
	to = min(to, s.EventCount(), from+maxEventsPerCall-1)
	e := jsonenc.Encoder{}
	e.Open("", '[')
	for n := from; n <= to; n++ {
		ev := s.Event(n)
		kind, input := s.EventKind(&ev)
		e.Open("", '{')
		e.Int("n", ev.N)
		e.Str("text", s.Describe(&ev))
		e.Int("pid", int64(ev.PID))
		if !ev.Input && ev.From != 0 {
			e.Int("from", int64(ev.From)) // who sent what it handled; a client's frame has none
		}
		// the line as data, and the message it handled, whose meaning a
		// widget gives in the line's title
		e.Said("said", s.EventSaid(&ev))
		e.Str("kind", kind)
		e.Bool("input", input)
		e.Close('}')
	}
	e.Close(']')
	return e.String(), nil
}

// upcoming says what the node does next from the moment shown:
// {"in": µs, "timer": true|false, "process": ..., "what": ...}, a process
// that can run now (in 0, timer false) or the earliest timer; null when
// nothing ever will (engine.Sim.Upcoming). The widget stops at the end of
// a scenario rather than run on to a timer minutes away.
func (b *bridge) upcoming(id int) (string, error) {
	s, err := b.get(id)
	if err != nil {
		return "", err
	}
	u, ok := s.Upcoming()
	if !ok {
		return "null", nil
	}
	e := jsonenc.Encoder{}
	e.Open("", '{')
	e.Int("in", u.In)
	e.Bool("timer", u.Timer)
	e.Str("process", u.Process)
	e.Str("what", u.What)
	e.Close('}')
	return e.String(), nil
}

// eventAt is the last event of the recorded timeline that starts by
// virtual time t (µs), 0 for none: playback at the pace of the node's
// clock (engine.Sim.EventAtTime).
func (b *bridge) eventAt(id int, t int64) (int64, error) {
	s, err := b.get(id)
	if err != nil {
		return 0, err
	}
	return s.EventAtTime(t), nil
}

// stats says what a simulation's history costs, for the bench: its events,
// the bytes its timeline holds, and its checkpoints (how many, their
// bytes, the events between two).
func (b *bridge) stats(id int) (string, error) {
	s, err := b.get(id)
	if err != nil {
		return "", err
	}
	cp := s.Checkpoints()
	return fmt.Sprintf(`{"events":%d,"furthest":%d,"timelineBytes":%d,"checkpoints":%d,"checkpointBytes":%d,"checkpointInterval":%d,"kept":%d}`,
		s.EventCount(), s.Furthest(), s.TimelineBytes(), cp.Count, cp.Bytes, cp.Interval, cp.Kept), nil
}

func (b *bridge) names() string {
	e := &jsonenc.Encoder{}
	e.Strs("", script.Names())
	return e.String()
}

// paramView is one parameter of a command, for completion.
type paramView struct {
	Key      string   `json:"key"`
	Kind     string   `json:"kind"`
	Required bool     `json:"required,omitempty"`
	Values   []string `json:"values,omitempty"`
}

// usageView is a command's signature, for completion and help.
type usageView struct {
	Name   string      `json:"name"`
	Usage  string      `json:"usage"`
	Params []paramView `json:"params"`
	Extra  string      `json:"extra,omitempty"` // which other key=value it takes
	Words  []string    `json:"words,omitempty"` // the bare words it takes
	Engine bool        `json:"engine,omitempty"`
}

var kindNames = map[script.Kind]string{script.Str: "text", script.Name: "name", script.Int: "int",
	script.Flag: "flag", script.Enum: "enum", script.BoolOr: "bool", script.On: "on"}

var extraNames = map[script.Extra]string{script.XArgs: "x-args", script.AnyArgs: "args",
	script.HeaderArgs: "headers", script.Words: "words"}

func (b *bridge) usage(name string) (string, error) {
	spec, ok := script.Lookup(name)
	if !ok {
		return "", say.E("con.unknownCommand", strconv.Quote(name))
	}
	v := usageView{Name: spec.Name, Usage: spec.Usage, Params: []paramView{}, Extra: extraNames[spec.Extra],
		Words: spec.WordSet, Engine: spec.Engine}
	for _, p := range spec.Params {
		v.Params = append(v.Params, paramView{Key: p.Key, Kind: kindNames[p.Kind], Required: p.Required, Values: p.Values})
	}
	return usageJSON(&v), nil
}

// parse checks a whole script (one command a line, # comments) without
// running it, so that a page can report `line 3, column 11: ...` before
// anything runs.
func (b *bridge) parse(text string) (string, error) {
	cmds, err := script.Parse(text)
	if err != nil {
		return "", err
	}
	e := &jsonenc.Encoder{}
	e.Open("", '{')
	e.Int("commands", int64(len(cmds)))
	e.Close('}')
	return e.String(), nil
}

// othersHeld is what the simulations of the page other than id hold
// (engine.Sim.HeldBytes): those of this engine, and those of the page's
// other workers as the page last said (setElsewhere); what
// engine.SharedHeldBytes bounds with id's.
func (b *bridge) othersHeld(id int) int64 {
	n := b.elsewhere
	for other, h := range b.sims {
		if other != id {
			n += h.sim.HeldBytes()
		}
	}
	return n
}

// held is what the simulations of this engine hold together
// (engine.Sim.HeldBytes): what the page hands its other workers.
func (b *bridge) held() int64 {
	var n int64
	for _, h := range b.sims {
		n += h.sim.HeldBytes()
	}
	return n
}

// setElsewhere says how many bytes the simulations of the page's other
// engine workers hold, before the calls of a message run: a publish that
// would take the page's simulations past engine.SharedHeldBytes is
// refused, and a command that grows them past it stops.
func (b *bridge) setElsewhere(n int64) bool {
	b.elsewhere = max(n, 0)
	return true
}

// started is what sinceStart measures from.
var started = time.Now()

// sinceStart is the monotonic clock the engine's time budget reads: the
// engine reads none of its own.
func sinceStart() time.Duration { return time.Since(started) }
