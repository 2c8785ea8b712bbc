package format

import (
	"encoding/binary"
	"fmt"
	"math"

	"warren/engine/amqp"
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

// Table is an AMQP field table, amqp's: one model of a table from the
// client's frame to the message's file. Field order is kept, as it is on
// the wire; decoders return nil for an empty table or array.
type Table = amqp.Table

// Field is one named entry of a Table.
type Field = amqp.Field

// FieldValue is a typed value of a table or array.
type FieldValue = amqp.Value

// fieldCodes are the type codes RabbitMQ writes for each kind of value
// (rabbit_binary_generator).
var fieldCodes = [...]byte{
	amqp.LongStr: TypeLongString, amqp.SignedInt: TypeSignedInt, amqp.UnsignedInt: TypeUnsignedInt,
	amqp.Decimal: TypeDecimal, amqp.Timestamp: TypeTimestamp, amqp.Table_: TypeTable, amqp.Array: TypeArray,
	amqp.Byte: TypeByte, amqp.UnsignedByte: TypeUnsignedByte, amqp.Short: TypeShort,
	amqp.UnsignedShort: TypeUnsignedShort, amqp.Long: TypeLong, amqp.Double: TypeDouble,
	amqp.Float: TypeFloat, amqp.Bool: TypeBool, amqp.Binary: TypeBinary, amqp.Void: TypeVoid,
}

// fieldCode is the type code of a kind of value (0 for none).
func fieldCode(k amqp.Kind) byte {
	if int(k) < len(fieldCodes) {
		return fieldCodes[k]
	}
	return 0
}

// fieldKind is the kind of value a type code stands for: 'L' is read as
// a long, like 'l' (rabbit_binary_parser).
func fieldKind(code byte) (amqp.Kind, bool) {
	if code == TypeLongL {
		return amqp.Long, true
	}
	for k, c := range fieldCodes {
		if c == code && c != 0 {
			return amqp.Kind(k), true
		}
	}
	return 0, false
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
		if len(f.Key) > 255 {
			return dst, fmt.Errorf("field name %q is longer than 255 bytes", f.Key)
		}
		dst = append(dst, byte(len(f.Key)))
		dst = append(dst, f.Key...)
		if dst, err = appendFieldValue(dst, f.Val, depth); err != nil {
			return dst, fmt.Errorf("field %q: %w", f.Key, err)
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
	code := fieldCode(v.Kind)
	if code == 0 {
		return dst, fmt.Errorf("unknown field type %d", v.Kind)
	}
	dst = append(dst, code)
	switch v.Kind {
	case amqp.LongStr, amqp.Binary:
		if uint64(len(v.Str)) > math.MaxUint32 {
			return dst, fmt.Errorf("string of %d bytes is too large", len(v.Str))
		}
		dst = binary.BigEndian.AppendUint32(dst, uint32(len(v.Str)))
		return append(dst, v.Str...), nil
	case amqp.SignedInt, amqp.UnsignedInt:
		return binary.BigEndian.AppendUint32(dst, uint32(v.Int)), nil
	case amqp.Long, amqp.Timestamp:
		return binary.BigEndian.AppendUint64(dst, uint64(v.Int)), nil
	case amqp.Short, amqp.UnsignedShort:
		return binary.BigEndian.AppendUint16(dst, uint16(v.Int)), nil
	case amqp.Byte, amqp.UnsignedByte:
		return append(dst, byte(v.Int)), nil
	case amqp.Bool:
		if v.Int != 0 {
			return append(dst, 1), nil
		}
		return append(dst, 0), nil
	case amqp.Double:
		return binary.BigEndian.AppendUint64(dst, math.Float64bits(v.Float)), nil
	case amqp.Float:
		return binary.BigEndian.AppendUint32(dst, math.Float32bits(float32(v.Float))), nil
	case amqp.Decimal:
		dst = append(dst, v.Scale)
		return binary.BigEndian.AppendUint32(dst, uint32(v.Int)), nil
	case amqp.Table_:
		return appendTableDepth(dst, v.Tab, depth+1)
	case amqp.Array:
		return appendArray(dst, v.Arr, depth+1)
	}
	return dst, nil // void
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
		t = append(t, Field{Key: name, Val: v})
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
	code := r.data[r.pos]
	kind, known := fieldKind(code)
	if !known {
		return FieldValue{}, r.fail(ErrMalformed, "unknown field type %q", code)
	}
	v := FieldValue{Kind: kind}
	r.pos++
	fixed := func(n int) ([]byte, *termError) {
		if err := r.need(n, fmt.Sprintf("%q value", code)); err != nil {
			return nil, err
		}
		b := r.data[r.pos : r.pos+n]
		r.pos += n
		return b, nil
	}
	switch code {
	case TypeLongString, TypeBinary:
		b, err := fixed(4)
		if err != nil {
			return v, err
		}
		n := int(min(binary.BigEndian.Uint32(b), math.MaxInt32))
		if b, err = fixed(n); err != nil {
			return v, err
		}
		v.Str = string(b)
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
		if b[0] != 0 {
			v.Int = 1
		}
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
		v.Scale = b[0]
		v.Int = int64(binary.BigEndian.Uint32(b[1:]))
	case TypeTable:
		t, err := r.table(depth + 1)
		if err != nil {
			return v, err
		}
		v.Tab = t
	case TypeArray:
		a, err := r.array(depth + 1)
		if err != nil {
			return v, err
		}
		v.Arr = a
	}
	return v, nil
}
