package site

import (
	"bytes"
	"encoding/binary"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestBuildWithoutBridge checks that Build explains what is missing when
// the module has no ./wasm package.
func TestBuildWithoutBridge(t *testing.T) {
	root := t.TempDir()
	if err := os.WriteFile(filepath.Join(root, "go.mod"), []byte("module warren\n\ngo 1.26\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	err := Build(t.TempDir(), BuildOptions{ModuleRoot: root})
	if err == nil || !strings.Contains(err.Error(), "has no Go package") || !strings.Contains(err.Error(), "SkipWasm") {
		t.Fatalf("got %v, want an error naming the missing ./wasm and SkipWasm", err)
	}
}

func TestBuildRefusesAnotherModule(t *testing.T) {
	root := t.TempDir()
	if err := os.WriteFile(filepath.Join(root, "go.mod"), []byte("module example.com/other\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	err := Build(t.TempDir(), BuildOptions{ModuleRoot: root})
	if err == nil || !strings.Contains(err.Error(), `not "warren"`) {
		t.Fatalf("got %v", err)
	}
}

// wasmModule writes a module of the given sections (id, then payload).
func wasmModule(sections ...[]byte) []byte {
	m := []byte("\x00asm\x01\x00\x00\x00")
	for _, s := range sections {
		m = append(m, s[0])
		m = binary.AppendUvarint(m, uint64(len(s)-1))
		m = append(m, s[1:]...)
	}
	return m
}

// dataSection writes a data section of active segments of memory 0.
func dataSection(segs ...dataSegment) []byte {
	b := binary.AppendUvarint([]byte{wasmSectionData}, uint64(len(segs)))
	for _, s := range segs {
		b = appendSleb(append(b, 0x00, 0x41), int64(s.addr))
		b = binary.AppendUvarint(append(b, 0x0b), uint64(len(s.data)))
		b = append(b, s.data...)
	}
	return b
}

// TestPackDataSegments checks that segments a short gap apart become one
// with the same memory, that a long gap, an out-of-order segment and the
// other sections are kept, and that the data count follows.
func TestPackDataSegments(t *testing.T) {
	segs := []dataSegment{
		{100, []byte("abc")},
		{110, []byte("de")}, // 7 zero bytes after abc: joined
		{200, []byte("far")},
		{150, []byte("back")}, // before the end of the one above: kept
		{154, []byte("on")},   // right after back: joined
		{70000, []byte{1, 2, 3, 0x80}},
	}
	typeSec := []byte{1, 1, 0x60, 0, 0} // one func type, () -> ()
	for _, withCount := range []bool{false, true} {
		sections := [][]byte{typeSec}
		if withCount {
			sections = append(sections, []byte{wasmSectionDataCount, byte(len(segs))})
		}
		in := wasmModule(append(sections, dataSection(segs...), []byte{0, 4, 'n', 'o', 't', 'e'})...)
		out, before, after, err := packDataSegments(in, 80)
		if err != nil {
			t.Fatal(err)
		}
		if before != 6 || after != 4 {
			t.Errorf("segments %d -> %d, want 6 -> 4", before, after)
		}
		want := []dataSegment{
			{100, []byte("abc\x00\x00\x00\x00\x00\x00\x00de")},
			{200, []byte("far")},
			{150, []byte("backon")},
			{70000, []byte{1, 2, 3, 0x80}},
		}
		wantSections := [][]byte{typeSec}
		if withCount {
			wantSections = append(wantSections, []byte{wasmSectionDataCount, 4})
		}
		if w := wasmModule(append(wantSections, dataSection(want...), []byte{0, 4, 'n', 'o', 't', 'e'})...); !bytes.Equal(out, w) {
			t.Errorf("packed module\n%x\nwant\n%x", out, w)
		}
	}
}

// TestPackDataSegmentsRefuses checks that forms the Go linker does not
// write are refused with where and what, and that nothing is joined over
// data an earlier segment wrote.
func TestPackDataSegmentsRefuses(t *testing.T) {
	for _, c := range []struct {
		name, want string
		wasm       []byte
	}{
		{"not wasm", "not a WebAssembly 1 module", []byte("\x7fELF....")},
		{"passive", "segment 1: not an active segment", wasmModule([]byte{wasmSectionData, 2, 0x00, 0x41, 0x08, 0x0b, 0x01, 'x', 0x01, 0x00})},
		{"global offset", "segment 0: not an active segment", wasmModule([]byte{wasmSectionData, 1, 0x00, 0x23, 0x00, 0x0b, 0x00})},
		{"short", "section 11 at byte 8: bad size", wasmModule([]byte{wasmSectionData, 1})[:10]},
		{"long length", "segment 0: bad length", wasmModule([]byte{wasmSectionData, 1, 0x00, 0x41, 0x08, 0x0b, 0x09, 'x'})},
		{"overwrite", "changed the memory", wasmModule(dataSection(
			dataSegment{10, []byte("keep")}, dataSegment{0, []byte("a")}, dataSegment{30, []byte("b")}))},
	} {
		_, _, _, err := packDataSegments(c.wasm, 64)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: got %v, want an error with %q", c.name, err, c.want)
		}
	}
}
