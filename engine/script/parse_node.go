//go:build !(js && wasm)

package script

import (
	"strings"

	"warren/engine/say"
)

// rawNode reads the node=N|NAME that may start an import_definitions
// line's rest, and returns it as an argument with what follows it.
// NB: natively only (parse_node_wasm.go): the browser build refuses
// import_definitions whatever it holds, and warren.wasm has no bytes to
// spare for reading it.
func rawNode(text, rest string, line int, spec *Spec) ([]Arg, string, error) {
	if !strings.HasPrefix(rest, "node=") {
		return nil, rest, nil
	}
	at := len(text) - len(rest)
	word := rest
	if i := strings.IndexAny(rest, " \t"); i >= 0 {
		word = rest[:i]
	}
	if word == "node=" {
		return nil, "", &Error{Line: line, Col: at + 1, Cmd: spec.Name,
			Msg: say.T("con.importNode"), Hint: usage(spec.Usage)}
	}
	return []Arg{{Key: "node", Val: word[len("node="):], HasVal: true, Col: at + 1}}, strings.TrimLeft(rest[len(word):], " \t"), nil
}
