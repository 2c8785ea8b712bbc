//go:build js && wasm

package engine

// The browser build's import_definitions and export_definitions: refused,
// as reading and writing the JSON would take warren.wasm past its size
// budget (see cmd_definitions.go for the commands natively).

import (
	"errors"

	"warren/engine/script"
)

// errDefinitionsNative says why, and what to do instead.
var errDefinitionsNative = errors.New("not in the browser build of warren: drop or paste the definitions file on the scenario editor, which writes it as lines of the language, or run it with go run ./scripts/scenario")

func refuseDefinitions(_ *Sim, cmd script.Command) error {
	return errors.New(cmd.Name + ": " + errDefinitionsNative.Error())
}

// definitionCommands are the definitions' commands, refused.
var definitionCommands = []command{
	{"import_definitions", handler{family: familyOperator, check: refuseDefinitions,
		apply: func(s *Sim, cmd script.Command) ([]string, error) { return nil, refuseDefinitions(s, cmd) }}},
	{"export_definitions", handler{family: familyShow, run: func(s *Sim, cmd script.Command, _ bool) ([]string, error) {
		return nil, refuseDefinitions(s, cmd)
	}}},
}
