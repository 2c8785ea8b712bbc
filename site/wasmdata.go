package site

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
)

// packGap is the longest run of zero bytes between two data segments of
// warren.wasm that packDataSegments writes out rather than keep the
// segments apart.
//
// NB: a measured choice. Go's linker starts a new data segment at every
// run of more than 8 zero bytes, which makes the smallest raw file: the
// whole engine had 81,015 segments, most of them 18 zero bytes apart in
// the function tables. Each segment header (flags, an address, a length)
// is about 7 bytes that neither gzip nor brotli predict well, while a run
// of zeros costs them almost nothing. Zopfli --i1 and brotli -q 11 of the
// same build, by the longest gap merged:
//
//	gap             segments   raw         gzip        brotli
//	none (Go's)     81,015     5,779,361   1,356,523   1,024,145
//	16              76,747     5,795,663   1,342,526   1,006,420
//	32                 353     6,572,989   1,221,571     938,222
//	128                 13     6,586,012   1,220,430     935,655
//	4096                 6     6,590,392   1,220,235     935,708
//
// Past 32 bytes the gain is flat; 128 keeps the raw file near its
// smallest for that gain. The memory image is the same byte for byte, so
// this changes nothing the program sees; it also keeps the count far from
// the 100,000 segments that browsers accept at most.
const packGap = 128

// wasm section ids that packDataSegments reads or rewrites.
const (
	wasmSectionData      = 11
	wasmSectionDataCount = 12
)

// packDataSegments returns wasm with every two consecutive active data
// segments of memory 0 that are at most maxGap zero bytes apart written
// as one, and how many segments there were before and after. It checks
// the module's structure as it goes and refuses, with where and what,
// any segment form the Go linker does not write (passive segments,
// another memory, an offset that is not one i32.const).
func packDataSegments(wasm []byte, maxGap int) (out []byte, before, after int, err error) {
	if len(wasm) < 8 || string(wasm[:4]) != "\x00asm" || binary.LittleEndian.Uint32(wasm[4:8]) != 1 {
		return nil, 0, 0, errors.New("not a WebAssembly 1 module (no \\0asm header, version 1)")
	}
	type section struct {
		id   byte
		body []byte
	}
	var sections []section
	var data []dataSegment
	for pos := 8; pos < len(wasm); {
		id := wasm[pos]
		size, n := binary.Uvarint(wasm[pos+1:])
		if n <= 0 || size > uint64(len(wasm)-pos-1-n) {
			return nil, 0, 0, fmt.Errorf("section %d at byte %d: bad size", id, pos)
		}
		body := wasm[pos+1+n : pos+1+n+int(size)]
		if id == wasmSectionData {
			segs, err := readDataSegments(body)
			if err != nil {
				return nil, 0, 0, fmt.Errorf("data section at byte %d: %w", pos, err)
			}
			before = len(segs)
			data = mergeDataSegments(segs, maxGap)
			after = len(data)
			if !bytes.Equal(memoryImage(segs), memoryImage(data)) {
				return nil, 0, 0, errors.New("joining the data segments changed the memory they initialise")
			}
		}
		sections = append(sections, section{id, body})
		pos += 1 + n + int(size)
	}
	out = append(make([]byte, 0, len(wasm)+len(wasm)/4), wasm[:8]...)
	for _, s := range sections {
		body := s.body
		switch s.id {
		case wasmSectionDataCount:
			body = binary.AppendUvarint(nil, uint64(after))
		case wasmSectionData:
			body = binary.AppendUvarint(nil, uint64(len(data)))
			for _, d := range data {
				body = append(body, 0x00, 0x41) // active, memory 0; i32.const
				body = appendSleb(body, int64(d.addr))
				body = append(body, 0x0b) // end
				body = binary.AppendUvarint(body, uint64(len(d.data)))
				body = append(body, d.data...)
			}
		}
		out = append(out, s.id)
		out = binary.AppendUvarint(out, uint64(len(body)))
		out = append(out, body...)
	}
	return out, before, after, nil
}

// dataSegment is one active data segment of memory 0: data at addr.
type dataSegment struct {
	addr uint32
	data []byte
}

// readDataSegments parses the payload of a data section.
func readDataSegments(body []byte) ([]dataSegment, error) {
	count, n := binary.Uvarint(body)
	if n <= 0 {
		return nil, errors.New("bad segment count")
	}
	p := n
	segs := make([]dataSegment, 0, count)
	for i := range count {
		if p+2 > len(body) || body[p] != 0x00 || body[p+1] != 0x41 {
			return nil, fmt.Errorf("segment %d: not an active segment of memory 0 at an i32.const address", i)
		}
		p += 2
		addr, n := readSleb(body[p:])
		if n <= 0 || addr < 0 || addr > 1<<32-1 {
			return nil, fmt.Errorf("segment %d: bad address", i)
		}
		p += n
		if p >= len(body) || body[p] != 0x0b {
			return nil, fmt.Errorf("segment %d: the address is not a single i32.const", i)
		}
		p++
		size, n := binary.Uvarint(body[p:])
		if n <= 0 || size > uint64(len(body)-p-n) {
			return nil, fmt.Errorf("segment %d: bad length", i)
		}
		p += n
		segs = append(segs, dataSegment{uint32(addr), body[p : p+int(size)]})
		p += int(size)
	}
	if p != len(body) {
		return nil, fmt.Errorf("%d bytes after the last segment", len(body)-p)
	}
	return segs, nil
}

// mergeDataSegments joins each segment to the one before it when it
// starts at most maxGap bytes after that one ends, filling the gap with
// the zeros the memory holds there anyway. Segments out of address order
// or overlapping are kept as they are, in their order.
func mergeDataSegments(segs []dataSegment, maxGap int) []dataSegment {
	var out []dataSegment
	for _, s := range segs {
		if k := len(out) - 1; k >= 0 {
			last := &out[k]
			end := uint64(last.addr) + uint64(len(last.data))
			if gap := int64(s.addr) - int64(end); gap >= 0 && gap <= int64(maxGap) {
				last.data = append(append(last.data, make([]byte, gap)...), s.data...)
				continue
			}
		}
		out = append(out, dataSegment{s.addr, append([]byte(nil), s.data...)})
	}
	return out
}

// memoryImage is the memory that segs initialise, from address 0 to the
// end of the highest one, applied in order as an engine does.
func memoryImage(segs []dataSegment) []byte {
	var size uint64
	for _, s := range segs {
		size = max(size, uint64(s.addr)+uint64(len(s.data)))
	}
	img := make([]byte, size)
	for _, s := range segs {
		copy(img[s.addr:], s.data)
	}
	return img
}

// readSleb reads a signed LEB128 number of at most 64 bits.
func readSleb(b []byte) (int64, int) {
	var v int64
	var shift uint
	for i, c := range b {
		if i == 10 {
			return 0, -1
		}
		v |= int64(c&0x7f) << shift
		shift += 7
		if c < 0x80 {
			if shift < 64 && c&0x40 != 0 {
				v |= -1 << shift
			}
			return v, i + 1
		}
	}
	return 0, 0
}

// appendSleb appends v as a signed LEB128 number.
func appendSleb(b []byte, v int64) []byte {
	for {
		c := byte(v & 0x7f)
		v >>= 7
		if (v == 0 && c&0x40 == 0) || (v == -1 && c&0x40 != 0) {
			return append(b, c)
		}
		b = append(b, c|0x80)
	}
}
