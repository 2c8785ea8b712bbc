package runner

import (
	"warren/engine"
	"warren/engine/script"
)

// engineTarget runs a file on a fresh simulation.
type engineTarget struct{ sim *engine.Sim }

// OpenEngine is the Opener of the engine target: one fresh simulation per
// file, with default options.
func OpenEngine(string, []script.Command) (Target, error) {
	return engineTarget{sim: engine.New(engine.Options{})}, nil
}

// Exec runs the command's line through the engine's front door (Sim.Run).
func (t engineTarget) Exec(cmd script.Command) []string {
	return t.sim.Run(cmd.Text, engine.RunOptions{Line: cmd.Line}).Lines
}

func (t engineTarget) Close() error { return nil }
