package format

import (
	"fmt"
)

// Models the #basic_message{} and #content{} records as rabbit_variable_queue
// stores them (prepare_to_store/1, then term_to_binary/1).

// Framing constants of a stored message.
const (
	BasicClassID   = 60
	FramingModule  = "rabbit_framing_amqp_0_9_1"
	defaultVHost   = "/"
	messageTag     = "basic_message"
	resourceTag    = "resource"
	contentTag     = "content"
	exchangeKind   = "exchange"
	basicPropsAtom = "P_basic"
)

// Message is a stored message:
//
//	{basic_message, {resource, VHost, exchange, Exchange}, RoutingKeys,
//	 {content, 60, none, PropertiesBin, rabbit_framing_amqp_0_9_1, BodyRev},
//	 MsgId, IsPersistent}
type Message struct {
	VHost       string // vhost of the exchange resource
	Exchange    string // exchange name; "" is the default exchange
	RoutingKeys []string
	ClassID     int64 // 60 (basic)
	Properties  Properties
	// PropertiesRecord says the content holds decoded properties (a P_basic
	// record) and properties_bin = none, as for dead-lettered messages, whose
	// headers the broker rewrote. Otherwise properties = none and the encoded
	// properties_bin is stored.
	PropertiesRecord bool
	Protocol         string // rabbit_framing_amqp_0_9_1
	// Body holds the payload fragments as stored: in reverse order of
	// arrival, so the last body frame comes first. Payload joins them.
	Body       [][]byte
	ID         MsgID
	Persistent bool
}

// NewMessage returns the message the broker stores for a publish to exchange
// with one routing key and one body frame.
func NewMessage(exchange, routingKey string, props Properties, body []byte, id MsgID, persistent bool) *Message {
	return &Message{
		VHost:       defaultVHost,
		Exchange:    exchange,
		RoutingKeys: []string{routingKey},
		ClassID:     BasicClassID,
		Properties:  props,
		Protocol:    FramingModule,
		Body:        [][]byte{body},
		ID:          id,
		Persistent:  persistent,
	}
}

// Payload returns the body in arrival order.
func (m *Message) Payload() []byte {
	if len(m.Body) == 1 {
		return m.Body[0]
	}
	var out []byte
	for i := len(m.Body) - 1; i >= 0; i-- {
		out = append(out, m.Body[i]...)
	}
	return out
}

// PayloadSize returns the body size in bytes.
func (m *Message) PayloadSize() int {
	n := 0
	for _, f := range m.Body {
		n += len(f)
	}
	return n
}

// Encode returns term_to_binary of the message, byte for byte as RabbitMQ
// 3.10.8 on OTP 25 writes it.
func (m *Message) Encode() ([]byte, error) {
	b, _, err := m.EncodeSized()
	return b, err
}

// EncodeSized is Encode, and the size of the encoded properties
// (properties_bin) in it: 0 when the content holds a P_basic record. Every
// message a queue stores or pages out is encoded, so it writes the record
// straight into one buffer, in the order term_to_binary would walk
// {basic_message, Resource, RoutingKeys, Content, MsgId, IsPersistent},
// with no term built first.
func (m *Message) EncodeSized() ([]byte, int, error) {
	var props Term = Atom("none")
	var propsBin []byte
	if m.PropertiesRecord {
		rec, err := propertiesRecord(m.Properties)
		if err != nil {
			return nil, 0, fmt.Errorf("message %s: %w", m.ID, err)
		}
		props = rec
	} else {
		bin, err := EncodeProperties(m.Properties)
		if err != nil {
			return nil, 0, fmt.Errorf("message %s: %w", m.ID, err)
		}
		propsBin = bin
	}
	// the body, the names and the properties with a binary's 5 bytes of
	// tag and length each, and the record's other tags, atoms, lengths
	// and id: 114 bytes, or more with a wider class id or atom
	size := 160 + len(m.Protocol) + m.PayloadSize() + 5*len(m.Body) + len(m.VHost) + len(m.Exchange) + len(propsBin)
	for _, k := range m.RoutingKeys {
		size += len(k) + 5
	}
	b := make([]byte, 0, size+1)
	b = append(b, etfVersion, tagSmallTuple, 6)
	b = appendASCIIAtom(b, messageTag)
	b = append(b, tagSmallTuple, 4)
	b = appendASCIIAtom(b, resourceTag)
	b = appendBinaryString(b, m.VHost)
	b = appendASCIIAtom(b, exchangeKind)
	b = appendBinaryString(b, m.Exchange)
	b = appendListHead(b, len(m.RoutingKeys))
	for _, k := range m.RoutingKeys {
		b = appendBinaryString(b, k)
	}
	b = append(b, tagNil)
	b = append(b, tagSmallTuple, 6)
	b = appendASCIIAtom(b, contentTag)
	b = appendInt(b, m.ClassID)
	var err error
	if b, err = appendTerm(b, props, 1); err != nil {
		return nil, 0, fmt.Errorf("message %s: %w", m.ID, err)
	}
	if m.PropertiesRecord {
		b = appendASCIIAtom(b, "none")
	} else if b, err = appendBinary(b, propsBin); err != nil {
		return nil, 0, fmt.Errorf("message %s: %w", m.ID, err)
	}
	if b, err = appendAtom(b, Atom(m.Protocol)); err != nil {
		return nil, 0, fmt.Errorf("message %s: %w", m.ID, err)
	}
	b = appendListHead(b, len(m.Body))
	for _, f := range m.Body {
		if b, err = appendBinary(b, f); err != nil {
			return nil, 0, fmt.Errorf("message %s: %w", m.ID, err)
		}
	}
	b = append(b, tagNil)
	b = appendBinaryString(b, string(m.ID[:]))
	if m.Persistent {
		b = appendASCIIAtom(b, "true")
	} else {
		b = appendASCIIAtom(b, "false")
	}
	return b, len(propsBin), nil
}

// DecodeMessage decodes a stored message term found at offset base of file.
// The body fragments of the result point into data.
func DecodeMessage(file string, base int64, data []byte) (*Message, error) {
	t, err := DecodeTerm(file, base, data)
	if err != nil {
		return nil, err
	}
	bad := func(format string, args ...any) error {
		return decodeErr(file, base, ErrMalformed, "stored message: "+format, args...)
	}
	rec, ok := t.(Tuple)
	if !ok || len(rec) != 6 || rec[0] != Atom(messageTag) {
		return nil, bad("not a basic_message 6-tuple")
	}
	m := &Message{}
	res, ok := rec[1].(Tuple)
	if !ok || len(res) != 4 || res[0] != Atom(resourceTag) || res[2] != Atom(exchangeKind) {
		return nil, bad("exchange_name is not {resource, VHost, exchange, Name}")
	}
	vhost, ok1 := res[1].(Binary)
	name, ok2 := res[3].(Binary)
	if !ok1 || !ok2 {
		return nil, bad("exchange resource names are not binaries")
	}
	m.VHost, m.Exchange = string(vhost), string(name)
	keys, ok := rec[2].(List)
	if !ok {
		return nil, bad("routing_keys is not a list")
	}
	for _, k := range keys {
		kb, ok := k.(Binary)
		if !ok {
			return nil, bad("a routing key is not a binary")
		}
		m.RoutingKeys = append(m.RoutingKeys, string(kb))
	}
	if err := m.decodeContent(rec[3], bad, file, base, data); err != nil {
		return nil, err
	}
	id, ok := rec[4].(Binary)
	if !ok || len(id) != 16 {
		return nil, bad("id is not a 16-byte binary")
	}
	copy(m.ID[:], id)
	switch rec[5] {
	case Atom("true"):
		m.Persistent = true
	case Atom("false"):
	default:
		return nil, bad("is_persistent is not true or false")
	}
	return m, nil
}

func (m *Message) decodeContent(t Term, bad func(string, ...any) error, file string, base int64, data []byte) error {
	c, ok := t.(Tuple)
	if !ok || len(c) != 6 || c[0] != Atom(contentTag) {
		return bad("content is not a 6-tuple {content, ...}")
	}
	if m.ClassID, ok = c[1].(int64); !ok {
		return bad("content class_id is not an integer")
	}
	switch bin := c[3].(type) {
	case Binary:
		if c[2] != Atom("none") {
			return bad("content holds both decoded and encoded properties")
		}
		p, err := DecodeProperties(file, base+propertiesOffset(data, bin), bin)
		if err != nil {
			return err
		}
		m.Properties = p
	case Atom:
		if bin != "none" {
			return bad("properties_bin is neither a binary nor none")
		}
		p, err := propertiesFromRecord(c[2])
		if err != nil {
			return bad("%v", err)
		}
		m.Properties, m.PropertiesRecord = p, true
	default:
		return bad("properties_bin is neither a binary nor none")
	}
	proto, ok := c[4].(Atom)
	if !ok {
		return bad("content protocol is not an atom")
	}
	m.Protocol = string(proto)
	frags, ok := c[5].(List)
	if !ok {
		return bad("payload_fragments_rev is not a list")
	}
	for _, f := range frags {
		fb, ok := f.(Binary)
		if !ok {
			return bad("a payload fragment is not a binary")
		}
		m.Body = append(m.Body, fb)
	}
	return nil
}

// propertiesOffset finds where a sub-slice of data starts, so that property
// errors name a file offset; 0 if it is not a sub-slice.
func propertiesOffset(data, sub []byte) int64 {
	if len(sub) == 0 {
		return 0
	}
	for i := 0; i+len(sub) <= len(data); i++ {
		if &data[i] == &sub[0] {
			return int64(i)
		}
	}
	return 0
}
