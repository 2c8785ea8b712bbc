//go:build js && wasm

package main

import (
	"fmt"
	"math"
	"strconv"
	"strings"

	"github.com/hack-pad/safejs"

	"warren/engine/jsonenc"
	"warren/engine/say"
)

// export is one function of the `warren` object.
type export struct {
	name string
	// sim says the first argument is a simulation handle: a panic breaks
	// that simulation.
	sim bool
	fn  func(args []safejs.Value) (any, error)
}

// install puts the object `warren` on the global object.
func install(b *bridge) error {
	obj, err := safejs.ValueOf(map[string]any{})
	if err != nil {
		return err
	}
	for _, e := range b.exports() {
		f, err := safejs.FuncOf(wrap(b, e))
		if err != nil {
			return fmt.Errorf("%s: %w", e.name, err)
		}
		if err := obj.Set(e.name, f); err != nil {
			return fmt.Errorf("%s: %w", e.name, err)
		}
	}
	if err := obj.Set("ready", true); err != nil {
		return err
	}
	return safejs.Global().Set("warren", obj)
}

// wrap turns an export into a JavaScript function. NB: no panic may cross
// into JavaScript (it would kill the Go program for every simulation on
// the page): a panic or an error becomes {error: "..."}.
func wrap(b *bridge, e export) func(safejs.Value, []safejs.Value) any {
	return func(_ safejs.Value, args []safejs.Value) (result any) {
		if e.name != "idle" {
			followLiveHeap()
		}
		defer func() {
			r := recover()
			if r == nil {
				return
			}
			why := fmt.Sprint(r)
			if e.sim && len(args) > 0 {
				if id, err := intArg(args, 0, "id"); err == nil {
					b.breakSim(int(id), e.name+": "+why)
				}
			}
			result = errorValue(fmt.Sprintf("%s: internal error: %s", e.name, why))
		}()
		v, err := e.fn(args)
		if err != nil {
			// the function's name before the error, once (a seek's
			// errors start with "seek: " already); an error the engine
			// says as data goes with its sentence
			msg := err.Error()
			said := say.Of(err)
			if !strings.HasPrefix(msg, e.name+": ") {
				msg = e.name + ": " + msg
				said = say.Around("con.named", said, e.name)
			}
			if _, ok := err.(say.Sayer); !ok {
				return errorValue(msg)
			}
			return saidErrorValue(msg, said)
		}
		return v
	}
}

// errorValue is an error as JavaScript receives it: {error: "..."}.
func errorValue(msg string) map[string]any { return map[string]any{"error": msg} }

// saidErrorValue is an error the engine says as data: {error: "...",
// said: its sentence as JSON (jsonenc.Said)}.
func saidErrorValue(msg string, said say.Text) map[string]any {
	enc := &jsonenc.Encoder{}
	enc.Said("", said)
	return map[string]any{"error": msg, "said": enc.String()}
}

// exports lists the functions of `warren`; doc.go says what each takes and
// returns.
func (b *bridge) exports() []export {
	withID := func(name string, fn func(id int, args []safejs.Value) (any, error)) export {
		return export{name: name, sim: true, fn: func(args []safejs.Value) (any, error) {
			id, err := intArg(args, 0, "id")
			if err != nil {
				return nil, err
			}
			return fn(int(id), args)
		}}
	}
	return []export{
		{name: "create", fn: func(args []safejs.Value) (any, error) {
			opts, err := optStringArg(args, 0, "options")
			if err != nil {
				return nil, err
			}
			return b.create(opts)
		}},
		withID("exec", func(id int, args []safejs.Value) (any, error) {
			line, err := stringArg(args, 1, "line")
			if err != nil {
				return nil, err
			}
			most, err := optIntArg(args, 2, "most", 0)
			if err != nil {
				return nil, err
			}
			cut, err := optIntArg(args, 3, "cut", 0)
			if err != nil {
				return nil, err
			}
			whole, err := optIntArg(args, 4, "whole", 0)
			if err != nil {
				return nil, err
			}
			atEnd, err := optIntArg(args, 5, "atEnd", 0)
			if err != nil {
				return nil, err
			}
			return b.exec(id, line, int(min(max(most, 0), math.MaxInt32)), cut, whole != 0, atEnd != 0)
		}),
		withID("step", func(id int, args []safejs.Value) (any, error) {
			n := int64(1)
			if len(args) > 1 && !args[1].IsUndefined() {
				var err error
				if n, err = intArg(args, 1, "n"); err != nil {
					return nil, err
				}
			}
			return b.step(id, n)
		}),
		withID("seek", func(id int, args []safejs.Value) (any, error) {
			n, err := intArg(args, 1, "event")
			if err != nil {
				return nil, err
			}
			return b.seek(id, n)
		}),
		withID("snapshot", func(id int, _ []safejs.Value) (any, error) { return b.snapshot(id) }),
		withID("expect", func(id int, args []safejs.Value) (any, error) {
			line, err := stringArg(args, 1, "goal")
			if err != nil {
				return nil, err
			}
			ms, err := optIntArg(args, 2, "ms", 0)
			if err != nil {
				return nil, err
			}
			return b.expect(id, line, ms)
		}),
		withID("transcript", func(id int, args []safejs.Value) (any, error) {
			from, err := optIntArg(args, 1, "from", 0)
			if err != nil {
				return nil, err
			}
			return b.transcript(id, int(from))
		}),
		withID("samples", func(id int, args []safejs.Value) (any, error) {
			from, err := optIntArg(args, 1, "from", 0)
			if err != nil {
				return nil, err
			}
			return b.samples(id, int(from))
		}),
		withID("events", func(id int, args []safejs.Value) (any, error) {
			from, err := optIntArg(args, 1, "from", 1)
			if err != nil {
				return nil, err
			}
			to, err := optIntArg(args, 2, "to", math.MaxInt64)
			if err != nil {
				return nil, err
			}
			return b.events(id, from, to)
		}),
		withID("upcoming", func(id int, _ []safejs.Value) (any, error) { return b.upcoming(id) }),
		withID("eventAt", func(id int, args []safejs.Value) (any, error) {
			t, err := intArg(args, 1, "t")
			if err != nil {
				return nil, err
			}
			return b.eventAt(id, t)
		}),
		withID("stats", func(id int, _ []safejs.Value) (any, error) { return b.stats(id) }),
		withID("narrate", func(id int, _ []safejs.Value) (any, error) { return b.narrate(id) }),
		withID("markers", func(id int, _ []safejs.Value) (any, error) { return b.markers(id) }),
		withID("keep", func(id int, _ []safejs.Value) (any, error) { return b.keep(id) }),
		withID("firstEvents", func(id int, args []safejs.Value) (any, error) {
			whens, err := stringArg(args, 1, "whens")
			if err != nil {
				return nil, err
			}
			return b.firstEvents(id, whens)
		}),
		withID("fileBytes", func(id int, args []safejs.Value) (any, error) {
			p, err := stringArg(args, 1, "path")
			if err != nil {
				return nil, err
			}
			return b.fileBytes(id, p)
		}),
		withID("destroy", func(id int, _ []safejs.Value) (any, error) { return b.destroy(id), nil }),
		{name: "idle", fn: func([]safejs.Value) (any, error) { return idleCall(), nil }},
		{name: "names", fn: func([]safejs.Value) (any, error) { return b.names(), nil }},
		{name: "held", fn: func([]safejs.Value) (any, error) { return float64(b.held()), nil }},
		{name: "elsewhere", fn: func(args []safejs.Value) (any, error) {
			n, err := intArg(args, 0, "bytes")
			if err != nil {
				return nil, err
			}
			return b.setElsewhere(n), nil
		}},
		{name: "usage", fn: func(args []safejs.Value) (any, error) {
			name, err := stringArg(args, 0, "name")
			if err != nil {
				return nil, err
			}
			return b.usage(name)
		}},
		{name: "parse", fn: func(args []safejs.Value) (any, error) {
			text, err := stringArg(args, 0, "script")
			if err != nil {
				return nil, err
			}
			return b.parse(text)
		}},
	}
}

// intArg reads a whole number argument.
func intArg(args []safejs.Value, i int, name string) (int64, error) {
	if i >= len(args) {
		return 0, say.E("con.argMissing", strconv.Itoa(i+1), name)
	}
	if t := args[i].Type(); t != safejs.TypeNumber {
		return 0, say.E("con.argNumber", strconv.Itoa(i+1), name, t.String())
	}
	f, err := args[i].Float()
	if err != nil {
		return 0, err
	}
	if f != math.Trunc(f) || math.Abs(f) > 1<<53 {
		return 0, say.E("con.argWhole", strconv.Itoa(i+1), name, fmt.Sprint(f))
	}
	return int64(f), nil
}

// optIntArg reads a number argument that may be left out.
func optIntArg(args []safejs.Value, i int, name string, def int64) (int64, error) {
	if i >= len(args) || args[i].IsUndefined() || args[i].IsNull() {
		return def, nil
	}
	return intArg(args, i, name)
}

// stringArg reads a string argument.
func stringArg(args []safejs.Value, i int, name string) (string, error) {
	if i >= len(args) {
		return "", say.E("con.argMissing", strconv.Itoa(i+1), name)
	}
	if t := args[i].Type(); t != safejs.TypeString {
		return "", say.E("con.argString", strconv.Itoa(i+1), name, t.String())
	}
	return args[i].String()
}

// optStringArg reads a string argument that may be left out.
func optStringArg(args []safejs.Value, i int, name string) (string, error) {
	if i >= len(args) || args[i].IsUndefined() || args[i].IsNull() {
		return "", nil
	}
	return stringArg(args, i, name)
}
