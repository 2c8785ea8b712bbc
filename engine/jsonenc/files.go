package jsonenc

import (
	"warren/engine"
	"warren/engine/store/format"
)

// FileBytes encodes a file of the Files view: {path, kind, size, synced,
// perSegment, dead: [offsets], data: hex of its first bytes}, which
// inspect.wasm's annotate reads field by field (engine/store/format
// Annotate) for the widget to draw.
func FileBytes(f *engine.FileBytes) string {
	e := &Encoder{}
	e.Open("", '{')
	e.Str("path", f.Path)
	e.Str("kind", f.Kind)
	e.Int("size", f.Size)
	e.Int("synced", f.Synced)
	e.Int("perSegment", int64(f.PerSegment))
	e.Open("dead", '[')
	for _, off := range f.Dead {
		e.Int("", off)
	}
	e.Close(']')
	e.Str("data", format.Hex(f.Data))
	e.Close('}')
	return e.String()
}
