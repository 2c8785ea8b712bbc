package broker

import (
	"testing"
	"time"

	amqp091 "github.com/rabbitmq/amqp091-go"

	"warren/engine/amqp"
	"warren/engine/trace"
)

func TestToTableKeepsTypes(t *testing.T) {
	got := toTable(amqp.Table{
		{Key: "n", Val: amqp.ParseValue("5")},
		{Key: "b", Val: amqp.ParseValue("true")},
		{Key: "s", Val: amqp.ParseValue("five")},
		{Key: "big", Val: amqp.ParseValue("5000000000")},
	})
	if v, ok := got["n"].(int32); !ok || v != 5 {
		t.Errorf("n = %#v, want int32 5", got["n"])
	}
	if v, ok := got["b"].(bool); !ok || !v {
		t.Errorf("b = %#v, want true", got["b"])
	}
	if v, ok := got["s"].(string); !ok || v != "five" {
		t.Errorf("s = %#v, want a string", got["s"])
	}
	if v, ok := got["big"].(string); !ok || v != "5000000000" {
		t.Errorf("big = %#v, want the string the language makes of it", got["big"])
	}
	if err := got.Validate(); err != nil {
		t.Errorf("amqp091-go refuses the table: %v", err)
	}
	if toTable(nil) != nil {
		t.Error("an empty table must convert to nil (no arguments)")
	}
}

// The x-death header as amqp091-go decodes it prints the way the trace
// format fixes.
func TestFromTableXDeath(t *testing.T) {
	h := amqp091.Table{
		"x-death": []any{amqp091.Table{
			"count": int64(2), "exchange": "", "queue": "q", "reason": "rejected",
			"routing-keys": []any{"q"}, "time": time.Unix(1700000000, 0),
		}},
		"x-first-death-exchange": "",
		"x-first-death-queue":    "q",
		"x-first-death-reason":   "rejected",
		"i":                      int32(-1),
		"l":                      int64(1 << 40),
		"s":                      int16(3),
		"u":                      uint8(4),
		"f":                      float64(1.5),
		"bytes":                  []byte("raw"),
		"t":                      amqp091.Table{"k": true},
	}
	got := trace.FormatHeaders(fromTable(h))
	want := "{bytes=raw, f=1.5, i=-1, l=1099511627776, s=3, t={k=true}, u=4, " +
		"x-death=[{count=2 exchange= queue=q reason=rejected routing-keys=[q]}], " +
		"x-first-death-exchange=, x-first-death-queue=q, x-first-death-reason=rejected}"
	if got != want {
		t.Errorf("got  %s\nwant %s", got, want)
	}
	v := fromValue(int32(7))
	if v.Kind != amqp.SignedInt || fromValue(int64(7)).Kind != amqp.Long || fromValue(uint8(7)).Kind != amqp.UnsignedByte {
		t.Error("integer types must map to signedint, long and unsignedbyte")
	}
	if fromValue(time.Unix(5, 0)).Kind != amqp.Timestamp {
		t.Error("time.Time must map to timestamp")
	}
}

func TestValuesRoundTrip(t *testing.T) {
	in := amqp.Table{
		{Key: "arr", Val: amqp.ArrayValue(amqp.IntValue(1), amqp.StrValue("x"))},
		{Key: "tab", Val: amqp.TableValue(amqp.Table{{Key: "k", Val: amqp.LongValue(9)}})},
		{Key: "ts", Val: amqp.Value{Kind: amqp.Timestamp, Int: 42}},
	}
	out := fromTable(toTable(in))
	if !out.Equal(in) {
		t.Errorf("round trip: %s, want %s", out, in)
	}
}
