package engine

import (
	"warren/engine/script"
)

// Options configure a simulation. The zero value is a single-node RabbitMQ
// 3.10 with one scheduler.
type Options struct{}

// Sim is one simulated node with its clients.
type Sim struct{}

// New returns a fresh simulation.
func New(opts Options) *Sim { return &Sim{} }

// Exec runs one command until the node is quiet and returns the lines the
// client observed, in trace order. A refused command returns one
// `error: ...` line and leaves the simulation unchanged.
func (s *Sim) Exec(cmd script.Command) []string {
	return []string{"error: " + cmd.Name + ": not implemented yet"}
}
