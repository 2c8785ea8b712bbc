package broker

import (
	"encoding/binary"
	"slices"
	"testing"

	amqp091 "github.com/rabbitmq/amqp091-go"

	"warren/engine/trace"
)

// methodBytes encodes one method frame on channel ch.
func methodBytes(ch uint16, id uint32, args []byte) []byte {
	payload := binary.BigEndian.AppendUint32(nil, id)
	payload = append(payload, args...)
	b := []byte{1}
	b = binary.BigEndian.AppendUint16(b, ch)
	b = binary.BigEndian.AppendUint32(b, uint32(len(payload)))
	b = append(b, payload...)
	return append(b, 0xCE)
}

// contentBytes encodes a content header and one body frame on ch.
func contentBytes(ch uint16, body string) []byte {
	var out []byte
	for _, fr := range []struct {
		typ     byte
		payload []byte
	}{
		{2, append(binary.BigEndian.AppendUint64([]byte{0, 60, 0, 0}, uint64(len(body))), 0, 0)},
		{3, []byte(body)},
	} {
		out = append(out, fr.typ)
		out = binary.BigEndian.AppendUint16(out, ch)
		out = binary.BigEndian.AppendUint32(out, uint32(len(fr.payload)))
		out = append(out, fr.payload...)
		out = append(out, 0xCE)
	}
	return out
}

func deliverBytes(ch uint16, ctag string, tag uint64) []byte {
	args := append([]byte{byte(len(ctag))}, ctag...)
	args = binary.BigEndian.AppendUint64(args, tag)
	args = append(args, 0, 0, 0) // redelivered, exchange "", key ""
	return append(methodBytes(ch, methodDeliver, args), contentBytes(ch, "body")...)
}

// The events of two consumers on one channel, of another channel and of
// confirms print in the order of their frames on the wire, whatever order
// the collectors hand them over in and however the reads split the stream.
func TestRecorderPrintsInWireOrder(t *testing.T) {
	var wire []byte
	wire = append(wire, methodBytes(1, methodChannelOpenOK, []byte{0, 0, 0, 0})...)
	wire = append(wire, deliverBytes(1, "a", 1)...)
	wire = append(wire, deliverBytes(2, "c", 1)...)
	wire = append(wire, deliverBytes(1, "b", 2)...)
	wire = append(wire, methodBytes(1, methodReturn, []byte{0, 200, 0, 0, 0})...)
	wire = append(wire, contentBytes(1, "r")...)
	wire = append(wire, deliverBytes(1, "a", 3)...)
	wire = append(wire, methodBytes(1, methodAck, append(binary.BigEndian.AppendUint64(nil, 2), 1))...)
	wire = append(wire, deliverBytes(1, "b", 4)...)

	for _, chunk := range []int{1, 3, 7, 64, len(wire)} {
		r := newRecorder()
		tp := &tap{conn: 1, rec: r}
		for rest := wire; len(rest) > 0; {
			k := min(chunk, len(rest))
			tp.feed(rest[:k])
			rest = rest[k:]
		}
		if tp.opened() != 1 {
			t.Fatalf("chunk %d: opened = %d, want 1", chunk, tp.opened())
		}
		deliver := func(ch int, ctag string, tag uint64) (uint16, trace.Event) {
			return uint16(ch), trace.Event{Conn: 1, Chan: ch, Kind: trace.Deliver, ConsumerTag: ctag, DeliveryTag: tag}
		}
		// as the collector goroutines might hand them over
		for _, e := range []func() (uint16, trace.Event){
			func() (uint16, trace.Event) { return deliver(1, "b", 4) },
			func() (uint16, trace.Event) { return deliver(1, "b", 2) },
			func() (uint16, trace.Event) { return 1, trace.Event{Conn: 1, Chan: 1, Kind: trace.ConfirmAck, Seq: 1} },
			func() (uint16, trace.Event) { return deliver(2, "c", 1) },
			func() (uint16, trace.Event) { return 1, trace.Event{Conn: 1, Chan: 1, Kind: trace.Return, Code: 200} },
			func() (uint16, trace.Event) { return 1, trace.Event{Conn: 1, Chan: 1, Kind: trace.ConfirmAck, Seq: 2} },
			func() (uint16, trace.Event) { return deliver(1, "a", 3) },
			func() (uint16, trace.Event) { return deliver(1, "a", 1) },
		} {
			id, ev := e()
			r.addOn(id, ev, nil)
		}
		got := r.take()
		want := []string{
			"c1.1 deliver consumer=a tag=1 exchange= key= body=",
			"c1.1 deliver consumer=b tag=2 exchange= key= body=",
			"c1.1 return code=200 text= exchange= key= body=",
			"c1.1 deliver consumer=a tag=3 exchange= key= body=",
			"c1.1 confirm-ack seq=1",
			"c1.1 confirm-ack seq=2",
			"c1.1 deliver consumer=b tag=4 exchange= key= body=",
			"c1.2 deliver consumer=c tag=1 exchange= key= body=",
		}
		if !slices.Equal(got, want) {
			t.Errorf("chunk %d: got\n%q\nwant\n%q", chunk, got, want)
		}
		if len(r.frames) != 0 {
			t.Errorf("chunk %d: %d frames left unclaimed", chunk, len(r.frames))
		}
	}
}

// When the client's close-ok meets a socket the broker already shut, the
// client reports its own write error; the trace keeps what the broker said.
func TestBrokerCloseOutlivesTheClientsWriteError(t *testing.T) {
	tp := &tap{conn: 2, rec: newRecorder()}
	text := "CONNECTION_FORCED - broker forced connection closure with reason 'shutdown'"
	args := append([]byte{1, 64, byte(len(text))}, text...)
	tp.feed(methodBytes(0, methodConnectionClose, append(args, 0, 0, 0, 0)))
	written := &amqp091.Error{Code: amqp091.FrameError, Reason: "write: connection reset by peer"}
	if got := tp.reason(written); got.Code != 320 || got.Reason != text {
		t.Errorf("reason = %d %q, want 320 %q", got.Code, got.Reason, text)
	}
	other := &tap{conn: 3, rec: newRecorder()}
	if got := other.reason(written); got != written {
		t.Errorf("with no close read, reason = %v, want the client's own error", got)
	}
}

// A stream that does not parse stops the noting; the events keep the order
// they came in.
func TestTapStopsOnBrokenStream(t *testing.T) {
	r := newRecorder()
	tp := &tap{conn: 1, rec: r}
	bad := methodBytes(1, methodGetEmpty, []byte{0})
	bad[len(bad)-1] = 0
	tp.feed(bad)
	tp.feed(methodBytes(1, methodGetEmpty, []byte{0}))
	if !tp.broken || len(r.frames) != 0 {
		t.Errorf("broken=%v frames=%d, want a broken tap and no frames", tp.broken, len(r.frames))
	}
}

// Frames nobody claims are dropped after one more take.
func TestRecorderForgetsUnclaimedFrames(t *testing.T) {
	r := newRecorder()
	r.frame(frame{conn: 1, chanID: 1, method: methodGetEmpty})
	r.take()
	if len(r.frames) != 1 {
		t.Fatalf("frames after the first take = %d, want 1", len(r.frames))
	}
	r.take()
	if len(r.frames) != 0 {
		t.Errorf("frames after the second take = %d, want 0", len(r.frames))
	}
}
