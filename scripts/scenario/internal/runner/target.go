package runner

import (
	"warren/engine/script"
)

// Target runs commands of the command language and returns the lines a
// client observed, in trace order. A target serves one file.
type Target interface {
	// Exec runs one command until the target is quiet and returns its lines.
	Exec(cmd script.Command) []string
	// Close releases the target; a real broker also cleans up after the file.
	Close() error
}

// Opener makes the target for one file. cmds are every command the file
// holds that parsed, in file order, so that a target can prepare for them
// (a real broker deletes the queues and exchanges they name).
type Opener func(file string, cmds []script.Command) (Target, error)
