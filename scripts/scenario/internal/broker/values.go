package broker

import (
	"fmt"
	"sort"
	"time"

	amqp091 "github.com/rabbitmq/amqp091-go"

	"warren/engine/amqp"
)

// toTable converts a field table of the command language to amqp091-go's
// form, keeping each value's AMQP type (signedint becomes int32, long
// int64, and so on), since RabbitMQ's argument checks look at the type.
func toTable(t amqp.Table) amqp091.Table {
	if len(t) == 0 {
		return nil
	}
	out := make(amqp091.Table, len(t))
	for _, f := range t {
		out[f.Key] = toValue(f.Val)
	}
	return out
}

func toValue(v amqp.Value) any {
	switch v.Kind {
	case amqp.Bool:
		return v.Int != 0
	case amqp.Byte:
		return int8(v.Int)
	case amqp.UnsignedByte:
		return uint8(v.Int)
	case amqp.Short:
		return int16(v.Int)
	case amqp.UnsignedShort:
		return uint16(v.Int)
	case amqp.SignedInt:
		return int32(v.Int)
	case amqp.UnsignedInt:
		return uint32(v.Int)
	case amqp.Long:
		return v.Int
	case amqp.Float:
		return float32(v.Float)
	case amqp.Double:
		return v.Float
	case amqp.Decimal:
		return amqp091.Decimal{Value: int32(v.Int)}
	case amqp.LongStr:
		return v.Str
	case amqp.Timestamp:
		return time.Unix(v.Int, 0).UTC()
	case amqp.Array:
		arr := make([]any, len(v.Arr))
		for i, e := range v.Arr {
			arr[i] = toValue(e)
		}
		return arr
	case amqp.Table_:
		return toTable(v.Tab)
	}
	return nil
}

// fromTable converts a table amqp091-go decoded back to warren's values.
// amqp091-go decodes tables into Go maps and so loses the wire order; the
// keys come back sorted, which is the order the trace prints them in.
func fromTable(t amqp091.Table) amqp.Table {
	if len(t) == 0 {
		return nil
	}
	keys := make([]string, 0, len(t))
	for k := range t {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	out := make(amqp.Table, 0, len(t))
	for _, k := range keys {
		out = append(out, amqp.Field{Key: k, Val: fromValue(t[k])})
	}
	return out
}

func fromValue(x any) amqp.Value {
	switch v := x.(type) {
	case nil:
		return amqp.Value{Kind: amqp.Void}
	case bool:
		return amqp.BoolValue(v)
	case int8:
		return amqp.Value{Kind: amqp.Byte, Int: int64(v)}
	case uint8:
		return amqp.Value{Kind: amqp.UnsignedByte, Int: int64(v)}
	case int16:
		return amqp.Value{Kind: amqp.Short, Int: int64(v)}
	case uint16:
		return amqp.Value{Kind: amqp.UnsignedShort, Int: int64(v)}
	case int32:
		return amqp.Value{Kind: amqp.SignedInt, Int: int64(v)}
	case uint32:
		return amqp.Value{Kind: amqp.UnsignedInt, Int: int64(v)}
	case int64:
		return amqp.LongValue(v)
	case int:
		return amqp.LongValue(int64(v))
	case float32:
		return amqp.Value{Kind: amqp.Float, Float: float64(v)}
	case float64:
		return amqp.Value{Kind: amqp.Double, Float: v}
	case amqp091.Decimal:
		return amqp.Value{Kind: amqp.Decimal, Int: int64(v.Value)}
	case string:
		return amqp.StrValue(v)
	case []byte:
		return amqp.StrValue(string(v))
	case time.Time:
		return amqp.Value{Kind: amqp.Timestamp, Int: v.Unix()}
	case []any:
		arr := make([]amqp.Value, len(v))
		for i, e := range v {
			arr[i] = fromValue(e)
		}
		return amqp.ArrayValue(arr...)
	case amqp091.Table:
		return amqp.TableValue(fromTable(v))
	}
	return amqp.StrValue(fmt.Sprintf("%v", x))
}
