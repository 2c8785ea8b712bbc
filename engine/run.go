package engine

import (
	"warren/engine/say"
	"warren/engine/script"
)

// The front door: Run is the one way to run a line of the command
// language. What it printed, which of those lines the engine says as data,
// how many it left out, where the time budget cut it and why it refused
// it come back together in a Result. Step, SeekEvent, Snapshot and the
// script's parser are the rest of the API.

// RunOptions say how Run runs a line. The zero value runs it whole under
// the simulation's budgets, printing every line of its output.
type RunOptions struct {
	// Most prints at most this many lines of the output (0: all): the
	// text of the others is never built, Result.Omitted counts them. The
	// line that says a budget stopped the command is always printed.
	Most int
	// Cut stops a command that runs after this many events (0: none),
	// where the time budget stopped it when it first ran, as a share link
	// replays it; the time budget still applies.
	Cut int64
	// Whole runs the command without the time budget (the budget of
	// events still applies): the site's own lessons, which a slow
	// computer must not cut short. NB: nothing from a link or the
	// console may set it.
	Whole bool
	// Hold leaves a client command's frames in its socket until the node
	// is stepped, as the language's submit does; a command that only
	// looks answers at once, the others run as without it.
	Hold bool
	// Line is the line's number in its file, for the errors that say
	// where (0: none).
	Line int
	// AtEnd runs the line at the end of the timeline, leaving the
	// simulation at the event it shows (head.go): a seek back before it
	// does not drop what came after.
	AtEnd bool
}

// Result is what running a line made.
type Result struct {
	// Lines is what the command printed, in trace order: a refused
	// command prints one line, "error: " and why.
	Lines []string
	// Said gives the sentence of each line the engine says as data (a
	// goal's verdict, a budget's stop, an error), by its index in Lines;
	// the others (RabbitMQ's trace, the command language) are said as
	// they are in every language.
	Said []SaidLine
	// Explain gives, by its index in Lines, what a line that shows
	// RabbitMQ's reply means: a channel or connection it closed, a
	// message it returned, rabbitmqctl's refusal of a policy (the line
	// itself stays RabbitMQ's words).
	Explain []SaidLine
	// Omitted counts the lines left out by RunOptions.Most.
	Omitted int
	// Cut is the events after which the time budget stopped the command,
	// 0 when it did not: where a share link cuts it (RunOptions.Cut).
	Cut int64
	// Err is why the command was refused, or the parser's error; the
	// simulation is then as it was before the line.
	Err error
}

// SaidLine is the sentence of Result.Lines[At].
type SaidLine struct {
	At   int
	Text say.Text
}

// Run parses and runs one line and returns what it printed.
func (s *Sim) Run(line string, o RunOptions) Result {
	if o.AtEnd {
		o.AtEnd = false
		return s.runAtEnd(line, o)
	}
	s.said, s.explains = nil, nil
	s.budget.cut, s.budget.whole = max(o.Cut, 0), o.Whole
	s.budget.said, s.budget.lastTimeCut = "", 0
	defer func() { s.budget.cut, s.budget.whole = 0, false }()
	var r Result
	cmd, err := script.ParseLine(line, o.Line)
	if err == nil {
		if o.Most > 0 {
			s.printing = showing{on: true, left: o.Most}
		}
		r.Lines, err = s.exec(cmd, !o.Hold)
		r.Omitted = s.printing.unprinted
		s.printing = showing{}
	}
	if err != nil {
		r.Err = err
		r.Lines, r.Omitted = []string{s.sayError(err)}, 0
		if t, ok := refusalMeans(err); ok {
			s.explainLine(r.Lines[0], t)
		}
	} else if o.Most > 0 {
		r.Lines, r.Omitted = s.bound(r.Lines, o.Most, r.Omitted)
	}
	r.Cut = s.budget.lastTimeCut
	for i, l := range r.Lines {
		if t, ok := s.said[l]; ok {
			r.Said = append(r.Said, SaidLine{i, t})
		}
		if t, ok := s.explains[l]; ok {
			r.Explain = append(r.Explain, SaidLine{i, t})
		}
	}
	return r
}

// bound keeps the first most lines of out, and the line that says a
// budget stopped the command, which is always shown; omitted grows by the
// lines left out.
func (s *Sim) bound(out []string, most, omitted int) ([]string, int) {
	stop, room := s.budget.said, most
	if stop != "" && len(out) > 0 && out[len(out)-1] == stop {
		out, room = out[:len(out)-1], most-1
	} else {
		stop = ""
	}
	if len(out) > room {
		omitted += len(out) - room
		out = out[:room]
	}
	if stop != "" {
		out = append(out, stop)
	}
	return out, omitted
}
