//go:build js && wasm

// Command wasm is the bridge between the engine and a web page: compiled
// with GOOS=js GOARCH=wasm it puts one global object, `warren`, on the
// global object of the page's engine worker, whose functions create
// simulations and run, step, seek and inspect them. Every simulation on
// the page lives in this one instance, named by a handle. It is the only code that touches JavaScript, through safejs.
//
// The functions of `warren` (id is a handle from create; JSON means a JSON
// text the page parses; every function returns {error: "..."} instead
// when it cannot do what it was asked, with said, the error's sentence as
// JSON (jsonenc.Said), when the engine says it as data, and never
// throws):
//
//	create(optsJSON?)        → id            optsJSON: {"schedulers": N}
//	exec(id, line, most?, cut?, whole?, atEnd?) → JSON {"lines": [...], "omitted"?: N}   runs
//	                                          until quiet; a refused command is
//	                                          one "error: ..." line; with most,
//	                                          only the first most lines are
//	                                          printed, omitted counts the rest;
//	                                          a command stops after
//	                                          engine.BrowserCommandTime (a
//	                                          "stopped after N events (the time
//	                                          budget ..." line, always shown),
//	                                          or after cut events when given
//	                                          (the N of such a line, to replay
//	                                          it; the time budget still
//	                                          applies), and with whole = 1
//	                                          without the time budget (a
//	                                          lesson's own line), and with atEnd = 1
//	                                          at the end of the timeline, the
//	                                          simulation staying at the event it
//	                                          shows (engine.RunOptions.AtEnd); "said",
//	                                          "explain" and "cut" as
//	                                          jsonenc.Answer writes them. The
//	                                          one way to run a line:
//	                                          the language's submit holds a
//	                                          command's frames, run settles
//	                                          the node
//	step(id, n?)             → events run (fewer than n: the node went idle)
//	seek(id, n)              → n             the state right after event n; a
//	                                          seek that replays past the budgets
//	                                          of one command stops at the event it
//	                                          reached, with {error: "seek: stopped
//	                                          at event M of N ..."}
//	snapshot(id)             → JSON engine.Snapshot
//	expect(id, goal, ms?)    → JSON {"met", "said", "checks"?}  checks a goal (an expect
//	                                          line) now; with ms, inside what is
//	                                          left of the time budget that the
//	                                          goals of one message share (less
//	                                          than 1: none, not checked)
//	transcript(id, from?)    → JSON [{"n": event, "t": µs, "text": line}, ...]
//	                                          trace lines from index from on
//	events(id, from?, to?)   → JSON [{"n": event, "text": description, "pid",
//	                                          "from"?, "said", "kind", "input"}, ...]: the
//	                                          process that handled it and the one that
//	                                          sent what it handled (pids), the line as
//	                                          data (engine.Sim.EventSaid), and the
//	                                          Erlang message it handled
//	                                          events from..to (1-based, inclusive,
//	                                          at most 10,000 a call)
//	samples(id, from?)       → JSON [{"time": µs, "publish": /s, "deliver": /s,
//	                                          "ack": /s, "confirm": /s, "depth": N,
//	                                          "memory": bytes, "scheduler": [0..1, ...]}, ...]
//	                                          metrics, one per 100 ms of virtual time,
//	                                          from index from on
//	names()                  → JSON ["alarm", "basic.ack", ...]
//	usage(name)              → JSON {"name", "usage", "params": [{"key", "kind",
//	                                          "required"?, "values"?}], "extra"?,
//	                                          "words"?, "engine"?}
//	parse(script)            → JSON {"commands": N}, or the first mistake as
//	                                          {error: "parse: line 3, column 11: ..."}
//	stats(id)                → JSON {"events", "furthest", "timelineBytes",
//	                                          "checkpoints", "checkpointBytes",
//	                                          "checkpointInterval", "kept"}: what
//	                                          the history costs (kept: the states
//	                                          keep holds)
//	upcoming(id)             → JSON {"in", "timer", "process", "what"}: what the
//	                                          node does next from the moment shown (a
//	                                          process that can run now, in 0, or the
//	                                          earliest timer, in µs from now, whom it
//	                                          wakes and with what), or null: nothing will
//	eventAt(id, t)           → the last event that starts by virtual time t
//	                                          (µs), over the whole timeline; 0 for none
//	keep(id)                 → true: the simulation's state as it is now is
//	                                          kept, for a seek back to it to restore
//	firstEvents(id, whens)   → JSON {"at": [...]}: for each line "FROM GOAL"
//	                                          of whens, the first event from event FROM
//	                                          on at which GOAL (an expect line) holds, -1
//	                                          if none, all found in one pass; the
//	                                          simulation stays where it was. A pass a
//	                                          budget stopped adds "error" and "said"
//	fileBytes(id, path)      → JSON {"path", "kind", "size", "synced", "perSegment",
//	                                          "dead": [offsets], "data": hex}: one file of
//	                                          the Files view, its first 2 MiB, and the
//	                                          offsets of the entries the node says are dead
//	destroy(id)              → true if there was such a simulation
//	held()                   → the bytes of messages and files the
//	                                          simulations of this worker hold
//	                                          together (engine.Sim.HeldBytes)
//	elsewhere(bytes)         → true          what the simulations of the page's
//	                                          other workers hold: from now on the
//	                                          page's simulations together are
//	                                          inside engine.SharedHeldBytes
//	idle()                   → true if it starts collecting garbage, in a
//	                                          goroutine of its own, after the call's
//	                                          has returned: the worker calls it when
//	                                          it has nothing to do (gc.go)
//
// site/static/widget/engine-worker.js calls them in the worker, never on
// the page's main thread: a call runs to its end before the next starts.
//
// `warren.ready` is true once the functions are in place. A panic inside a
// function becomes {error} and marks that simulation broken (every later
// call on it says so); the others go on.
//
// NB: the binary has a size budget (size_test.go): nothing here may import
// templ, goldmark, html/template, text/template or net/http.
package main
