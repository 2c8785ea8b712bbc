package format

import (
	"bytes"
	"errors"
	"reflect"
	"testing"

	"warren/engine/amqp"
)

func TestPropertiesFixtureBytes(t *testing.T) {
	tests := []struct {
		p    Properties
		want []byte
	}{
		{Properties{}.WithDeliveryMode(2), []byte{0x10, 0x00, 0x02}},
		{Properties{}.WithDeliveryMode(1), []byte{0x10, 0x00, 0x01}},
		{Properties{}.WithDeliveryMode(2).WithPriority(0), []byte{0x18, 0x00, 0x02, 0x00}},
		{Properties{}.WithDeliveryMode(2).WithPriority(3), []byte{0x18, 0x00, 0x02, 0x03}},
		{Properties{}, []byte{0x00, 0x00}},
	}
	for _, tc := range tests {
		got, err := EncodeProperties(tc.p)
		if err != nil || !bytes.Equal(got, tc.want) {
			t.Errorf("EncodeProperties(%+v) = %x, %v; want %x", tc.p, got, err, tc.want)
		}
		back, err := DecodeProperties("p", 0, got)
		if err != nil || !reflect.DeepEqual(back, tc.p) {
			t.Errorf("DecodeProperties(%x) = %+v, %v", got, back, err)
		}
	}
}

// headerTable has one value of every type RabbitMQ reads.
func headerTable() Table {
	return Table{
		{Key: "s", Val: amqp.StrValue("pdf")},
		{Key: "i", Val: amqp.IntValue(-7)},
		{Key: "ok", Val: amqp.BoolValue(true)},
		{Key: "no", Val: amqp.BoolValue(false)},
		{Key: "arr", Val: amqp.ArrayValue(amqp.StrValue("a"), amqp.IntValue(2), amqp.ArrayValue(), amqp.TableValue(Table{{Key: "k", Val: amqp.LongValue(1 << 40)}}))},
		{Key: "tbl", Val: amqp.TableValue(Table{{Key: "nested", Val: amqp.TableValue(nil)}, {Key: "x", Val: amqp.Value{Kind: amqp.Binary, Str: "\x00\x01"}}})},
		{Key: "ts", Val: amqp.Value{Kind: amqp.Timestamp, Int: 1700000000}},
		{Key: "b", Val: amqp.Value{Kind: amqp.Byte, Int: -3}},
		{Key: "B", Val: amqp.Value{Kind: amqp.UnsignedByte, Int: 250}},
		{Key: "sh", Val: amqp.Value{Kind: amqp.Short, Int: -300}},
		{Key: "u", Val: amqp.Value{Kind: amqp.UnsignedShort, Int: 65000}},
		{Key: "ui", Val: amqp.Value{Kind: amqp.UnsignedInt, Int: 4000000000}},
		{Key: "l", Val: amqp.LongValue(-1)},
		{Key: "d", Val: amqp.Value{Kind: amqp.Double, Float: 2.5}},
		{Key: "f", Val: amqp.Value{Kind: amqp.Float, Float: 0.25}},
		{Key: "D", Val: amqp.Value{Kind: amqp.Decimal, Scale: 2, Int: 12345}},
		{Key: "v", Val: amqp.Value{Kind: amqp.Void}},
	}
}

func allProperties() Properties {
	p := Properties{
		ContentType: "text/plain", ContentEncoding: "gzip", DeliveryMode: 2, Priority: 9,
		CorrelationID: "corr", ReplyTo: "amq.rabbitmq.reply-to", Expiration: "60000",
		MessageID: "m-1", Timestamp: 1700000000, Type: "t", UserID: "guest", AppID: "warren",
		ClusterID: "c", Headers: headerTable(),
	}
	p.Present = 0xFFFC
	return p
}

func TestPropertiesAllFieldsRoundTrip(t *testing.T) {
	p := allProperties()
	bin, err := EncodeProperties(p)
	if err != nil {
		t.Fatal(err)
	}
	back, err := DecodeProperties("p", 0, bin)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(back, p) {
		t.Fatalf("round trip:\n got %+v\nwant %+v", back, p)
	}
	// Skip-safe: the fields after the headers table are found.
	if back.Expiration != "60000" || back.AppID != "warren" || back.ClusterID != "c" {
		t.Fatalf("fields after headers: %+v", back)
	}
	again, _ := EncodeProperties(back)
	if !bytes.Equal(again, bin) {
		t.Fatal("re-encoding differs")
	}
}

func TestHeadersWireBytes(t *testing.T) {
	p := Properties{}.WithHeaders(Table{{Key: "x-match", Val: amqp.StrValue("all")}, {Key: "n", Val: amqp.IntValue(1)}, {Key: "t", Val: amqp.BoolValue(true)}})
	got, err := EncodeProperties(p)
	if err != nil {
		t.Fatal(err)
	}
	want := []byte{0x20, 0x00,
		0, 0, 0, 27, // 16 (x-match) + 7 (n) + 4 (t)
		7, 'x', '-', 'm', 'a', 't', 'c', 'h', 'S', 0, 0, 0, 3, 'a', 'l', 'l',
		1, 'n', 'I', 0, 0, 0, 1,
		1, 't', 't', 1,
	}
	if !bytes.Equal(got, want) {
		t.Fatalf("got %x\nwant %x", got, want)
	}
}

func TestPropertiesErrors(t *testing.T) {
	good, _ := EncodeProperties(allProperties())
	tests := []struct {
		name string
		in   []byte
		kind error
	}{
		{"no flags", []byte{0x10}, ErrTruncated},
		{"reserved bit", []byte{0x00, 0x01}, ErrMalformed},
		{"missing octet", []byte{0x10, 0x00}, ErrTruncated},
		{"trailing", []byte{0x10, 0x00, 0x02, 0x09}, ErrMalformed},
		{"short string", []byte{0x80, 0x00, 5, 'a'}, ErrTruncated},
		{"table length", []byte{0x20, 0x00, 0, 0, 0, 9, 1}, ErrTruncated},
		{"field type", []byte{0x20, 0x00, 0, 0, 0, 3, 1, 'k', 'Z'}, ErrMalformed},
		{"cut", good[:len(good)-1], ErrTruncated},
	}
	for _, tc := range tests {
		_, err := DecodeProperties("f.qs", 10, tc.in)
		var de *DecodeError
		if !errors.As(err, &de) || !errors.Is(err, tc.kind) || de.Offset < 10 || de.Offset > 10+int64(len(tc.in)) {
			t.Errorf("%s: %v, want kind %v", tc.name, err, tc.kind)
		}
	}
	long := Properties{}.WithExpiration(string(make([]byte, 256)))
	if _, err := EncodeProperties(long); err == nil {
		t.Error("256-byte short string accepted")
	}
	if _, err := EncodeProperties(Properties{Present: 1}); err == nil {
		t.Error("continuation flag accepted")
	}
	bad := Properties{}.WithHeaders(Table{{Key: "k", Val: amqp.Value{Kind: 200}}})
	if _, err := EncodeProperties(bad); err == nil {
		t.Error("unknown field type accepted")
	}
}

// TestLongLReadsAsLong: rabbit_binary_parser reads a field of type 'L' as
// a long, as it does 'l', and so does the decoder; written again, it is
// an 'l', as RabbitMQ writes it.
func TestLongLReadsAsLong(t *testing.T) {
	p := Properties{}.WithHeaders(Table{{Key: "n", Val: amqp.LongValue(-2)}})
	bin, err := EncodeProperties(p)
	if err != nil {
		t.Fatal(err)
	}
	at := bytes.Index(bin, []byte{1, 'n', TypeLong})
	if at < 0 {
		t.Fatalf("no long field n in %x", bin)
	}
	withL := bytes.Clone(bin)
	withL[at+2] = TypeLongL
	back, err := DecodeProperties("p", 0, withL)
	if err != nil {
		t.Fatal(err)
	}
	if v, ok := back.Headers.Get("n"); !ok || v.Kind != amqp.Long || v.Int != -2 {
		t.Fatalf("'L' read as %+v (found %v), want long -2", v, ok)
	}
	if again, _ := EncodeProperties(back); !bytes.Equal(again, bin) {
		t.Fatalf("written again as %x, want %x", again, bin)
	}
}

func TestPropertiesWithString(t *testing.T) {
	p := Properties{}.WithString(FlagMessageID, "m-1").WithString(FlagAppID, "app")
	if p.MessageID != "m-1" || p.AppID != "app" || p.Present != FlagMessageID|FlagAppID {
		t.Fatalf("got %+v", p)
	}
	if q := p.WithString(FlagPriority, "9"); q.Present != p.Present || q.Priority != 0 {
		t.Fatalf("a flag that is not a short string changed the properties: %+v", q)
	}
	b, err := EncodeProperties(p)
	if err != nil {
		t.Fatal(err)
	}
	back, err := DecodeProperties("p", 0, b)
	if err != nil || back.MessageID != "m-1" || back.AppID != "app" || back.Present != p.Present {
		t.Fatalf("round trip: %v %+v", err, back)
	}
}
