package broker

import (
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
}

// recorder collects events from every collector goroutine in the order they
// arrive and tells when the broker has been quiet for long enough.
type recorder struct {
	mu     sync.Mutex
	events []recorded
	last   time.Time // when the last event arrived or the last call returned
}

func newRecorder() *recorder { return &recorder{last: time.Now()} }

// add records an event as arriving now.
func (r *recorder) add(ev trace.Event, cause *amqp091.Error) {
	r.mu.Lock()
	r.events = append(r.events, recorded{ev, cause})
	r.last = time.Now()
	r.mu.Unlock()
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
// trace order, and forgets them.
func (r *recorder) take() []string {
	r.mu.Lock()
	evs := r.events
	r.events = nil
	r.mu.Unlock()
	return lines(evs)
}

// lines drops the per-channel copies of a connection's close and prints the
// rest in trace order: grouped by connection and channel, each group in
// arrival order, confirms sorted by sequence number.
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
