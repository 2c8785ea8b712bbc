package format

import (
	"encoding/binary"
	"fmt"
	"math"
	"unicode/utf8"
)

// Models term_to_binary/1 and binary_to_term/1 of OTP 25 (external term
// format, minor version 1), for the terms RabbitMQ stores.

// Term is one Erlang term: Atom, int64, float64, Binary, Tuple or List.
// Strings (STRING_EXT) decode to a List of int64.
type Term = any

// Atom is an Erlang atom.
type Atom string

// Binary is an Erlang binary.
type Binary []byte

// Tuple is an Erlang tuple.
type Tuple []Term

// List is a proper Erlang list; the empty List is [] (NIL).
type List []Term

// External term format tags.
const (
	etfVersion       = 131
	tagNewFloat      = 70
	tagSmallInteger  = 97
	tagInteger       = 98
	tagAtom          = 100
	tagSmallTuple    = 104
	tagLargeTuple    = 105
	tagNil           = 106
	tagString        = 107
	tagList          = 108
	tagBinary        = 109
	tagSmallBig      = 110
	tagLargeBig      = 111
	tagSmallAtom     = 115
	tagAtomUTF8      = 118
	tagSmallAtomUTF8 = 119
)

// maxTermDepth bounds nesting so that hostile input cannot exhaust the stack.
const maxTermDepth = 100

// termError is a decoding failure at an offset relative to the term start.
type termError struct {
	off  int
	kind error
	msg  string
}

func (e *termError) Error() string { return fmt.Sprintf("offset %d: %s", e.off, e.msg) }

// DecodeTerm decodes a whole binary made by term_to_binary. Errors are
// *DecodeError naming file and the absolute offset base+position.
func DecodeTerm(file string, base int64, data []byte) (Term, error) {
	t, err := decodeTerm(data)
	if err != nil {
		return nil, decodeErr(file, base+int64(err.off), err.kind, "term: %s", err.msg)
	}
	return t, nil
}

func decodeTerm(data []byte) (Term, *termError) {
	d := &termDecoder{data: data}
	if len(data) == 0 {
		return nil, &termError{0, ErrTruncated, "empty term"}
	}
	if data[0] != etfVersion {
		return nil, &termError{0, ErrMalformed, fmt.Sprintf("version byte %d, want 131", data[0])}
	}
	d.pos = 1
	t, err := d.term(0)
	if err != nil {
		return nil, err
	}
	if d.pos != len(data) {
		return nil, &termError{d.pos, ErrMalformed, fmt.Sprintf("%d bytes after the term", len(data)-d.pos)}
	}
	return t, nil
}

type termDecoder struct {
	data []byte
	pos  int
}

func (d *termDecoder) need(n int, what string) *termError {
	if n < 0 || len(d.data)-d.pos < n {
		return &termError{d.pos, ErrTruncated, fmt.Sprintf("%s needs %d bytes, %d left", what, n, len(d.data)-d.pos)}
	}
	return nil
}

func (d *termDecoder) u8() byte {
	b := d.data[d.pos]
	d.pos++
	return b
}

func (d *termDecoder) u16() int {
	v := binary.BigEndian.Uint16(d.data[d.pos:])
	d.pos += 2
	return int(v)
}

func (d *termDecoder) u32() uint32 {
	v := binary.BigEndian.Uint32(d.data[d.pos:])
	d.pos += 4
	return v
}

func (d *termDecoder) term(depth int) (Term, *termError) {
	if depth > maxTermDepth {
		return nil, &termError{d.pos, ErrMalformed, "term nested too deeply"}
	}
	if err := d.need(1, "tag"); err != nil {
		return nil, err
	}
	start := d.pos
	tag := d.u8()
	switch tag {
	case tagSmallInteger:
		if err := d.need(1, "small integer"); err != nil {
			return nil, err
		}
		return int64(d.u8()), nil
	case tagInteger:
		if err := d.need(4, "integer"); err != nil {
			return nil, err
		}
		return int64(int32(d.u32())), nil
	case tagSmallBig, tagLargeBig:
		return d.bigInt(tag, start)
	case tagNewFloat:
		if err := d.need(8, "float"); err != nil {
			return nil, err
		}
		v := math.Float64frombits(binary.BigEndian.Uint64(d.data[d.pos:]))
		d.pos += 8
		return v, nil
	case tagAtom, tagAtomUTF8, tagSmallAtom, tagSmallAtomUTF8:
		return d.atom(tag)
	case tagBinary:
		if err := d.need(4, "binary length"); err != nil {
			return nil, err
		}
		n := d.u32()
		if err := d.need(int(min(n, math.MaxInt32)), "binary"); err != nil {
			return nil, err
		}
		b := Binary(d.data[d.pos : d.pos+int(n)])
		d.pos += int(n)
		return b, nil
	case tagSmallTuple, tagLargeTuple:
		var n int
		if tag == tagSmallTuple {
			if err := d.need(1, "tuple arity"); err != nil {
				return nil, err
			}
			n = int(d.u8())
		} else {
			if err := d.need(4, "tuple arity"); err != nil {
				return nil, err
			}
			n = int(min(d.u32(), math.MaxInt32))
		}
		if err := d.need(n, "tuple elements"); err != nil {
			return nil, err
		}
		t := make(Tuple, 0, n)
		for i := 0; i < n; i++ {
			e, err := d.term(depth + 1)
			if err != nil {
				return nil, err
			}
			t = append(t, e)
		}
		return t, nil
	case tagNil:
		return List{}, nil
	case tagString:
		if err := d.need(2, "string length"); err != nil {
			return nil, err
		}
		n := d.u16()
		if err := d.need(n, "string"); err != nil {
			return nil, err
		}
		l := make(List, n)
		for i := range l {
			l[i] = int64(d.u8())
		}
		return l, nil
	case tagList:
		if err := d.need(4, "list length"); err != nil {
			return nil, err
		}
		n := int(min(d.u32(), math.MaxInt32))
		if err := d.need(n+1, "list elements"); err != nil {
			return nil, err
		}
		l := make(List, 0, n)
		for i := 0; i < n; i++ {
			e, err := d.term(depth + 1)
			if err != nil {
				return nil, err
			}
			l = append(l, e)
		}
		tailAt := d.pos
		tail, err := d.term(depth + 1)
		if err != nil {
			return nil, err
		}
		if tl, ok := tail.(List); !ok || len(tl) != 0 {
			return nil, &termError{tailAt, ErrMalformed, "improper list"}
		}
		return l, nil
	}
	return nil, &termError{start, ErrMalformed, fmt.Sprintf("unsupported term tag %d", tag)}
}

func (d *termDecoder) atom(tag byte) (Term, *termError) {
	var n int
	if tag == tagSmallAtom || tag == tagSmallAtomUTF8 {
		if err := d.need(1, "atom length"); err != nil {
			return nil, err
		}
		n = int(d.u8())
	} else {
		if err := d.need(2, "atom length"); err != nil {
			return nil, err
		}
		n = d.u16()
	}
	if err := d.need(n, "atom"); err != nil {
		return nil, err
	}
	raw := d.data[d.pos : d.pos+n]
	at := d.pos
	d.pos += n
	if tag == tagAtomUTF8 || tag == tagSmallAtomUTF8 {
		if !utf8.Valid(raw) {
			return nil, &termError{at, ErrMalformed, "atom is not valid UTF-8"}
		}
		return Atom(raw), nil
	}
	// Latin-1: each byte is one code point.
	runes := make([]rune, len(raw))
	for i, c := range raw {
		runes[i] = rune(c)
	}
	return Atom(string(runes)), nil
}

func (d *termDecoder) bigInt(tag byte, start int) (Term, *termError) {
	var n int
	if tag == tagSmallBig {
		if err := d.need(1, "big integer length"); err != nil {
			return nil, err
		}
		n = int(d.u8())
	} else {
		if err := d.need(4, "big integer length"); err != nil {
			return nil, err
		}
		n = int(min(d.u32(), math.MaxInt32))
	}
	if err := d.need(n+1, "big integer"); err != nil {
		return nil, err
	}
	sign := d.u8()
	digits := d.data[d.pos : d.pos+n]
	d.pos += n
	var mag uint64
	for i := len(digits) - 1; i >= 0; i-- {
		if mag>>56 != 0 {
			return nil, &termError{start, ErrMalformed, "integer does not fit in 64 bits"}
		}
		mag = mag<<8 | uint64(digits[i])
	}
	switch {
	case sign == 0 && mag <= math.MaxInt64:
		return int64(mag), nil
	case sign != 0 && mag <= 1<<63:
		return int64(-mag), nil
	}
	return nil, &termError{start, ErrMalformed, "integer does not fit in 64 bits"}
}

// EncodeTerm encodes t as term_to_binary/1 of OTP 25 does.
func EncodeTerm(t Term) ([]byte, error) {
	return encodeTermIn(t, 64)
}

// encodeTermIn is EncodeTerm into a buffer made for about size bytes: a
// message's term is mostly its body, and growing the buffer to it step by
// step copied the body over and over.
func encodeTermIn(t Term, size int) ([]byte, error) {
	b := make([]byte, 1, size+1)
	b[0] = etfVersion
	return appendTerm(b, t, 0)
}

func appendTerm(b []byte, t Term, depth int) ([]byte, error) {
	if depth > maxTermDepth {
		return b, fmt.Errorf("term nested too deeply")
	}
	switch v := t.(type) {
	case Atom:
		return appendAtom(b, v)
	case bool:
		if v {
			return appendAtom(b, "true")
		}
		return appendAtom(b, "false")
	case int:
		return appendInt(b, int64(v)), nil
	case int64:
		return appendInt(b, v), nil
	case float64:
		b = append(b, tagNewFloat)
		return binary.BigEndian.AppendUint64(b, math.Float64bits(v)), nil
	case Binary:
		return appendBinary(b, v)
	case []byte:
		return appendBinary(b, v)
	case Tuple:
		if len(v) <= 255 {
			b = append(b, tagSmallTuple, byte(len(v)))
		} else {
			b = append(b, tagLargeTuple)
			b = binary.BigEndian.AppendUint32(b, uint32(len(v)))
		}
		var err error
		for _, e := range v {
			if b, err = appendTerm(b, e, depth+1); err != nil {
				return b, err
			}
		}
		return b, nil
	case List:
		if len(v) == 0 {
			return append(b, tagNil), nil
		}
		if s, ok := byteString(v); ok {
			b = append(b, tagString)
			b = binary.BigEndian.AppendUint16(b, uint16(len(s)))
			return append(b, s...), nil
		}
		b = append(b, tagList)
		b = binary.BigEndian.AppendUint32(b, uint32(len(v)))
		var err error
		for _, e := range v {
			if b, err = appendTerm(b, e, depth+1); err != nil {
				return b, err
			}
		}
		return append(b, tagNil), nil
	}
	return b, fmt.Errorf("cannot encode %T as an Erlang term", t)
}

// appendASCIIAtom appends an atom the caller knows is ASCII and at most
// 255 characters long, as ATOM_EXT (OTP 25's term_to_binary writes latin-1
// atoms so).
func appendASCIIAtom(b []byte, a string) []byte {
	b = append(b, tagAtom)
	b = binary.BigEndian.AppendUint16(b, uint16(len(a)))
	return append(b, a...)
}

// ascii says whether s is all ASCII.
func ascii(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] >= utf8.RuneSelf {
			return false
		}
	}
	return true
}

// appendBinaryString appends s as BINARY_EXT. A Go string is shorter than
// 4 GiB here: its caller's names and ids are.
func appendBinaryString(b []byte, s string) []byte {
	b = append(b, tagBinary)
	b = binary.BigEndian.AppendUint32(b, uint32(len(s)))
	return append(b, s...)
}

// appendListHead begins a proper list of n elements, which end with
// NIL_EXT (alone, when it is empty).
func appendListHead(b []byte, n int) []byte {
	if n == 0 {
		return b
	}
	b = append(b, tagList)
	return binary.BigEndian.AppendUint32(b, uint32(n))
}

func appendBinary(b, v []byte) ([]byte, error) {
	if uint64(len(v)) > math.MaxUint32 {
		return b, fmt.Errorf("binary of %d bytes is too large", len(v))
	}
	b = append(b, tagBinary)
	b = binary.BigEndian.AppendUint32(b, uint32(len(v)))
	return append(b, v...), nil
}

// byteString reports whether a list is one term_to_binary writes as
// STRING_EXT: at most 65535 integers, each in 0..255.
func byteString(l List) ([]byte, bool) {
	if len(l) > 65535 {
		return nil, false
	}
	s := make([]byte, len(l))
	for i, e := range l {
		var n int64
		switch x := e.(type) {
		case int64:
			n = x
		case int:
			n = int64(x)
		default:
			return nil, false
		}
		if n < 0 || n > 255 {
			return nil, false
		}
		s[i] = byte(n)
	}
	return s, true
}

func appendAtom(b []byte, a Atom) ([]byte, error) {
	if ascii(string(a)) && len(a) <= 255 {
		return appendASCIIAtom(b, string(a)), nil // most atoms, and no copy
	}
	latin1 := make([]byte, 0, len(a))
	for _, r := range string(a) {
		if r > 255 {
			latin1 = nil
			break
		}
		latin1 = append(latin1, byte(r))
	}
	if latin1 != nil || len(a) == 0 {
		if len(latin1) > 255 {
			return b, fmt.Errorf("atom %q is longer than 255 characters", a)
		}
		b = append(b, tagAtom)
		b = binary.BigEndian.AppendUint16(b, uint16(len(latin1)))
		return append(b, latin1...), nil
	}
	if utf8.RuneCountInString(string(a)) > 255 {
		return b, fmt.Errorf("atom %q is longer than 255 characters", a)
	}
	if len(a) <= 255 {
		b = append(b, tagSmallAtomUTF8, byte(len(a)))
		return append(b, a...), nil
	}
	b = append(b, tagAtomUTF8)
	b = binary.BigEndian.AppendUint16(b, uint16(len(a)))
	return append(b, a...), nil
}

func appendInt(b []byte, v int64) []byte {
	switch {
	case v >= 0 && v <= 255:
		return append(b, tagSmallInteger, byte(v))
	case v >= math.MinInt32 && v <= math.MaxInt32:
		b = append(b, tagInteger)
		return binary.BigEndian.AppendUint32(b, uint32(int32(v)))
	}
	sign := byte(0)
	mag := uint64(v)
	if v < 0 {
		sign = 1
		mag = uint64(-v)
	}
	var digits []byte
	for mag > 0 {
		digits = append(digits, byte(mag))
		mag >>= 8
	}
	b = append(b, tagSmallBig, byte(len(digits)), sign)
	return append(b, digits...)
}
