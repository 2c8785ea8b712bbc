package amqp

import (
	"sort"
	"strconv"
	"strings"
)

// Kind is the AMQP field type of a Value, named as RabbitMQ names it in
// error texts (signedint, long, longstr, ...).
type Kind uint8

// The field types a table value can carry.
const (
	Void Kind = iota
	Bool
	Byte
	UnsignedByte
	Short
	UnsignedShort
	SignedInt
	UnsignedInt
	Long
	Float
	Double
	Decimal
	LongStr
	Timestamp
	Array
	Table_
	Binary
)

var kindNames = [...]string{
	Void: "void", Bool: "bool", Byte: "byte", UnsignedByte: "unsignedbyte",
	Short: "short", UnsignedShort: "unsignedshort", SignedInt: "signedint",
	UnsignedInt: "unsignedint", Long: "long", Float: "float", Double: "double",
	Decimal: "decimal", LongStr: "longstr", Timestamp: "timestamp",
	Array: "array", Table_: "table", Binary: "binary",
}

// String returns RabbitMQ's name for the type.
func (k Kind) String() string {
	if int(k) < len(kindNames) {
		return kindNames[k]
	}
	return "unknown"
}

// IsInt reports whether the type belongs to RabbitMQ's integer class
// (rabbit_misc:type_class/1 returns int for it).
func (k Kind) IsInt() bool {
	switch k {
	case Byte, UnsignedByte, Short, UnsignedShort, SignedInt, UnsignedInt, Long, Decimal:
		return true
	}
	return false
}

// Value is one typed field-table value: what a client sends, what the
// node keeps, and what a message's file holds (engine/store/format
// encodes and decodes these very values).
type Value struct {
	Kind  Kind
	Int   int64   // integer kinds, Timestamp (its unsigned bits), Bool (0/1), Decimal (unscaled)
	Float float64 // Float, Double
	Str   string  // LongStr, Binary
	Arr   []Value // Array
	Tab   Table   // Table_
	Scale uint8   // Decimal: the digits after the point
}

// Field is one named entry of a table; tables keep their wire order.
type Field struct {
	Key string
	Val Value
}

// Table is an AMQP field table in wire order.
type Table []Field

// IntValue returns a signed 32-bit integer value, or a long one if n does
// not fit in 32 bits.
func IntValue(n int64) Value {
	if n >= -1<<31 && n < 1<<31 {
		return Value{Kind: SignedInt, Int: n}
	}
	return Value{Kind: Long, Int: n}
}

// LongValue returns an AMQP long (64-bit) integer value.
func LongValue(n int64) Value { return Value{Kind: Long, Int: n} }

// StrValue returns a longstr value.
func StrValue(s string) Value { return Value{Kind: LongStr, Str: s} }

// BoolValue returns a boolean value.
func BoolValue(b bool) Value {
	v := Value{Kind: Bool}
	if b {
		v.Int = 1
	}
	return v
}

// ArrayValue returns an array value.
func ArrayValue(vs ...Value) Value { return Value{Kind: Array, Arr: vs} }

// TableValue returns a nested table value.
func TableValue(t Table) Value { return Value{Kind: Table_, Tab: t} }

// ParseValue types a scenario value the way the command language does: an
// integer that fits in 32 bits is signedint, true and false are booleans,
// anything else (including the empty string) is a longstr.
func ParseValue(s string) Value {
	switch s {
	case "true":
		return BoolValue(true)
	case "false":
		return BoolValue(false)
	}
	if n, err := strconv.ParseInt(s, 10, 32); err == nil && LooksInteger(s) {
		return Value{Kind: SignedInt, Int: n}
	}
	return StrValue(s)
}

// LooksInteger says whether s is written as a decimal integer, an optional
// minus then digits: it rejects forms strconv accepts but a reader would
// not call an integer ("+5").
func LooksInteger(s string) bool {
	if s == "" {
		return false
	}
	if s[0] == '-' {
		s = s[1:]
	}
	if s == "" {
		return false
	}
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return true
}

// Equal reports whether two values are the same term for RabbitMQ's
// argument equivalence: integers compare by value across integer types.
func (v Value) Equal(o Value) bool {
	if v.Kind.IsInt() && o.Kind.IsInt() {
		return v.Int == o.Int
	}
	if v.Kind != o.Kind {
		return false
	}
	switch v.Kind {
	case LongStr, Binary:
		return v.Str == o.Str
	case Float, Double:
		return v.Float == o.Float
	case Array:
		if len(v.Arr) != len(o.Arr) {
			return false
		}
		for i := range v.Arr {
			if !v.Arr[i].Equal(o.Arr[i]) {
				return false
			}
		}
		return true
	case Table_:
		return v.Tab.Equal(o.Tab)
	default:
		return v.Int == o.Int
	}
}

// Term formats the value as Erlang's ~p (or ~s for binaries) would print it
// inside a RabbitMQ error text.
func (v Value) Term() string {
	switch {
	case v.Kind == LongStr:
		return v.Str
	case v.Kind == Bool:
		if v.Int != 0 {
			return "true"
		}
		return "false"
	case v.Kind.IsInt() || v.Kind == Timestamp:
		return strconv.FormatInt(v.Int, 10)
	case v.Kind == Float || v.Kind == Double:
		return strconv.FormatFloat(v.Float, 'e', 14, 64)
	}
	return v.String()
}

// String prints the value the way warren's trace prints header values:
// integers in decimal, booleans true/false, arrays [a b], tables {k=v, ...}.
func (v Value) String() string {
	switch v.Kind {
	case LongStr, Binary:
		return v.Str
	case Bool:
		if v.Int != 0 {
			return "true"
		}
		return "false"
	case Float, Double:
		return strconv.FormatFloat(v.Float, 'g', -1, 64)
	case Void:
		return "void"
	case Array:
		parts := make([]string, len(v.Arr))
		for i, e := range v.Arr {
			parts[i] = e.String()
		}
		return "[" + strings.Join(parts, " ") + "]"
	case Table_:
		return v.Tab.String()
	}
	return strconv.FormatInt(v.Int, 10)
}

// Get returns the value stored under key.
func (t Table) Get(key string) (Value, bool) {
	for i := range t {
		if t[i].Key == key {
			return t[i].Val, true
		}
	}
	return Value{}, false
}

// With returns a copy of t with key set to v (replacing an existing entry in
// place, else appended).
func (t Table) With(key string, v Value) Table {
	out := make(Table, 0, len(t)+1)
	found := false
	for _, f := range t {
		if f.Key == key {
			out = append(out, Field{key, v})
			found = true
			continue
		}
		out = append(out, f)
	}
	if !found {
		out = append(out, Field{key, v})
	}
	return out
}

// Without returns a copy of t without key.
func (t Table) Without(key string) Table {
	out := make(Table, 0, len(t))
	for _, f := range t {
		if f.Key != key {
			out = append(out, f)
		}
	}
	return out
}

// Equal reports whether both tables hold the same keys with equal values.
func (t Table) Equal(o Table) bool {
	if len(t) != len(o) {
		return false
	}
	for _, f := range t {
		ov, ok := o.Get(f.Key)
		if !ok || !f.Val.Equal(ov) {
			return false
		}
	}
	return true
}

// Sorted returns a copy of t with its keys in bytewise order.
func (t Table) Sorted() Table {
	out := append(Table(nil), t...)
	sort.SliceStable(out, func(i, j int) bool { return out[i].Key < out[j].Key })
	return out
}

// String prints the table as {k=v, k=v} with keys sorted bytewise.
func (t Table) String() string {
	var b strings.Builder
	b.WriteByte('{')
	for i, f := range t.Sorted() {
		if i > 0 {
			b.WriteString(", ")
		}
		b.WriteString(f.Key)
		b.WriteByte('=')
		b.WriteString(f.Val.String())
	}
	b.WriteByte('}')
	return b.String()
}
