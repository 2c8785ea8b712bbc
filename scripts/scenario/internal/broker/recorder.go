package broker

import (
	"sort"
	"sync"
	"time"

	amqp091 "github.com/rabbitmq/amqp091-go"

	"warren/engine/trace"
)

// recorded is one event as a collector saw it. cause is the broker's
// exception behind a closed event: amqp091-go hands the same *Error to the
// connection's and to every channel's close listeners when the connection
// is closed, which is how the channel copies are recognised and dropped.
type recorded struct {
	ev    trace.Event
	cause *amqp091.Error
	// order places the event among the others: twice the arrival number of
	// its frame, or, for an event whose frame was not noted, one more than
	// twice the number of the last frame noted before it.
	order uint64
}

// recorder collects events from every collector goroutine, places each at
// the frame it came from, and tells when the broker has been quiet for
// long enough.
type recorder struct {
	mu     sync.Mutex
	events []recorded
	last   time.Time // when the last event arrived or the last call returned
	// frames are the noted frames no event has claimed yet, in arrival
	// order; seq numbers them; kept is where the frames noted before the
	// previous take end (those still unclaimed at the next take are dropped)
	frames []frame
	seq    uint64
	kept   uint64
}

func newRecorder() *recorder { return &recorder{last: time.Now()} }

// frame notes a frame as arriving now.
func (r *recorder) frame(f frame) {
	r.mu.Lock()
	r.seq++
	f.seq = r.seq
	r.frames = append(r.frames, f)
	r.last = time.Now()
	r.mu.Unlock()
}

// add records a connection-level event, or one whose frame is not noted.
func (r *recorder) add(ev trace.Event, cause *amqp091.Error) { r.addOn(0, ev, cause) }

// addOn records an event that arrived on AMQP channel chanID (0 for the
// connection itself), placing it at its frame.
func (r *recorder) addOn(chanID uint16, ev trace.Event, cause *amqp091.Error) {
	r.mu.Lock()
	order := 2*r.seq + 1
	if i := r.claim(chanID, &ev); i >= 0 {
		order = 2 * r.frames[i].seq
		if claims(&ev, &r.frames[i]) {
			r.frames = append(r.frames[:i], r.frames[i+1:]...)
		}
	}
	r.events = append(r.events, recorded{ev, cause, order})
	r.last = time.Now()
	r.mu.Unlock()
}

// claim returns the index of the earliest noted frame that ev came from, or
// -1.
func (r *recorder) claim(chanID uint16, ev *trace.Event) int {
	method, ok := methodOf[ev.Kind]
	if !ok {
		return -1
	}
	for i := range r.frames {
		f := &r.frames[i]
		if f.conn != ev.Conn || f.chanID != chanID || f.method != method {
			continue
		}
		switch ev.Kind {
		case trace.Deliver:
			if f.tag == ev.DeliveryTag && f.ctag == ev.ConsumerTag {
				return i
			}
		case trace.GetOK:
			if f.tag == ev.DeliveryTag {
				return i
			}
		case trace.ConsumeOK, trace.Cancelled:
			if f.ctag == ev.ConsumerTag {
				return i
			}
		case trace.ConfirmAck, trace.ConfirmNack:
			if f.tag == ev.Seq || f.multiple && f.tag > ev.Seq {
				return i
			}
		default:
			return i
		}
	}
	return -1
}

// claims reports whether ev is the last event frame f becomes: a multiple
// confirm stands for every sequence number up to its own.
func claims(ev *trace.Event, f *frame) bool {
	if ev.Kind == trace.ConfirmAck || ev.Kind == trace.ConfirmNack {
		return f.tag == ev.Seq
	}
	return true
}

// methodOf is the method of the frame behind each kind of event.
var methodOf = map[trace.Kind]uint32{
	trace.DeclareOK:        methodDeclareOK,
	trace.DeleteOK:         methodDeleteOK,
	trace.PurgeOK:          methodPurgeOK,
	trace.ConsumeOK:        methodConsumeOK,
	trace.Deliver:          methodDeliver,
	trace.GetOK:            methodGetOK,
	trace.GetEmpty:         methodGetEmpty,
	trace.ConfirmAck:       methodAck,
	trace.ConfirmNack:      methodNack,
	trace.Return:           methodReturn,
	trace.Cancelled:        methodCancel,
	trace.ChannelClosed:    methodChannelClose,
	trace.ConnectionClosed: methodConnectionClose,
	trace.Blocked:          methodBlocked,
	trace.Unblocked:        methodUnblocked,
}

// touch marks activity without an event (a client call returned).
func (r *recorder) touch() {
	r.mu.Lock()
	r.last = time.Now()
	r.mu.Unlock()
}

// settle waits until nothing has arrived for quiet, or limit has passed.
func (r *recorder) settle(quiet, limit time.Duration) {
	deadline := time.Now().Add(limit)
	for {
		r.mu.Lock()
		wait := time.Until(r.last.Add(quiet))
		r.mu.Unlock()
		if wait <= 0 || time.Now().After(deadline) {
			return
		}
		time.Sleep(wait)
	}
}

// take returns the lines of every event recorded since the last take, in
// trace order, and forgets them. Frames noted before the previous take
// that no event claimed since are forgotten too.
func (r *recorder) take() []string {
	r.mu.Lock()
	evs := r.events
	r.events = nil
	kept := r.frames[:0]
	for _, f := range r.frames {
		if f.seq > r.kept {
			kept = append(kept, f)
		}
	}
	r.frames, r.kept = kept, r.seq
	r.mu.Unlock()
	sort.SliceStable(evs, func(i, j int) bool { return evs[i].order < evs[j].order })
	return lines(evs)
}

// lines drops the per-channel copies of a connection's close and prints the
// rest in trace order: grouped by connection and channel, each group in
// the order of evs, confirms sorted by sequence number.
func lines(evs []recorded) []string {
	connCauses := map[*amqp091.Error]bool{}
	for _, r := range evs {
		if r.ev.Kind == trace.ConnectionClosed && r.cause != nil {
			connCauses[r.cause] = true
		}
	}
	out := make([]trace.Event, 0, len(evs))
	for _, r := range evs {
		if r.ev.Kind == trace.ChannelClosed && connCauses[r.cause] {
			continue
		}
		out = append(out, r.ev)
	}
	return trace.Lines(out)
}
