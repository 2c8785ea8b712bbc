package amqp

import "strings"

// Compare orders two tables as Erlang orders the terms RabbitMQ decodes
// them to (rabbit_binary_parser): a table is a list of {Key, Type, Value}
// tuples, compared element by element, a shorter list that is a prefix
// of the other first. It returns -1, 0 or +1. Mnesia keeps a binding's
// arguments this way, so it orders bindings that differ only in them.
func (t Table) Compare(o Table) int {
	for i := 0; i < len(t) && i < len(o); i++ {
		if c := strings.Compare(t[i].Key, o[i].Key); c != 0 {
			return c
		}
		if c := t[i].Val.compare(o[i].Val); c != 0 {
			return c
		}
	}
	return cmpInt(int64(len(t)), int64(len(o)))
}

// compare orders two values as their {Type, Value} pair: the type's atom
// first (alphabetically), then the value of that type.
func (v Value) compare(o Value) int {
	if c := strings.Compare(v.Kind.String(), o.Kind.String()); c != 0 {
		return c
	}
	switch v.Kind {
	case LongStr:
		return strings.Compare(v.Str, o.Str)
	case Float, Double:
		switch {
		case v.Float < o.Float:
			return -1
		case v.Float > o.Float:
			return 1
		}
		return 0
	case Array:
		for i := 0; i < len(v.Arr) && i < len(o.Arr); i++ {
			if c := v.Arr[i].compare(o.Arr[i]); c != 0 {
				return c
			}
		}
		return cmpInt(int64(len(v.Arr)), int64(len(o.Arr)))
	case Table_:
		return v.Tab.Compare(o.Tab)
	}
	// integers, timestamps and booleans (false before true, as atoms)
	return cmpInt(v.Int, o.Int)
}

func cmpInt(a, b int64) int {
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}
