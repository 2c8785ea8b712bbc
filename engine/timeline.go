package engine

import (
	"sort"

	"warren/engine/amqp"

	"warren/engine/beam"
	"warren/engine/trace"
)

// The timeline of a run is what a seek keeps: every event (beam.EventLog)
// and every trace line, recorded once when it first ran. Trace lines are
// kept as their fields, a column each, with names interned; the text is
// derived when a line is shown. Deliveries and confirms, nearly every line
// of a long run, take about 52 bytes and their body's first bytes; a rare
// line (a declare-ok, a return, a delivery with headers) keeps its text.

const lineChunkSize = 1024

// kindText marks a line kept as its text.
const kindText = 0xff

const (
	flagRedelivered = 1 << iota
	flagPersistent
)

// lineLog is the transcript: every trace line as it arrived.
type lineLog struct {
	chunks []*lineChunk
	n      int
	names  map[string]uint32 // interned consumer tags, exchanges, keys
	strs   []string
	last   [3]uint32 // the id interned last for each of tag, exchange, key
	text   []string  // the rare lines, by their num
	// sideBytes is what text and strs hold, kept as they grow so that
	// bytes does not walk them
	sideBytes int64
}

type lineChunk struct {
	event [lineChunkSize]int64
	time  [lineChunkSize]int64
	num   [lineChunkSize]uint64 // delivery tag, confirm seq, or index in text
	conn  [lineChunkSize]uint16
	ch    [lineChunkSize]uint16
	kind  [lineChunkSize]uint8
	flags [lineChunkSize]uint8
	prio  [lineChunkSize]uint8
	ctag  [lineChunkSize]uint32
	exch  [lineChunkSize]uint32
	key   [lineChunkSize]uint32
	body  [lineChunkSize]uint32 // offset in arena
	blen  [lineChunkSize]uint32 // the body's length (at most 16 bytes of a longer one are kept)
	arena []byte
}

// bodyKept is how much of a body FormatBody shows: all of one up to 40
// bytes, the first 16 of a longer one.
func bodyKept(n int) int {
	if n <= 40 {
		return n
	}
	return 16
}

// intern names s; column is which of the last ids to try first (a run
// of deliveries repeats its consumer tag, exchange and key).
func (l *lineLog) intern(column int, s string) uint32 {
	if id := l.last[column]; int(id) < len(l.strs) && l.strs[id] == s {
		return id
	}
	id, ok := l.names[s]
	if ok {
		l.last[column] = id
		return id
	}
	if l.names == nil {
		l.names = map[string]uint32{}
	}
	id = uint32(len(l.strs))
	l.names[s] = id
	l.strs = append(l.strs, s)
	l.sideBytes += 2*int64(len(s)) + 40
	l.last[column] = id
	return id
}

// compact says whether a line's fields fit the columns.
func compact(e *trace.Event) bool {
	if e.Conn < 0 || e.Conn > 1<<16-1 || e.Chan < 0 || e.Chan > 1<<16-1 {
		return false
	}
	switch e.Kind {
	case trace.ConfirmAck, trace.ConfirmNack:
		return true
	case trace.Deliver:
		return (e.Props == nil || !e.Props.HasOthers()) && len(e.Body) <= 1<<32-1
	}
	return false
}

// add records the line e that arrived during event ev at virtual time at.
func (l *lineLog) add(ev, at int64, e *trace.Event) {
	c, k := l.n/lineChunkSize, l.n%lineChunkSize
	if c == len(l.chunks) {
		l.chunks = append(l.chunks, &lineChunk{})
	}
	ch := l.chunks[c]
	ch.event[k], ch.time[k] = ev, at
	l.n++
	if !compact(e) {
		ch.kind[k], ch.num[k] = kindText, uint64(len(l.text))
		l.text = append(l.text, e.String())
		l.sideBytes += int64(len(l.text[len(l.text)-1])) + 16
		return
	}
	ch.kind[k], ch.conn[k], ch.ch[k] = uint8(e.Kind), uint16(e.Conn), uint16(e.Chan)
	if e.Kind != trace.Deliver {
		ch.num[k] = e.Seq
		return
	}
	ch.num[k] = e.DeliveryTag
	var f uint8
	if e.Redelivered {
		f |= flagRedelivered
	}
	var prio uint8
	if p := e.Props; p != nil {
		if p.DeliveryMode == 2 {
			f |= flagPersistent
		}
		prio = p.Priority
	}
	ch.flags[k], ch.prio[k] = f, prio
	ch.ctag[k], ch.exch[k], ch.key[k] = l.intern(0, e.ConsumerTag), l.intern(1, e.Exchange), l.intern(2, e.Key)
	ch.body[k], ch.blen[k] = uint32(len(ch.arena)), uint32(len(e.Body))
	ch.arena = append(ch.arena, e.Body[:bodyKept(len(e.Body))]...)
}

// eventOf is the event during which line i arrived.
func (l *lineLog) eventOf(i int) int64 {
	return l.chunks[i/lineChunkSize].event[i%lineChunkSize]
}

// line derives line i, its text included.
func (l *lineLog) line(i int) TraceLine {
	ch, k := l.chunks[i/lineChunkSize], i%lineChunkSize
	t := TraceLine{Event: ch.event[k], Time: ch.time[k]}
	kind := ch.kind[k]
	if kind == kindText {
		t.Text = l.text[ch.num[k]]
		return t
	}
	e := trace.Event{Conn: int(ch.conn[k]), Chan: int(ch.ch[k]), Kind: trace.Kind(kind)}
	if e.Kind != trace.Deliver {
		e.Seq = ch.num[k]
		t.Text = e.String()
		return t
	}
	e.DeliveryTag, e.Redelivered = ch.num[k], ch.flags[k]&flagRedelivered != 0
	var props amqp.Properties
	if ch.flags[k]&flagPersistent != 0 {
		props.DeliveryMode = 2
	}
	props.Priority = ch.prio[k]
	e.Props = &props
	e.ConsumerTag, e.Exchange, e.Key = l.strs[ch.ctag[k]], l.strs[ch.exch[k]], l.strs[ch.key[k]]
	n := int(ch.blen[k])
	kept := ch.arena[ch.body[k] : ch.body[k]+uint32(bodyKept(n))]
	if len(kept) == n {
		e.Body = kept
	} else {
		e.Body = make([]byte, n) // FormatBody shows the first bytes and the length
		copy(e.Body, kept)
	}
	t.Text = e.String()
	return t
}

// upTo is the number of lines that arrived by event ev.
func (l *lineLog) upTo(ev int64) int {
	return sort.Search(l.n, func(i int) bool { return l.eventOf(i) > ev })
}

// truncate drops the lines that arrived after event ev.
func (l *lineLog) truncate(ev int64) {
	n := l.upTo(ev)
	if n == l.n {
		return
	}
	// the rare lines dropped are the last ones of text
	for i := n; i < l.n; i++ {
		ch, k := l.chunks[i/lineChunkSize], i%lineChunkSize
		if ch.kind[k] == kindText {
			for _, s := range l.text[ch.num[k]:] {
				l.sideBytes -= int64(len(s)) + 16
			}
			l.text = l.text[:ch.num[k]]
			break
		}
	}
	keep := (n + lineChunkSize - 1) / lineChunkSize
	clear(l.chunks[keep:])
	l.chunks = l.chunks[:keep]
	if c, k := n/lineChunkSize, n%lineChunkSize; k > 0 {
		ch := l.chunks[c]
		// the next line appends its body where the dropped ones began
		for j := k; j < min(lineChunkSize, l.n-c*lineChunkSize); j++ {
			if ch.kind[j] == uint8(trace.Deliver) {
				ch.arena = ch.arena[:ch.body[j]]
				break
			}
		}
	}
	l.n = n
}

// bytes is the memory the transcript holds.
func (l *lineLog) bytes() int64 {
	const chunkBytes = lineChunkSize * (8 + 8 + 8 + 2 + 2 + 1 + 1 + 1 + 4*5)
	b := int64(len(l.chunks)) * chunkBytes
	for _, c := range l.chunks {
		b += int64(cap(c.arena))
	}
	return b + l.sideBytes
}

// Transcript returns the trace lines that arrived so far, each with its
// event number, in arrival order. It derives the text of every line: a
// page that keeps what it has read asks for the new ones with TraceLines.
func (s *Sim) Transcript() []TraceLine {
	return s.TraceLines(0, s.TranscriptLen())
}

// TranscriptLen is the number of trace lines that arrived by the current
// event.
func (s *Sim) TranscriptLen() int { return s.client.lines.upTo(s.rt.Events()) }

// TraceLines returns trace lines from..to-1 (0-based, to at most
// TranscriptLen()), their text derived now.
func (s *Sim) TraceLines(from, to int) []TraceLine {
	to = min(to, s.TranscriptLen())
	from = max(from, 0)
	if from >= to {
		return nil
	}
	out := make([]TraceLine, 0, to-from)
	for i := from; i < to; i++ {
		out = append(out, s.client.lines.line(i))
	}
	return out
}

// showing bounds the lines a command prints (RunOptions.Most).
type showing struct {
	on        bool
	left      int // lines still to print
	unprinted int // lines counted and not printed
}

// lines prints events in output order, at most left of them: once one is
// left out, every later line of the command is too, so what is printed is
// always the start of the whole output.
func (w *showing) lines(ev []trace.Event) []string {
	trace.Sort(ev)
	n := min(len(ev), w.left)
	out := make([]string, n)
	for i := range out {
		out[i] = ev[i].String()
	}
	w.left -= n
	w.unprinted += len(ev) - n
	return out
}

// EventCount is the number of recorded events up to the current one
// (Options.Record).
func (s *Sim) EventCount() int64 { return min(s.log.Len(), s.rt.Events()) }

// Event returns recorded event n (1-based, at most EventCount()).
func (s *Sim) Event(n int64) beam.Event { return s.log.At(n) }

// Events returns the recorded events up to the current one
// (Options.Record), copied out of the timeline: EventCount and Event read
// one without copying them all.
func (s *Sim) Events() []beam.Event {
	n := s.EventCount()
	out := make([]beam.Event, n)
	for i := range out {
		out[i] = s.log.At(int64(i) + 1)
	}
	return out
}

// TimelineBytes is the memory the timeline holds: the recorded events and
// trace lines.
func (s *Sim) TimelineBytes() int64 { return s.log.Bytes() + s.client.lines.bytes() }
