package broker

import (
	"encoding/binary"
	"net"
	"sync"
	"time"

	amqp091 "github.com/rabbitmq/amqp091-go"
)

// amqp091-go hands each consumer's deliveries to a goroutine of its own,
// and returns, confirms, cancels and closes to the notification channels,
// so the order in which the runner's collectors see events is not the
// order of the frames on the wire. A tap on the connection's socket reads
// the frames as they arrive, before the client parses them, and notes the
// ones that become events; the recorder then prints each event at the
// place of its frame.

// Method ids (class<<16 | method) of the frames the broker sends that
// become events.
const (
	methodConnectionClose = 10<<16 | 50
	methodBlocked         = 10<<16 | 60
	methodUnblocked       = 10<<16 | 61
	methodChannelOpenOK   = 20<<16 | 11
	methodChannelClose    = 20<<16 | 40
	methodDeclareOK       = 50<<16 | 11
	methodPurgeOK         = 50<<16 | 31
	methodDeleteOK        = 50<<16 | 41
	methodConsumeOK       = 60<<16 | 21
	methodCancel          = 60<<16 | 30
	methodReturn          = 60<<16 | 50
	methodDeliver         = 60<<16 | 60
	methodGetOK           = 60<<16 | 71
	methodGetEmpty        = 60<<16 | 72
	methodAck             = 60<<16 | 80
	methodNack            = 60<<16 | 120
)

// noted are the methods whose frames the tap notes.
var noted = map[uint32]bool{
	methodConnectionClose: true, methodBlocked: true, methodUnblocked: true,
	methodChannelClose: true, methodDeclareOK: true, methodPurgeOK: true, methodDeleteOK: true,
	methodConsumeOK: true, methodCancel: true, methodReturn: true, methodDeliver: true,
	methodGetOK: true, methodGetEmpty: true, methodAck: true, methodNack: true,
}

// frame is one noted method frame: where it arrived and what identifies
// the event it becomes among the frames of its kind.
type frame struct {
	seq      uint64 // arrival order over all connections
	conn     int    // the scenario's connection number
	chanID   uint16 // the AMQP channel number
	method   uint32
	tag      uint64 // delivery tag (deliver, get-ok, ack, nack)
	multiple bool   // ack, nack
	ctag     string // consumer tag (consume-ok, cancel, deliver)
}

// tap is a net.Conn that notes, as they are read, the frames the broker
// sends on one connection. It parses only frame headers and the start of
// method frames; content header and body frames are skipped unread.
type tap struct {
	net.Conn
	conn int
	rec  *recorder

	head     [7]byte // the frame header being read
	nhead    int
	size     int    // payload size of the current frame
	method   []byte // the payload of a method frame being read
	skip     int    // bytes of a non-method frame (and its end octet) still to skip
	broken   bool   // the stream did not parse: note nothing more
	mu       sync.Mutex
	lastOpen uint16         // channel number of the last channel.open-ok
	closed   *amqp091.Error // the broker's connection.close, once read
}

// dialer returns an amqp091 Config whose connections are tapped for the
// scenario's connection n.
func (r *recorder) dialer(n int) (amqp091.Config, *tap) {
	holder := &tap{conn: n, rec: r}
	dial := amqp091.DefaultDial(30 * time.Second)
	return amqp091.Config{
		Locale: "en_US",
		Dial: func(network, addr string) (net.Conn, error) {
			c, err := dial(network, addr)
			if err != nil {
				return nil, err
			}
			holder.Conn = c
			return holder, nil
		},
	}, holder
}

// Read reads from the socket and notes the frames completed by what it read.
func (t *tap) Read(p []byte) (int, error) {
	n, err := t.Conn.Read(p)
	if n > 0 && !t.broken {
		t.feed(p[:n])
	}
	return n, err
}

// feed parses b, which continues the byte stream from the broker.
func (t *tap) feed(b []byte) {
	for len(b) > 0 {
		switch {
		case t.skip > 0:
			k := min(t.skip, len(b))
			t.skip -= k
			b = b[k:]
		case t.nhead < len(t.head):
			k := copy(t.head[t.nhead:], b)
			t.nhead += k
			b = b[k:]
			if t.nhead < len(t.head) {
				return
			}
			t.size = int(binary.BigEndian.Uint32(t.head[3:7]))
			if t.head[0] != 1 { // not a method frame
				t.skip = t.size + 1
				t.nhead = 0
			}
		default:
			// a method frame's payload, then its end octet
			want := t.size + 1 - len(t.method)
			k := min(want, len(b))
			t.method = append(t.method, b[:k]...)
			b = b[k:]
			if k < want {
				return
			}
			if t.method[t.size] != 0xCE {
				t.broken = true
				return
			}
			t.methodFrame(binary.BigEndian.Uint16(t.head[1:3]), t.method[:t.size])
			t.method, t.nhead = t.method[:0], 0
		}
	}
}

// methodFrame notes one method frame on channel ch.
func (t *tap) methodFrame(ch uint16, p []byte) {
	if len(p) < 4 {
		return
	}
	id := uint32(binary.BigEndian.Uint16(p[0:2]))<<16 | uint32(binary.BigEndian.Uint16(p[2:4]))
	args := p[4:]
	if id == methodChannelOpenOK {
		t.mu.Lock()
		t.lastOpen = ch
		t.mu.Unlock()
		return
	}
	if !noted[id] {
		return
	}
	f := frame{conn: t.conn, chanID: ch, method: id}
	switch id {
	case methodConnectionClose:
		if len(args) >= 2 {
			text, _ := shortstr(args[2:])
			t.mu.Lock()
			t.closed = &amqp091.Error{Code: int(binary.BigEndian.Uint16(args)), Reason: text, Server: true}
			t.mu.Unlock()
		}
	case methodConsumeOK, methodCancel:
		f.ctag, _ = shortstr(args)
	case methodDeliver:
		var rest []byte
		f.ctag, rest = shortstr(args)
		if len(rest) >= 8 {
			f.tag = binary.BigEndian.Uint64(rest)
		}
	case methodGetOK:
		if len(args) >= 8 {
			f.tag = binary.BigEndian.Uint64(args)
		}
	case methodAck, methodNack:
		if len(args) >= 9 {
			f.tag, f.multiple = binary.BigEndian.Uint64(args), args[8]&1 != 0
		}
	}
	t.rec.frame(f)
}

// opened returns the channel number of the last channel.open-ok read. The
// runner opens a connection's channels one at a time, so right after
// Channel returns it is that channel's number.
func (t *tap) opened() uint16 {
	t.mu.Lock()
	defer t.mu.Unlock()
	return t.lastOpen
}

// reason returns why the connection closed, given the error the client
// reported. amqp091-go answers the broker's connection.close with
// close-ok, and when the broker has already shut the socket that write
// fails and the client may report its own frame error (501) in place of
// the broker's reason: the frame read off the wire is what the broker said.
func (t *tap) reason(e *amqp091.Error) *amqp091.Error {
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.closed != nil && !e.Server {
		return t.closed
	}
	return e
}

// shortstr splits an AMQP short string off the front of b.
func shortstr(b []byte) (string, []byte) {
	if len(b) == 0 || len(b) < 1+int(b[0]) {
		return "", nil
	}
	n := int(b[0])
	return string(b[1 : 1+n]), b[1+n:]
}
