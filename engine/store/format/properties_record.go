package format

import (
	"fmt"

	"warren/engine/amqp"
)

// Models the #'P_basic'{} record of rabbit_framing_amqp_0_9_1 and the typed
// table form of rabbit_binary_parser ({Name, Type, Value} tuples).

// fieldTypeAtom is the atom RabbitMQ names a kind of value with: amqp's
// name for it.
func fieldTypeAtom(k amqp.Kind) Atom { return Atom(k.String()) }

// fieldTypeFromAtom is the kind of value an atom names.
func fieldTypeFromAtom(a Atom) (amqp.Kind, bool) {
	for k := amqp.Kind(0); int(k) < len(fieldCodes); k++ {
		if fieldTypeAtom(k) == a {
			return k, true
		}
	}
	return 0, false
}

// propertiesRecord returns the P_basic record for p: undefined for an absent
// property.
func propertiesRecord(p Properties) (Tuple, error) {
	undef := Atom("undefined")
	str := func(flag uint16, s string) Term {
		if !p.Has(flag) {
			return undef
		}
		return Binary(s)
	}
	num := func(flag uint16, v int64) Term {
		if !p.Has(flag) {
			return undef
		}
		return v
	}
	var headers Term = undef
	if p.Has(FlagHeaders) {
		h, err := tableTerm(p.Headers, 0)
		if err != nil {
			return nil, err
		}
		headers = h
	}
	return Tuple{
		Atom(basicPropsAtom),
		str(FlagContentType, p.ContentType),
		str(FlagContentEncoding, p.ContentEncoding),
		headers,
		num(FlagDeliveryMode, int64(p.DeliveryMode)),
		num(FlagPriority, int64(p.Priority)),
		str(FlagCorrelationID, p.CorrelationID),
		str(FlagReplyTo, p.ReplyTo),
		str(FlagExpiration, p.Expiration),
		str(FlagMessageID, p.MessageID),
		num(FlagTimestamp, int64(p.Timestamp)),
		str(FlagType, p.Type),
		str(FlagUserID, p.UserID),
		str(FlagAppID, p.AppID),
		str(FlagClusterID, p.ClusterID),
	}, nil
}

func tableTerm(t Table, depth int) (List, error) {
	if depth > maxTableDepth {
		return nil, fmt.Errorf("field table nested too deeply")
	}
	out := make(List, 0, len(t))
	for _, f := range t {
		v, err := valueTerm(f.Val, depth)
		if err != nil {
			return nil, fmt.Errorf("field %q: %w", f.Key, err)
		}
		out = append(out, Tuple{Binary(f.Key), fieldTypeAtom(f.Val.Kind), v})
	}
	return out, nil
}

func valueTerm(v FieldValue, depth int) (Term, error) {
	switch v.Kind {
	case amqp.LongStr, amqp.Binary:
		return Binary(v.Str), nil
	case amqp.SignedInt, amqp.UnsignedInt, amqp.Timestamp, amqp.Byte, amqp.UnsignedByte,
		amqp.Short, amqp.UnsignedShort, amqp.Long:
		return v.Int, nil
	case amqp.Double, amqp.Float:
		return v.Float, nil
	case amqp.Bool:
		return v.Int != 0, nil
	case amqp.Decimal:
		return Tuple{int64(v.Scale), v.Int}, nil
	case amqp.Void:
		return Atom("undefined"), nil
	case amqp.Table_:
		return tableTerm(v.Tab, depth+1)
	case amqp.Array:
		out := make(List, 0, len(v.Arr))
		for _, e := range v.Arr {
			t, err := valueTerm(e, depth+1)
			if err != nil {
				return nil, err
			}
			out = append(out, Tuple{fieldTypeAtom(e.Kind), t})
		}
		return out, nil
	}
	return nil, fmt.Errorf("unknown field type %d", v.Kind)
}

// propertiesFromRecord reads a P_basic record.
func propertiesFromRecord(t Term) (Properties, error) {
	var p Properties
	rec, ok := t.(Tuple)
	if !ok || len(rec) != 15 || rec[0] != Atom(basicPropsAtom) {
		return p, fmt.Errorf("properties are neither none nor a P_basic record")
	}
	type slot struct {
		flag uint16
		set  func(Term) error
	}
	str := func(dst *string) func(Term) error {
		return func(t Term) error {
			b, ok := t.(Binary)
			if !ok {
				return fmt.Errorf("expected a binary")
			}
			*dst = string(b)
			return nil
		}
	}
	octet := func(dst *uint8) func(Term) error {
		return func(t Term) error {
			n, ok := t.(int64)
			if !ok || n < 0 || n > 255 {
				return fmt.Errorf("expected an integer 0..255")
			}
			*dst = uint8(n)
			return nil
		}
	}
	slots := []slot{
		{FlagContentType, str(&p.ContentType)},
		{FlagContentEncoding, str(&p.ContentEncoding)},
		{FlagHeaders, func(t Term) error {
			h, err := tableFromTerm(t, 0)
			p.Headers = h
			return err
		}},
		{FlagDeliveryMode, octet(&p.DeliveryMode)},
		{FlagPriority, octet(&p.Priority)},
		{FlagCorrelationID, str(&p.CorrelationID)},
		{FlagReplyTo, str(&p.ReplyTo)},
		{FlagExpiration, str(&p.Expiration)},
		{FlagMessageID, str(&p.MessageID)},
		{FlagTimestamp, func(t Term) error {
			n, ok := t.(int64)
			if !ok {
				return fmt.Errorf("expected an integer")
			}
			p.Timestamp = uint64(n)
			return nil
		}},
		{FlagType, str(&p.Type)},
		{FlagUserID, str(&p.UserID)},
		{FlagAppID, str(&p.AppID)},
		{FlagClusterID, str(&p.ClusterID)},
	}
	for i, s := range slots {
		v := rec[i+1]
		if v == Atom("undefined") {
			continue
		}
		if err := s.set(v); err != nil {
			return p, fmt.Errorf("P_basic field %d: %v", i+1, err)
		}
		p.Present |= s.flag
	}
	return p, nil
}

func tableFromTerm(t Term, depth int) (Table, error) {
	if depth > maxTableDepth {
		return nil, fmt.Errorf("field table nested too deeply")
	}
	l, ok := t.(List)
	if !ok {
		return nil, fmt.Errorf("table is not a list")
	}
	var out Table
	for _, e := range l {
		f, ok := e.(Tuple)
		if !ok || len(f) != 3 {
			return nil, fmt.Errorf("table entry is not {Name, Type, Value}")
		}
		name, ok1 := f[0].(Binary)
		typ, ok2 := f[1].(Atom)
		if !ok1 || !ok2 {
			return nil, fmt.Errorf("table entry is not {Name, Type, Value}")
		}
		v, err := valueFromTerm(typ, f[2], depth)
		if err != nil {
			return nil, fmt.Errorf("field %q: %w", name, err)
		}
		out = append(out, Field{Key: string(name), Val: v})
	}
	return out, nil
}

func valueFromTerm(typ Atom, t Term, depth int) (FieldValue, error) {
	c, ok := fieldTypeFromAtom(typ)
	if !ok {
		return FieldValue{}, fmt.Errorf("unknown field type %q", typ)
	}
	v := FieldValue{Kind: c}
	wrong := fmt.Errorf("value does not match type %s", typ)
	switch c {
	case amqp.LongStr, amqp.Binary:
		b, ok := t.(Binary)
		if !ok {
			return v, wrong
		}
		v.Str = string(b)
	case amqp.SignedInt, amqp.UnsignedInt, amqp.Timestamp, amqp.Byte, amqp.UnsignedByte,
		amqp.Short, amqp.UnsignedShort, amqp.Long:
		n, ok := t.(int64)
		if !ok {
			return v, wrong
		}
		v.Int = n
	case amqp.Double, amqp.Float:
		f, ok := t.(float64)
		if !ok {
			return v, wrong
		}
		v.Float = f
	case amqp.Bool:
		switch t {
		case Atom("true"):
			v.Int = 1
		case Atom("false"):
		default:
			return v, wrong
		}
	case amqp.Decimal:
		d, ok := t.(Tuple)
		if !ok || len(d) != 2 {
			return v, wrong
		}
		scale, ok1 := d[0].(int64)
		val, ok2 := d[1].(int64)
		if !ok1 || !ok2 || scale < 0 || scale > 255 || val < 0 || val > 1<<32-1 {
			return v, wrong
		}
		v.Scale, v.Int = uint8(scale), val
	case amqp.Void:
	case amqp.Table_:
		tb, err := tableFromTerm(t, depth+1)
		if err != nil {
			return v, err
		}
		v.Tab = tb
	case amqp.Array:
		l, ok := t.(List)
		if !ok {
			return v, wrong
		}
		for _, e := range l {
			pair, ok := e.(Tuple)
			if !ok || len(pair) != 2 {
				return v, fmt.Errorf("array element is not {Type, Value}")
			}
			et, ok := pair[0].(Atom)
			if !ok {
				return v, fmt.Errorf("array element type is not an atom")
			}
			ev, err := valueFromTerm(et, pair[1], depth+1)
			if err != nil {
				return v, err
			}
			v.Arr = append(v.Arr, ev)
		}
	}
	return v, nil
}
