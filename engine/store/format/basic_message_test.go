package format

import (
	"bytes"
	"errors"
	"reflect"
	"strings"
	"testing"

	"warren/engine/amqp"
)

func TestMessageLengthFormula(t *testing.T) {
	id := MsgID{0xf5, 0xaa}
	for _, tc := range []struct {
		exchange, key string
		props         Properties
		body          int
		persistent    bool
	}{
		{"", "fx.v2", Properties{}.WithDeliveryMode(2), 100, true},
		{"amq.direct", "k", Properties{}.WithDeliveryMode(2).WithPriority(0), 0, true},
		{"", "fx.transient.lazy", Properties{}.WithDeliveryMode(1), 10000, false},
	} {
		m := NewMessage(tc.exchange, tc.key, tc.props, bytes.Repeat([]byte("a"), tc.body), id, tc.persistent)
		b, err := m.Encode()
		if err != nil {
			t.Fatal(err)
		}
		props, _ := EncodeProperties(tc.props)
		want := 158 + tc.body + len(tc.exchange) + len(tc.key) + len(props)
		if !tc.persistent {
			want++
		}
		if len(b) != want {
			t.Errorf("%+v: %d bytes, want %d", tc, len(b), want)
		}
		back, err := DecodeMessage("m", 0, b)
		if err != nil || !reflect.DeepEqual(back, m) {
			t.Errorf("round trip: %v\n got %+v\nwant %+v", err, back, m)
		}
	}
}

// A 100-byte body to the default exchange, as the fixtures store it: the body
// begins at offset 147 of the term, as the observed dumps show for a
// 15-byte routing key.
func TestMessageLayout(t *testing.T) {
	m := NewMessage("", "oracle.store.v2", Properties{}.WithDeliveryMode(2), []byte("small-00-"), MsgID{}, true)
	b, _ := m.Encode()
	if i := bytes.Index(b, []byte("small-00-")); i != 147 {
		t.Fatalf("body at %d, want 147", i)
	}
	if !bytes.HasPrefix(b, []byte("\x83h\x06d\x00\x0dbasic_messageh\x04d\x00\x08resourcem\x00\x00\x00\x01/d\x00\x08exchangem\x00\x00\x00\x00l\x00\x00\x00\x01m\x00\x00\x00\x0foracle.store.v2j")) {
		t.Fatalf("prefix %q", b[:80])
	}
}

func TestMessageFragments(t *testing.T) {
	m := NewMessage("", "q", Properties{}, nil, MsgID{}, true)
	m.Body = [][]byte{[]byte("third"), []byte("second-"), []byte("first-")}
	if got := string(m.Payload()); got != "first-second-third" {
		t.Fatalf("Payload = %q", got)
	}
	if m.PayloadSize() != 18 {
		t.Fatalf("PayloadSize = %d", m.PayloadSize())
	}
	b, _ := m.Encode()
	back, err := DecodeMessage("m", 0, b)
	if err != nil || !reflect.DeepEqual(back.Body, m.Body) {
		t.Fatalf("fragments: %v %q", err, back.Body)
	}
}

// Dead-lettered messages are stored with a P_basic record and
// properties_bin = none.
func TestMessagePropertiesRecord(t *testing.T) {
	props := Properties{}.WithDeliveryMode(2).WithHeaders(Table{
		{Key: "x-death", Val: amqp.ArrayValue(amqp.TableValue(Table{
			{Key: "count", Val: amqp.LongValue(1)},
			{Key: "reason", Val: amqp.StrValue("maxlen")},
			{Key: "queue", Val: amqp.StrValue("h.src")},
			{Key: "time", Val: amqp.Value{Kind: amqp.Timestamp, Int: 1700000000}},
			{Key: "exchange", Val: amqp.StrValue("")},
			{Key: "routing-keys", Val: amqp.ArrayValue(amqp.StrValue("h.src"))},
		}))},
		{Key: "x-first-death-reason", Val: amqp.StrValue("maxlen")},
		{Key: "flag", Val: amqp.BoolValue(true)},
		{Key: "ratio", Val: amqp.Value{Kind: amqp.Double, Float: 0.5}},
		{Key: "dec", Val: amqp.Value{Kind: amqp.Decimal, Scale: 1, Int: 15}},
		{Key: "none", Val: amqp.Value{Kind: amqp.Void}},
	}).WithExpiration("1000")
	m := NewMessage("dlx", "h.src", props, []byte("body"), MsgID{7}, true)
	m.PropertiesRecord = true
	b, err := m.Encode()
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Contains(b, []byte("P_basic")) || !bytes.Contains(b, []byte("d\x00\x04none")) {
		t.Fatal("record form not written")
	}
	back, err := DecodeMessage("m", 0, b)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(back, m) {
		t.Fatalf("round trip:\n got %+v\nwant %+v", back, m)
	}
}

func TestDecodeMessageErrors(t *testing.T) {
	good, _ := NewMessage("", "q", Properties{}.WithDeliveryMode(2), []byte("x"), MsgID{}, true).Encode()
	shapes := []Term{
		Atom("basic_message"),
		Tuple{Atom("other"), nil, nil, nil, nil, nil},
		Tuple{Atom("basic_message"), Tuple{Atom("resource"), Binary("/"), Atom("queue"), Binary("")}, List{}, nil, Binary(make([]byte, 16)), Atom("true")},
	}
	for _, s := range shapes {
		b, err := EncodeTerm(fillNil(s))
		if err != nil {
			t.Fatal(err)
		}
		_, err = DecodeMessage("f.qs", 64, b)
		var de *DecodeError
		if !errors.As(err, &de) || !errors.Is(err, ErrMalformed) || de.Offset != 64 || !strings.Contains(err.Error(), "stored message") {
			t.Errorf("%v: %v", s, err)
		}
	}
	_, err := DecodeMessage("f.qs", 64, good[:len(good)-3])
	if !errors.Is(err, ErrTruncated) {
		t.Errorf("truncated: %v", err)
	}
	bad := append([]byte(nil), good...)
	i := bytes.Index(bad, []byte{0x10, 0x00, 0x02})
	bad[i+1] = 0x01 // reserved property flag bit
	_, err = DecodeMessage("f.qs", 64, bad)
	var de *DecodeError
	if !errors.As(err, &de) || de.Offset != int64(64+i) {
		t.Errorf("bad properties: %v, want offset %d", err, 64+i)
	}
}

func fillNil(t Term) Term {
	switch v := t.(type) {
	case nil:
		return Atom("undefined")
	case Tuple:
		out := make(Tuple, len(v))
		for i, e := range v {
			out[i] = fillNil(e)
		}
		return out
	}
	return t
}

// TestMessageEncodesAsItsTerm: Encode writes the record straight into its
// buffer; what it writes is term_to_binary of the record built as a term,
// for every shape a stored message takes.
func TestMessageEncodesAsItsTerm(t *testing.T) {
	record := NewMessage("dlx", "k", allProperties(), []byte("b"), MsgID{1}, false)
	record.PropertiesRecord = true
	keys := NewMessage("amq.topic", "a.b", Properties{}.WithPriority(9), []byte("x"), MsgID{2}, true)
	keys.RoutingKeys = []string{"a.b", "cc-route", ""}
	none := NewMessage("", "", Properties{}, nil, MsgID{3}, true)
	none.RoutingKeys = nil
	none.Body = nil
	frags := NewMessage("", "q", allProperties(), nil, MsgID{4}, false)
	frags.Body = [][]byte{[]byte("third"), {}, bytes.Repeat([]byte{0xff}, 70000)}
	odd := NewMessage("échange-交换", "clé", Properties{}.WithDeliveryMode(1), []byte("é"), MsgID{5}, false)
	odd.VHost, odd.Protocol, odd.ClassID = "vhöst", "rabbit_framing_é", 1<<40
	for _, m := range []*Message{NewMessage("", "fx.v2", Properties{}.WithDeliveryMode(2), bytes.Repeat([]byte("a"), 1000), MsgID{}, true), record, keys, none, frags, odd} {
		var props, propsBin Term = Atom("none"), Atom("none")
		if m.PropertiesRecord {
			rec, err := propertiesRecord(m.Properties)
			if err != nil {
				t.Fatal(err)
			}
			props = rec
		} else {
			bin, err := EncodeProperties(m.Properties)
			if err != nil {
				t.Fatal(err)
			}
			propsBin = Binary(bin)
		}
		rk, body := List{}, List{}
		for _, k := range m.RoutingKeys {
			rk = append(rk, Binary(k))
		}
		for _, f := range m.Body {
			body = append(body, Binary(f))
		}
		want, err := encodeTermIn(Tuple{
			Atom("basic_message"),
			Tuple{Atom("resource"), Binary(m.VHost), Atom("exchange"), Binary(m.Exchange)},
			rk,
			Tuple{Atom("content"), m.ClassID, props, propsBin, Atom(m.Protocol), body},
			Binary(m.ID[:]),
			m.Persistent,
		}, 0)
		if err != nil {
			t.Fatal(err)
		}
		got, propsSize, err := m.EncodeSized()
		if err != nil {
			t.Fatalf("%s: %v", m.Exchange, err)
		}
		if !bytes.Equal(got, want) {
			t.Errorf("exchange %q: Encode wrote\n%q\nwant\n%q", m.Exchange, got, want)
		}
		if bin, ok := propsBin.(Binary); ok && propsSize != len(bin) || !ok && propsSize != 0 {
			t.Errorf("exchange %q: properties of %d bytes, want %v", m.Exchange, propsSize, propsBin)
		}
	}
}

// Every message a queue pages out or stores is encoded, so the encoding
// allocates what it returns and nothing else: the properties_bin and a
// term that fits the buffer it was started in, whatever the names, keys
// and fragments.
func TestMessageEncodesInOneBuffer(t *testing.T) {
	for _, m := range []*Message{
		NewMessage("", "k", Properties{}.WithDeliveryMode(2), bytes.Repeat([]byte("a"), 1000), MsgID{1}, true),
		NewMessage(strings.Repeat("x", 255), strings.Repeat("k", 255), Properties{}.WithDeliveryMode(1).WithPriority(3), nil, MsgID{2}, false),
		func() *Message {
			m := NewMessage("amq.topic", "a.b", Properties{ContentType: "text/plain", MessageID: "m-1", Present: FlagContentType | FlagMessageID}, nil, MsgID{3}, true)
			m.RoutingKeys = []string{"a", "b", "c", "d", "e", "f", "g", "h"}
			for range 20 {
				m.Body = append(m.Body, []byte("f"))
			}
			return m
		}(),
	} {
		if n := testing.AllocsPerRun(20, func() {
			if _, _, err := m.EncodeSized(); err != nil {
				t.Fatal(err)
			}
		}); n != 2 {
			t.Errorf("exchange %.10q, %d keys, %d fragments: %v allocations, want 2", m.Exchange, len(m.RoutingKeys), len(m.Body), n)
		}
	}
}
