package format

import (
	"encoding/binary"
	"fmt"
	"math"
)

// Models rabbit_binary_generator:table_to_binary/1 and
// rabbit_binary_parser:parse_table/1 (AMQP 0-9-1 field tables, with
// RabbitMQ's set of type codes).

// Field value type codes.
const (
	TypeLongString    = 'S'
	TypeSignedInt     = 'I'
	TypeUnsignedInt   = 'i'
	TypeDecimal       = 'D'
	TypeTimestamp     = 'T'
	TypeTable         = 'F'
	TypeArray         = 'A'
	TypeByte          = 'b'
	TypeUnsignedByte  = 'B'
	TypeShort         = 's'
	TypeUnsignedShort = 'u'
	TypeLong          = 'l'
	TypeLongL         = 'L' // read as a signed 64-bit long, like 'l'
	TypeDouble        = 'd'
	TypeFloat         = 'f'
	TypeBool          = 't'
	TypeBinary        = 'x'
	TypeVoid          = 'V'
)

// Table is an AMQP field table; field order is kept, as it is on the wire.
// Decoders return nil for an empty table or array.
type Table []Field

// Field is one named entry of a Table.
type Field struct {
	Name  string
	Value FieldValue
}

// FieldValue is a typed value of a table or array. Type selects which of the
// other fields holds the value.
type FieldValue struct {
	Type  byte
	Bytes []byte // S, x
	// Int holds every integer type; for T it is the 64-bit pattern of the
	// unsigned timestamp.
	Int          int64
	Float        float64 // d, f
	Bool         bool    // t
	DecimalScale uint8   // D: digits after the point
	Decimal      uint32  // D: unscaled value
	Array        []FieldValue
	Table        Table
}

// LongString returns an 'S' value.
func LongString(s string) FieldValue { return FieldValue{Type: TypeLongString, Bytes: []byte(s)} }

// SignedInt returns an 'I' value.
func SignedInt(v int32) FieldValue { return FieldValue{Type: TypeSignedInt, Int: int64(v)} }

// Long returns an 'l' value.
func Long(v int64) FieldValue { return FieldValue{Type: TypeLong, Int: v} }

// Bool returns a 't' value.
func Bool(v bool) FieldValue { return FieldValue{Type: TypeBool, Bool: v} }

// Timestamp returns a 'T' value.
func Timestamp(secs uint64) FieldValue { return FieldValue{Type: TypeTimestamp, Int: int64(secs)} }

// ArrayOf returns an 'A' value.
func ArrayOf(vs ...FieldValue) FieldValue { return FieldValue{Type: TypeArray, Array: vs} }

// TableOf returns an 'F' value.
func TableOf(t Table) FieldValue { return FieldValue{Type: TypeTable, Table: t} }

// Get returns the value of the first field named name.
func (t Table) Get(name string) (FieldValue, bool) {
	for _, f := range t {
		if f.Name == name {
			return f.Value, true
		}
	}
	return FieldValue{}, false
}

// maxTableDepth bounds nesting of tables and arrays.
const maxTableDepth = 64

// AppendTable appends the table with its u32 length prefix.
func AppendTable(dst []byte, t Table) ([]byte, error) {
	return appendTableDepth(dst, t, 0)
}

func appendTableDepth(dst []byte, t Table, depth int) ([]byte, error) {
	if depth > maxTableDepth {
		return dst, fmt.Errorf("field table nested too deeply")
	}
	at := len(dst)
	dst = append(dst, 0, 0, 0, 0)
	var err error
	for _, f := range t {
		if len(f.Name) > 255 {
			return dst, fmt.Errorf("field name %q is longer than 255 bytes", f.Name)
		}
		dst = append(dst, byte(len(f.Name)))
		dst = append(dst, f.Name...)
		if dst, err = appendFieldValue(dst, f.Value, depth); err != nil {
			return dst, fmt.Errorf("field %q: %w", f.Name, err)
		}
	}
	return putLength(dst, at)
}

func appendArray(dst []byte, vs []FieldValue, depth int) ([]byte, error) {
	if depth > maxTableDepth {
		return dst, fmt.Errorf("field array nested too deeply")
	}
	at := len(dst)
	dst = append(dst, 0, 0, 0, 0)
	var err error
	for i, v := range vs {
		if dst, err = appendFieldValue(dst, v, depth); err != nil {
			return dst, fmt.Errorf("array element %d: %w", i, err)
		}
	}
	return putLength(dst, at)
}

func putLength(dst []byte, at int) ([]byte, error) {
	n := len(dst) - at - 4
	if uint64(n) > math.MaxUint32 {
		return dst, fmt.Errorf("table of %d bytes is too large", n)
	}
	binary.BigEndian.PutUint32(dst[at:], uint32(n))
	return dst, nil
}

func appendFieldValue(dst []byte, v FieldValue, depth int) ([]byte, error) {
	dst = append(dst, v.Type)
	switch v.Type {
	case TypeLongString, TypeBinary:
		if uint64(len(v.Bytes)) > math.MaxUint32 {
			return dst, fmt.Errorf("string of %d bytes is too large", len(v.Bytes))
		}
		dst = binary.BigEndian.AppendUint32(dst, uint32(len(v.Bytes)))
		return append(dst, v.Bytes...), nil
	case TypeSignedInt, TypeUnsignedInt:
		return binary.BigEndian.AppendUint32(dst, uint32(v.Int)), nil
	case TypeLong, TypeLongL, TypeTimestamp:
		return binary.BigEndian.AppendUint64(dst, uint64(v.Int)), nil
	case TypeShort, TypeUnsignedShort:
		return binary.BigEndian.AppendUint16(dst, uint16(v.Int)), nil
	case TypeByte, TypeUnsignedByte:
		return append(dst, byte(v.Int)), nil
	case TypeBool:
		if v.Bool {
			return append(dst, 1), nil
		}
		return append(dst, 0), nil
	case TypeDouble:
		return binary.BigEndian.AppendUint64(dst, math.Float64bits(v.Float)), nil
	case TypeFloat:
		return binary.BigEndian.AppendUint32(dst, math.Float32bits(float32(v.Float))), nil
	case TypeDecimal:
		dst = append(dst, v.DecimalScale)
		return binary.BigEndian.AppendUint32(dst, v.Decimal), nil
	case TypeTable:
		return appendTableDepth(dst, v.Table, depth+1)
	case TypeArray:
		return appendArray(dst, v.Array, depth+1)
	case TypeVoid:
		return dst, nil
	}
	return dst, fmt.Errorf("unknown field type %q", v.Type)
}

// fieldReader decodes tables and arrays, tracking the offset for errors.
type fieldReader struct {
	data []byte
	pos  int
}

func (r *fieldReader) fail(kind error, format string, args ...any) *termError {
	return &termError{off: r.pos, kind: kind, msg: fmt.Sprintf(format, args...)}
}

func (r *fieldReader) need(n int, what string) *termError {
	if n < 0 || len(r.data)-r.pos < n {
		return r.fail(ErrTruncated, "%s needs %d bytes, %d left", what, n, len(r.data)-r.pos)
	}
	return nil
}

// table reads a u32 length and the table it prefixes.
func (r *fieldReader) table(depth int) (Table, *termError) {
	if depth > maxTableDepth {
		return nil, r.fail(ErrMalformed, "field table nested too deeply")
	}
	if err := r.need(4, "table length"); err != nil {
		return nil, err
	}
	n := int(min(binary.BigEndian.Uint32(r.data[r.pos:]), math.MaxInt32))
	r.pos += 4
	if err := r.need(n, "table"); err != nil {
		return nil, err
	}
	end := r.pos + n
	var t Table
	for r.pos < end {
		sub := &fieldReader{data: r.data[:end], pos: r.pos}
		if err := sub.need(1, "field name length"); err != nil {
			return nil, err
		}
		nl := int(sub.data[sub.pos])
		sub.pos++
		if err := sub.need(nl, "field name"); err != nil {
			return nil, err
		}
		name := string(sub.data[sub.pos : sub.pos+nl])
		sub.pos += nl
		v, err := sub.value(depth)
		if err != nil {
			return nil, err
		}
		t = append(t, Field{Name: name, Value: v})
		r.pos = sub.pos
	}
	return t, nil
}

// array reads a u32 length and the array it prefixes.
func (r *fieldReader) array(depth int) ([]FieldValue, *termError) {
	if depth > maxTableDepth {
		return nil, r.fail(ErrMalformed, "field array nested too deeply")
	}
	if err := r.need(4, "array length"); err != nil {
		return nil, err
	}
	n := int(min(binary.BigEndian.Uint32(r.data[r.pos:]), math.MaxInt32))
	r.pos += 4
	if err := r.need(n, "array"); err != nil {
		return nil, err
	}
	end := r.pos + n
	var vs []FieldValue
	for r.pos < end {
		sub := &fieldReader{data: r.data[:end], pos: r.pos}
		v, err := sub.value(depth)
		if err != nil {
			return nil, err
		}
		vs = append(vs, v)
		r.pos = sub.pos
	}
	return vs, nil
}

func (r *fieldReader) value(depth int) (FieldValue, *termError) {
	if err := r.need(1, "field type"); err != nil {
		return FieldValue{}, err
	}
	v := FieldValue{Type: r.data[r.pos]}
	r.pos++
	fixed := func(n int) ([]byte, *termError) {
		if err := r.need(n, fmt.Sprintf("%q value", v.Type)); err != nil {
			return nil, err
		}
		b := r.data[r.pos : r.pos+n]
		r.pos += n
		return b, nil
	}
	switch v.Type {
	case TypeLongString, TypeBinary:
		b, err := fixed(4)
		if err != nil {
			return v, err
		}
		n := int(min(binary.BigEndian.Uint32(b), math.MaxInt32))
		if v.Bytes, err = fixed(n); err != nil {
			return v, err
		}
	case TypeSignedInt:
		b, err := fixed(4)
		if err != nil {
			return v, err
		}
		v.Int = int64(int32(binary.BigEndian.Uint32(b)))
	case TypeUnsignedInt:
		b, err := fixed(4)
		if err != nil {
			return v, err
		}
		v.Int = int64(binary.BigEndian.Uint32(b))
	case TypeLong, TypeLongL, TypeTimestamp:
		b, err := fixed(8)
		if err != nil {
			return v, err
		}
		v.Int = int64(binary.BigEndian.Uint64(b))
	case TypeShort:
		b, err := fixed(2)
		if err != nil {
			return v, err
		}
		v.Int = int64(int16(binary.BigEndian.Uint16(b)))
	case TypeUnsignedShort:
		b, err := fixed(2)
		if err != nil {
			return v, err
		}
		v.Int = int64(binary.BigEndian.Uint16(b))
	case TypeByte:
		b, err := fixed(1)
		if err != nil {
			return v, err
		}
		v.Int = int64(int8(b[0]))
	case TypeUnsignedByte:
		b, err := fixed(1)
		if err != nil {
			return v, err
		}
		v.Int = int64(b[0])
	case TypeBool:
		b, err := fixed(1)
		if err != nil {
			return v, err
		}
		v.Bool = b[0] != 0
	case TypeDouble:
		b, err := fixed(8)
		if err != nil {
			return v, err
		}
		v.Float = math.Float64frombits(binary.BigEndian.Uint64(b))
	case TypeFloat:
		b, err := fixed(4)
		if err != nil {
			return v, err
		}
		v.Float = float64(math.Float32frombits(binary.BigEndian.Uint32(b)))
	case TypeDecimal:
		b, err := fixed(5)
		if err != nil {
			return v, err
		}
		v.DecimalScale = b[0]
		v.Decimal = binary.BigEndian.Uint32(b[1:])
	case TypeTable:
		t, err := r.table(depth + 1)
		if err != nil {
			return v, err
		}
		v.Table = t
	case TypeArray:
		a, err := r.array(depth + 1)
		if err != nil {
			return v, err
		}
		v.Array = a
	case TypeVoid:
	default:
		r.pos--
		return v, r.fail(ErrMalformed, "unknown field type %q", v.Type)
	}
	return v, nil
}
