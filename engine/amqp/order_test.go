package amqp

import "testing"

// TestTableCompareErlangOrder checks the order of binding arguments as
// mnesia keeps them, which list_bindings shows for bindings that differ
// only in their arguments: the tables below are in Erlang's term order
// of what RabbitMQ decodes them to, lists of {Key, Type, Value}.
func TestTableCompareErlangOrder(t *testing.T) {
	f := func(k string, v Value) Field { return Field{Key: k, Val: v} }
	ordered := []Table{
		nil, // [] before any other list
		{f("a", IntValue(3))},
		{f("b", BoolValue(false))}, // the type's atom first: bool, long, longstr, signedint
		{f("b", BoolValue(true))},  // false before true, as atoms
		{f("b", LongValue(1))},
		{f("b", StrValue(""))},
		{f("b", StrValue("one"))},
		{f("b", IntValue(-4))},
		{f("b", IntValue(1))},
		{f("b", IntValue(1)), f("w", IntValue(2))}, // a list after its prefix
		{f("b", IntValue(10))},
	}
	for i := range ordered {
		for j := range ordered {
			if got, want := ordered[i].Compare(ordered[j]), cmpInt(int64(i), int64(j)); got != want {
				t.Errorf("Compare(%v, %v) = %d, want %d", ordered[i], ordered[j], got, want)
			}
		}
	}
}
