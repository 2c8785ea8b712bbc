package format

import (
	"encoding/binary"
	"fmt"
)

// Models the basic-class content header properties of
// rabbit_framing_amqp_0_9_1 (encode_properties/1, decode_properties/2).

// Property flags of the basic class, in wire order (bit 15 first).
const (
	FlagContentType     uint16 = 1 << 15
	FlagContentEncoding uint16 = 1 << 14
	FlagHeaders         uint16 = 1 << 13
	FlagDeliveryMode    uint16 = 1 << 12
	FlagPriority        uint16 = 1 << 11
	FlagCorrelationID   uint16 = 1 << 10
	FlagReplyTo         uint16 = 1 << 9
	FlagExpiration      uint16 = 1 << 8
	FlagMessageID       uint16 = 1 << 7
	FlagTimestamp       uint16 = 1 << 6
	FlagType            uint16 = 1 << 5
	FlagUserID          uint16 = 1 << 4
	FlagAppID           uint16 = 1 << 3
	FlagClusterID       uint16 = 1 << 2
	// flagsReserved are bit 1 (unused) and bit 0 (continuation); the basic
	// class has only 14 properties, so neither is ever set.
	flagsReserved uint16 = 1<<1 | 1<<0
)

// Properties are the basic-class properties of a message. Present says which
// are set; a field whose flag is clear is absent, whatever its value.
type Properties struct {
	Present         uint16
	ContentType     string
	ContentEncoding string
	Headers         Table
	DeliveryMode    uint8
	Priority        uint8
	CorrelationID   string
	ReplyTo         string
	Expiration      string
	MessageID       string
	Timestamp       uint64
	Type            string
	UserID          string
	AppID           string
	ClusterID       string
}

// Has reports whether the property with flag is set.
func (p Properties) Has(flag uint16) bool { return p.Present&flag != 0 }

// Persistent reports delivery mode 2.
func (p Properties) Persistent() bool { return p.Has(FlagDeliveryMode) && p.DeliveryMode == 2 }

// WithDeliveryMode returns p with delivery-mode set (1 transient, 2 persistent).
func (p Properties) WithDeliveryMode(mode uint8) Properties {
	p.DeliveryMode, p.Present = mode, p.Present|FlagDeliveryMode
	return p
}

// WithPriority returns p with priority set.
func (p Properties) WithPriority(prio uint8) Properties {
	p.Priority, p.Present = prio, p.Present|FlagPriority
	return p
}

// WithExpiration returns p with expiration set (milliseconds, as text).
func (p Properties) WithExpiration(ms string) Properties {
	p.Expiration, p.Present = ms, p.Present|FlagExpiration
	return p
}

// WithString returns p with the short-string property of flag set to v
// (FlagContentType, FlagMessageID, ...); unchanged for another flag.
func (p Properties) WithString(flag uint16, v string) Properties {
	if to, _ := p.shortString(flag); to != nil {
		*to, p.Present = v, p.Present|flag
	}
	return p
}

// WithHeaders returns p with headers set.
func (p Properties) WithHeaders(t Table) Properties {
	p.Headers, p.Present = t, p.Present|FlagHeaders
	return p
}

// shortString is where the short-string property of flag is held, and
// its name; nil for another flag.
func (p *Properties) shortString(flag uint16) (*string, string) {
	switch flag {
	case FlagContentType:
		return &p.ContentType, "content-type"
	case FlagContentEncoding:
		return &p.ContentEncoding, "content-encoding"
	case FlagCorrelationID:
		return &p.CorrelationID, "correlation-id"
	case FlagReplyTo:
		return &p.ReplyTo, "reply-to"
	case FlagExpiration:
		return &p.Expiration, "expiration"
	case FlagMessageID:
		return &p.MessageID, "message-id"
	case FlagType:
		return &p.Type, "type"
	case FlagUserID:
		return &p.UserID, "user-id"
	case FlagAppID:
		return &p.AppID, "app-id"
	case FlagClusterID:
		return &p.ClusterID, "cluster-id"
	}
	return nil, ""
}

// EncodeProperties returns the property flags followed by the values of the
// set properties: the properties_bin RabbitMQ stores.
func EncodeProperties(p Properties) ([]byte, error) {
	if p.Present&flagsReserved != 0 {
		return nil, fmt.Errorf("properties: reserved flag bits 0x%04x set", p.Present&flagsReserved)
	}
	b := binary.BigEndian.AppendUint16(make([]byte, 0, 32), p.Present)
	for bit := 15; bit >= 2; bit-- {
		if v, name := p.shortString(1 << bit); v != nil && len(*v) > 255 {
			return nil, fmt.Errorf("properties: %s is longer than 255 bytes", name)
		}
	}
	var err error
	for bit := 15; bit >= 2; bit-- {
		flag := uint16(1) << bit
		if !p.Has(flag) {
			continue
		}
		switch flag {
		case FlagHeaders:
			if b, err = AppendTable(b, p.Headers); err != nil {
				return nil, fmt.Errorf("properties: headers: %w", err)
			}
		case FlagDeliveryMode:
			b = append(b, p.DeliveryMode)
		case FlagPriority:
			b = append(b, p.Priority)
		case FlagTimestamp:
			b = binary.BigEndian.AppendUint64(b, p.Timestamp)
		default:
			v, _ := p.shortString(flag)
			b = append(b, byte(len(*v)))
			b = append(b, *v...)
		}
	}
	return b, nil
}

// DecodeProperties decodes a properties_bin. Errors are *DecodeError naming
// file and the absolute offset base+position.
func DecodeProperties(file string, base int64, data []byte) (Properties, error) {
	p, err := decodeProperties(data)
	if err != nil {
		return p, decodeErr(file, base+int64(err.off), err.kind, "properties: %s", err.msg)
	}
	return p, nil
}

func decodeProperties(data []byte) (Properties, *termError) {
	var p Properties
	r := &fieldReader{data: data}
	if err := r.need(2, "property flags"); err != nil {
		return p, err
	}
	p.Present = binary.BigEndian.Uint16(data)
	if p.Present&flagsReserved != 0 {
		return p, r.fail(ErrMalformed, "reserved property flag bits 0x%04x set", p.Present&flagsReserved)
	}
	r.pos = 2
	for bit := 15; bit >= 2; bit-- {
		flag := uint16(1) << bit
		if !p.Has(flag) {
			continue
		}
		switch flag {
		case FlagHeaders:
			t, err := r.table(0)
			if err != nil {
				return p, err
			}
			p.Headers = t
		case FlagDeliveryMode, FlagPriority:
			if err := r.need(1, "octet property"); err != nil {
				return p, err
			}
			if flag == FlagDeliveryMode {
				p.DeliveryMode = data[r.pos]
			} else {
				p.Priority = data[r.pos]
			}
			r.pos++
		case FlagTimestamp:
			if err := r.need(8, "timestamp"); err != nil {
				return p, err
			}
			p.Timestamp = binary.BigEndian.Uint64(data[r.pos:])
			r.pos += 8
		default:
			if err := r.need(1, "short string length"); err != nil {
				return p, err
			}
			n := int(data[r.pos])
			r.pos++
			if err := r.need(n, "short string"); err != nil {
				return p, err
			}
			v, _ := p.shortString(flag)
			*v = string(data[r.pos : r.pos+n])
			r.pos += n
		}
	}
	if r.pos != len(data) {
		return p, r.fail(ErrMalformed, "%d bytes after the properties", len(data)-r.pos)
	}
	return p, nil
}
