//go:build js && wasm

package engine

// The browser build's import_definitions and export_definitions: refused,
// as reading and writing the JSON would take warren.wasm past its size
// budget (see cmd_definitions.go for the commands natively).

import (
	"warren/engine/say"
	"warren/engine/script"
)

// errDefinitionsNative says why, and what to do instead.
var errDefinitionsNative = say.E("con.defsNative")

func refuseDefinitions(_ *Sim, cmd script.Command) error {
	return say.Wrap("con.named", errDefinitionsNative, cmd.Name)
}

// definitionCommands are the definitions' commands, refused.
var definitionCommands = []command{
	{"import_definitions", handler{family: familyOperator, check: refuseDefinitions,
		apply: func(s *Sim, cmd script.Command) ([]string, error) { return nil, refuseDefinitions(s, cmd) }}},
	{"export_definitions", handler{family: familyShow, run: func(s *Sim, cmd script.Command, _ bool) ([]string, error) {
		return nil, refuseDefinitions(s, cmd)
	}}},
}
