package format

import (
	"bytes"
	"errors"
	"reflect"
	"testing"
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
		{"s", LongString("pdf")},
		{"i", SignedInt(-7)},
		{"ok", Bool(true)},
		{"no", Bool(false)},
		{"arr", ArrayOf(LongString("a"), SignedInt(2), ArrayOf(), TableOf(Table{{"k", Long(1 << 40)}}))},
		{"tbl", TableOf(Table{{"nested", TableOf(nil)}, {"x", FieldValue{Type: TypeBinary, Bytes: []byte{0, 1}}}})},
		{"ts", Timestamp(1700000000)},
		{"b", FieldValue{Type: TypeByte, Int: -3}},
		{"B", FieldValue{Type: TypeUnsignedByte, Int: 250}},
		{"sh", FieldValue{Type: TypeShort, Int: -300}},
		{"u", FieldValue{Type: TypeUnsignedShort, Int: 65000}},
		{"ui", FieldValue{Type: TypeUnsignedInt, Int: 4000000000}},
		{"L", FieldValue{Type: TypeLongL, Int: -1}},
		{"d", FieldValue{Type: TypeDouble, Float: 2.5}},
		{"f", FieldValue{Type: TypeFloat, Float: 0.25}},
		{"D", FieldValue{Type: TypeDecimal, DecimalScale: 2, Decimal: 12345}},
		{"v", FieldValue{Type: TypeVoid}},
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
	p := Properties{}.WithHeaders(Table{{"x-match", LongString("all")}, {"n", SignedInt(1)}, {"t", Bool(true)}})
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
	bad := Properties{}.WithHeaders(Table{{"k", FieldValue{Type: 'Z'}}})
	if _, err := EncodeProperties(bad); err == nil {
		t.Error("unknown field type accepted")
	}
}
