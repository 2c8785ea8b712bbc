package runner

import (
	"fmt"
	"slices"

	"warren/engine/script"
	"warren/scripts/scenario/internal/casefile"
)

// Result is what one case printed and whether it matched.
type Result struct {
	Case   *casefile.Case
	Actual []string
	Pass   bool
}

// step is one command line, parsed or refused by the parser.
type step struct {
	cmd script.Command
	err error
}

// RunFile runs every case of f, in order, on one target made by open, and
// returns one result per case. A command the parser refuses prints
// `error: ...` as its output and is not sent to the target. The error is
// about the target itself (it could not be opened or closed cleanly).
func RunFile(f *casefile.File, open Opener) ([]Result, error) {
	steps := make([][]step, len(f.Cases))
	var cmds []script.Command
	for i := range f.Cases {
		for _, l := range f.Cases[i].Commands {
			c, err := script.ParseLine(l.Text, l.Num)
			steps[i] = append(steps[i], step{c, err})
			if err == nil {
				cmds = append(cmds, c)
			}
		}
	}
	t, err := open(f.Name, cmds)
	if err != nil {
		return nil, fmt.Errorf("%s: open target: %w", f.Name, err)
	}
	results := make([]Result, len(f.Cases))
	for i := range f.Cases {
		out := []string{}
		for _, s := range steps[i] {
			if s.err != nil {
				out = append(out, "error: "+s.err.Error())
				continue
			}
			out = append(out, t.Exec(s.cmd)...)
		}
		c := &f.Cases[i]
		results[i] = Result{Case: c, Actual: out, Pass: c.Expected != nil && slices.Equal(c.Expected, out)}
	}
	if err := t.Close(); err != nil {
		return results, fmt.Errorf("%s: close target: %w", f.Name, err)
	}
	return results, nil
}

// Outputs returns each result's actual output, for casefile.File.Rewrite.
func Outputs(results []Result) [][]string {
	out := make([][]string, len(results))
	for i, r := range results {
		out[i] = r.Actual
	}
	return out
}
