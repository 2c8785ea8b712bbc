package scenario

import (
	"fmt"
	"io"
	"slices"

	"warren/engine/script"
)

// Target runs commands of the command language and returns the lines a
// client observed, in trace order: the engine (*engine.Sim is one) or a
// real broker. A target that is also an io.Closer is closed by RunFile
// once its file has run.
type Target interface {
	// Exec runs one command until the target is quiet and returns its lines.
	Exec(cmd script.Command) []string
}

// LineRunner is a Target that runs each command's line as written, with
// its line number: a simulation's front door, engine.Sim.Run, wrapped as
// func(line string, n int) []string { return s.Run(line, engine.RunOptions{Line: n}).Lines }.
type LineRunner func(line string, lineNo int) []string

// Exec runs cmd's line.
func (f LineRunner) Exec(cmd script.Command) []string { return f(cmd.Text, cmd.Line) }

// Opener makes the target for one file. cmds are every command the file
// holds that parses, in file order, so that a target can prepare for them
// (a real broker deletes the queues and exchanges they name).
type Opener func(file string, cmds []script.Command) (Target, error)

// Exec runs one command line on t: the line is parsed with its line
// number, and a line the parser refuses prints `error: ...` as its output
// and is not sent to t. Every runner of scenario lines goes through here.
func Exec(t Target, s Step) []string {
	cmd, err := script.ParseLine(s.Command, s.Line)
	if err != nil {
		return []string{"error: " + err.Error()}
	}
	return t.Exec(cmd)
}

// Result is what one case printed and whether it matched.
type Result struct {
	Case   *Case
	Actual []string
	// Pass: the case records an output and the actual one is the same.
	Pass bool
}

// Diff is the unified diff from the case's expected output to the actual
// one, "" when they are the same.
func (r Result) Diff() string {
	return Unified("expected", "actual", r.Case.Expected, r.Actual, 3)
}

// Run runs every case of f, in order, on t, and returns one result per
// case.
func (f *File) Run(t Target) []Result {
	results := make([]Result, len(f.Cases))
	for i := range f.Cases {
		c := &f.Cases[i]
		out := []string{}
		for _, s := range c.Steps {
			out = append(out, Exec(t, s)...)
		}
		results[i] = Result{Case: c, Actual: out, Pass: c.Expected != nil && slices.Equal(c.Expected, out)}
	}
	return results
}

// Commands returns every command of f that parses, in file order.
func (f *File) Commands() []script.Command {
	var cmds []script.Command
	for _, s := range f.Steps() {
		if c, err := script.ParseLine(s.Command, s.Line); err == nil {
			cmds = append(cmds, c)
		}
	}
	return cmds
}

// RunFile runs every case of f on one target made by open, then closes
// it. The error is about the target itself (it could not be opened or
// closed cleanly); the results are there when it ran.
func RunFile(f *File, open Opener) ([]Result, error) {
	t, err := open(f.Name, f.Commands())
	if err != nil {
		return nil, fmt.Errorf("%s: open target: %w", f.Name, err)
	}
	results := f.Run(t)
	if c, ok := t.(io.Closer); ok {
		if err := c.Close(); err != nil {
			return results, fmt.Errorf("%s: close target: %w", f.Name, err)
		}
	}
	return results, nil
}

// Outputs returns each result's actual output, for File.Rewrite.
func Outputs(results []Result) [][]string {
	out := make([][]string, len(results))
	for i, r := range results {
		out[i] = r.Actual
	}
	return out
}
