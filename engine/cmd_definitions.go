//go:build !(js && wasm)

package engine

// import_definitions and export_definitions, after rabbitmqctl's: the
// JSON of a node's definitions in RabbitMQ 3.10.8's form, read into the
// simulated node or written from it (engine/definitions). NB: natively
// only: the browser build refuses them (cmd_definitions_wasm.go), as
// parsing and writing the JSON would take warren.wasm past its size
// budget; there the scenario editor writes a dropped file as lines of the
// language (site/static/widget/definitions.js) instead.

import (
	"warren/engine/definitions"
	"warren/engine/node"
	"warren/engine/say"
	"warren/engine/script"
)

// definitionCommands are the definitions' commands.
var definitionCommands = []command{
	{"import_definitions", handler{family: familyOperator,
		check: func(s *Sim, cmd script.Command) error {
			d, err := parseDefinitions(cmd)
			if err != nil {
				return err
			}
			if _, err := importNode(s, cmd); err != nil {
				return err
			}
			return s.cluster.CheckDefinitions(d)
		},
		apply: func(s *Sim, cmd script.Command) ([]string, error) {
			d, err := parseDefinitions(cmd)
			if err != nil {
				return nil, err
			}
			on, err := importNode(s, cmd)
			if err != nil {
				return nil, err
			}
			skipped := s.cluster.ImportDefinitions(d, on)
			return append(LeftOut(d), leftLines(skipped)...), nil
		}}},
	{"export_definitions", handler{family: familyShow, run: func(s *Sim, _ script.Command, _ bool) ([]string, error) {
		return []string{definitions.Export(s.cluster.Definitions())}, nil
	}}},
}

// importNode is the node an import runs on, as rabbitmqctl -n names it:
// node=N|NAME, the first node without one. A stopped node refuses, as its
// rabbit_definitions is not running.
func importNode(s *Sim, cmd script.Command) (*node.Node, error) {
	m, err := s.cluster.Member(cmd.Str("node", "1"))
	if err != nil {
		return nil, &definitionsError{err}
	}
	if m.Stopped() {
		return nil, &definitionsError{say.E("con.importStopped", m.Name)}
	}
	return m, nil
}

// parseDefinitions reads the JSON of an import_definitions line.
func parseDefinitions(cmd script.Command) (*definitions.Defs, error) {
	d, err := definitions.Parse(cmd.Str("json", ""))
	if err != nil {
		return nil, &definitionsError{err}
	}
	return d, nil
}

type definitionsError struct{ err error }

func (e *definitionsError) Error() string { return "import_definitions: " + e.err.Error() }

// LeftOut is what import_definitions prints first: one line for each kind
// of thing the file holds that the node does not import, whatever the
// node holds.
func LeftOut(d *definitions.Defs) []string { return leftLines(d.Left) }

func leftLines(left []definitions.Left) []string {
	out := make([]string, 0, len(left))
	for _, l := range left {
		out = append(out, l.Line())
	}
	return out
}
