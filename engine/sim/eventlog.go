package sim

// EventLog keeps every event of a run compactly, a column per field in
// chunks of a fixed size: 13 bytes an event instead of the 56 of an
// Event, nothing for the garbage collector to scan, and no copying as it
// grows. An event whose fields do not fit the columns (a start more than
// 71 minutes after its chunk's first, a cost over 65 ms, a PID or a kind
// over 65535, a scheduler over 63) is kept whole on the side.
type EventLog struct {
	chunks []*eventChunk
	n      int64
	wide   map[int64]Event // events that do not fit the columns, by index
}

const (
	chunkBits = 12
	chunkSize = 1 << chunkBits

	schedInput = 0x80 // sched column: the message was socket data
	schedWide  = 0x40 // sched column: the event is in wide
	schedMask  = 0x3f
)

type eventChunk struct {
	base  int64 // Start of the chunk's first event
	start [chunkSize]uint32
	dur   [chunkSize]uint16
	pid   [chunkSize]uint16
	from  [chunkSize]uint16
	kind  [chunkSize]uint16
	sched [chunkSize]uint8
}

// Len is the number of events kept.
func (l *EventLog) Len() int64 { return l.n }

// Add appends e, which must be event number Len()+1.
func (l *EventLog) Add(e *Event) {
	i := l.n
	c, k := i>>chunkBits, int(i&(chunkSize-1))
	if int(c) == len(l.chunks) {
		l.chunks = append(l.chunks, &eventChunk{base: e.Start})
	}
	ch := l.chunks[c]
	d, dur := e.Start-ch.base, e.End-e.Start
	if d >= 0 && d <= 1<<32-1 && dur >= 0 && dur <= 1<<16-1 && e.PID >= 0 && e.PID <= 1<<16-1 &&
		e.From >= 0 && e.From <= 1<<16-1 && e.Sched >= 0 && e.Sched <= schedMask {
		ch.start[k], ch.dur[k], ch.pid[k], ch.from[k], ch.kind[k] = uint32(d), uint16(dur), uint16(e.PID), uint16(e.From), e.Kind
		s := uint8(e.Sched)
		if e.Input {
			s |= schedInput
		}
		ch.sched[k] = s
	} else {
		if l.wide == nil {
			l.wide = map[int64]Event{}
		}
		l.wide[i] = *e
		ch.sched[k] = schedWide
	}
	l.n++
}

// At returns event number n (1-based, at most Len()).
func (l *EventLog) At(n int64) Event {
	i := n - 1
	ch, k := l.chunks[i>>chunkBits], int(i&(chunkSize-1))
	s := ch.sched[k]
	if s&schedWide != 0 {
		return l.wide[i]
	}
	start := ch.base + int64(ch.start[k])
	return Event{N: n, Start: start, End: start + int64(ch.dur[k]), Sched: int(s & schedMask),
		PID: PID(ch.pid[k]), Kind: ch.kind[k], From: PID(ch.from[k]), Input: s&schedInput != 0}
}

// Truncate keeps the first n events only.
func (l *EventLog) Truncate(n int64) {
	if n >= l.n {
		return
	}
	l.n = max(n, 0)
	keep := int((l.n + chunkSize - 1) >> chunkBits)
	clear(l.chunks[keep:])
	l.chunks = l.chunks[:keep]
	for i := range l.wide {
		if i >= l.n {
			delete(l.wide, i)
		}
	}
}

// Bytes is the memory the log holds.
func (l *EventLog) Bytes() int64 {
	const chunkBytes = 8 + chunkSize*(4+2+2+2+2+1)
	return int64(len(l.chunks))*chunkBytes + int64(len(l.wide))*80
}
