package beam

// EventLog keeps every event of a run compactly, in chunks of a fixed
// size with a column per field: its start as an offset from the chunk's
// first, its cost, and which of the chunk's distinct (process, sender,
// kind, scheduler, input) tuples it has, the tuples interned in a small
// table per chunk. A busy run repeats a few dozen tuples, so an event
// takes 7 bytes instead of the 56 of an Event, nothing for the garbage
// collector to scan, and no copying as the log grows. An event that does
// not fit (a start more than 71 minutes after its chunk's first, a cost
// over 65 ms, a chunk with over 255 tuples) is kept whole on the side.
type EventLog struct {
	chunks []*eventChunk
	n      int64
	wide   map[int64]Event // events that do not fit the columns, by index
	last   Event           // the event added last, as At would return it
}

// scanTuples is how many tuples a chunk may have for intern to look
// through them instead of its index.
const scanTuples = 16

const (
	chunkBits = 12
	chunkSize = 1 << chunkBits
	// wideTuple in the tuple column: the event is in wide
	wideTuple = 255
)

// tuple is what events of a chunk share.
type tuple struct {
	pid, from PID
	kind      uint16
	sched     int16 // -1 - sched for socket input
}

type eventChunk struct {
	base   int64 // Start of the chunk's first event
	start  [chunkSize]uint32
	dur    [chunkSize]uint16
	tuple  [chunkSize]uint8
	tuples []tuple
	index  map[tuple]uint8 // while the chunk fills
	last   uint8           // the tuple added last
}

func (ch *eventChunk) intern(t tuple) uint8 {
	if int(ch.last) < len(ch.tuples) && ch.tuples[ch.last] == t {
		return ch.last
	}
	var i uint8
	ok := false
	if len(ch.tuples) <= scanTuples {
		// a few tuples: a look at each is cheaper than hashing
		for j := range ch.tuples {
			if ch.tuples[j] == t {
				i, ok = uint8(j), true
				break
			}
		}
	} else {
		i, ok = ch.index[t]
	}
	if !ok {
		if len(ch.tuples) >= wideTuple {
			return wideTuple
		}
		i = uint8(len(ch.tuples))
		ch.tuples = append(ch.tuples, t)
		ch.index[t] = i
	}
	ch.last = i
	return i
}

// Len is the number of events kept.
func (l *EventLog) Len() int64 { return l.n }

// Add appends e, which must be event number Len()+1.
func (l *EventLog) Add(e *Event) {
	l.last = *e
	i := l.n
	c, k := i>>chunkBits, int(i&(chunkSize-1))
	if int(c) == len(l.chunks) {
		if c > 0 {
			l.chunks[c-1].index = nil // full: nothing more to intern
		}
		l.chunks = append(l.chunks, &eventChunk{base: e.Start, index: map[tuple]uint8{}})
	}
	ch := l.chunks[c]
	l.n++
	d, dur := e.Start-ch.base, e.End-e.Start
	tu := wideTuple
	if d >= 0 && d <= 1<<32-1 && dur >= 0 && dur <= 1<<16-1 && e.Sched >= 0 && e.Sched <= 1<<14 {
		sched := int16(e.Sched)
		if e.Input {
			sched = -1 - sched
		}
		t := tuple{e.PID, e.From, e.Kind, sched}
		if tu = int(ch.last); tu >= len(ch.tuples) || ch.tuples[tu] != t {
			tu = int(ch.intern(t)) // not the tuple added last
		}
	}
	ch.tuple[k] = uint8(tu)
	if tu == wideTuple {
		if l.wide == nil {
			l.wide = map[int64]Event{}
		}
		l.wide[i] = *e
		return
	}
	ch.start[k], ch.dur[k] = uint32(d), uint16(dur)
}

// Last is the event Add was given last: At(Len()) while nothing was
// truncated since, without decoding it from the columns.
func (l *EventLog) Last() *Event { return &l.last }

// At returns event number n (1-based, at most Len()).
func (l *EventLog) At(n int64) Event {
	i := n - 1
	ch, k := l.chunks[i>>chunkBits], int(i&(chunkSize-1))
	tu := ch.tuple[k]
	if tu == wideTuple {
		return l.wide[i]
	}
	t := ch.tuples[tu]
	start := ch.base + int64(ch.start[k])
	e := Event{N: n, Start: start, End: start + int64(ch.dur[k]), Sched: int(t.sched), PID: t.pid, Kind: t.kind, From: t.from}
	if t.sched < 0 {
		e.Sched, e.Input = int(-1-t.sched), true
	}
	return e
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
	if keep > 0 {
		// the last chunk fills again: it interns again
		ch := l.chunks[keep-1]
		if ch.index == nil {
			ch.index = make(map[tuple]uint8, len(ch.tuples))
			for i, t := range ch.tuples {
				ch.index[t] = uint8(i)
			}
		}
	}
	for i := range l.wide {
		if i >= l.n {
			delete(l.wide, i)
		}
	}
}

// Bytes is the memory the log holds.
func (l *EventLog) Bytes() int64 {
	const chunkBytes = 8 + chunkSize*(4+2+1) + 64
	b := int64(len(l.chunks))*chunkBytes + int64(len(l.wide))*80
	for _, c := range l.chunks {
		b += int64(cap(c.tuples)) * 16
		if c.index != nil {
			b += int64(len(c.index)) * 32
		}
	}
	return b
}
