//go:build js && wasm

package script

// rawNode leaves an import_definitions line's rest as it is: the browser
// build refuses the command whatever it holds (parse_node.go reads node=
// natively).
func rawNode(_, rest string, _ int, _ *Spec) ([]Arg, string, error) { return nil, rest, nil }
