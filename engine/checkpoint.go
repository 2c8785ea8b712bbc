package engine

import (
	"errors"

	"warren/engine/clone"
	"warren/engine/say"
)

// Checkpoints make a seek fast: while a run is recorded, the simulation's
// state (runtime, processes and their handlers, mailboxes, timers, the
// node and its MemFS, the client, the metrics; see Sim) is copied every
// interval of events. A seek to event n starts from a copy of the nearest
// checkpoint at or before n and replays the recorded operations from
// there, at most one interval of events, instead of everything from the
// start.
//
// The copy is clone.Copy's, which walks every field the types hold, so a
// field added later is copied without anyone remembering to. It refuses a
// state that holds a closure (a channel waiting for a queue's reply keeps
// what to do next as one): then the checkpoint is taken a little later,
// when the state holds none. Checkpoints are taken after an event, where
// a replay from the start would be too, so the replay from one gives the
// same state (TestCheckpointSeekMatchesReplay).
//
// Their memory is bounded. A checkpoint holds what its copy allocated
// and what it shares with the state it was taken from (clone.Shared: the
// files' chunks, the bodies embedded in an index), which it keeps alive
// once the state has moved on. The checkpoints' bytes are what their
// copies allocated and what they share, each shared value once however
// many of them hold it: the chunks of a file that only grows are held by
// every checkpoint after them, and are in memory once (a file that lives
// on is shared with the state as well, so this is the most they keep
// alive). Past maxCheckpoints checkpoints or their budget of bytes,
// every other one is dropped and the interval doubles, so a run of any
// length keeps at most that many, spread evenly. The budget is
// smallCheckpointBytes, or room for minKept of the largest checkpoint
// kept (its copy and its shares), up to maxCheckpointBytes: a run of
// small states keeps no more than smallCheckpointBytes of them, so that
// its recording copies no more than it did, and a run of large ones
// keeps a few. A state whose copy would allocate over maxStateBytes is
// not kept at all (the interval doubles at each such try): a seek in it
// replays from an earlier checkpoint or from the start. Keep's copies
// and the last seek's are counted apart.

const (
	// checkpointInterval is the first interval, in events.
	checkpointInterval = 16384
	// checkpointRetry is how long to wait after a state that could not be
	// copied, in events.
	checkpointRetry = 256
	maxCheckpoints  = 96
	// smallCheckpointBytes is the checkpoints' budget for small states:
	// a 100,000-message run keeps one every 16,384 events (10 MB), so a
	// seek replays at most that many, and a recorded command of 400,000
	// messages, whose states take 1.7 MB, keeps five.
	smallCheckpointBytes = 12 << 20
	// minKept is how many of the largest checkpoint the budget makes room
	// for, up to maxCheckpointBytes.
	minKept = 4
	// maxCheckpointBytes bounds the memory of the checkpoints together.
	// The backlog spiral's first block (963,956 events, states whose
	// copies allocate 3 to 15 MB and share as much again) keeps four, at
	// 173,076, 555,043, 726,011 and 874,758 events: 97 MB counted, and
	// the heap after the run holds 91 MB more than a run that keeps none
	// (125 MB against 34; the memory taken from the system, 286 MB, is
	// what the run took before its state shared its files, when it kept
	// none). The browser's wasm memory never shrinks, and a page holds
	// several widgets: this is the most one of them adds, with the seek's
	// own copy and Keep's.
	maxCheckpointBytes = 96 << 20
	// maxStateBytes is the largest copy taken (a checkpoint's, a seek's
	// own), in bytes it allocates: a seek's copy of a state as large
	// adds as much again, and what it shares.
	maxStateBytes = 32 << 20
	// checkpointSpread spaces checkpoints by what they cost: after a copy
	// of B bytes the next waits at least B/checkpointSpread events, so
	// that copying stays a small share of a recorded run (a copy takes
	// 2 to 4 ns a byte natively). A burst of thousands of frames waiting
	// in a socket makes a large state, copied less often; the small
	// states of a steady run keep the interval. A copy of over
	// largeStateBytes waits half as long: such states come from heavy
	// runs (paging, bursts, disks), whose events take longer to replay
	// (the backlog spiral's 1.5 µs an event natively, a recorded
	// command's 0.2 µs), so that a copy is as small a share of them.
	checkpointSpread = 32
	largeStateBytes  = 4 << 20
)

// checkpoints are a run's copies of the simulation, oldest first.
type checkpoints struct {
	list     []*checkpoint
	interval int64
	next     int64 // events after which to take the next
	// copied and shares are what the list holds (bytes): the bytes each
	// copy allocated, and the Shared values they hold, each counted once
	// however many hold it (held counts the holders, by where the value's
	// bytes are)
	copied int64
	held   map[uintptr]int32
	shares int64
	spread int64 // checkpointSpread, or 0 to keep to the interval
	// near is a copy taken by the last seek a little before where it
	// went (nearGap events), so that stepping back from there replays
	// that much, not up to an interval; its bytes are counted apart from
	// the thinning's.
	near *checkpoint
	// pinned are the copies Keep took, oldest first, whatever their size;
	// the thinning leaves them alone.
	pinned []*checkpoint
	// While an operation is recorded (apply): its index in ops and the
	// events before it started.
	recording bool
	op        int
	opStart   int64
}

// checkpoint is the simulation right after event at, inside operation
// applied with partial of its events run. Its bytes are what its copy
// allocated and the bytes it shares with the state it was taken from:
// what it keeps alive once the state has moved on, at most (a file that
// lives on is shared with the state and the next checkpoints too).
type checkpoint struct {
	at      int64
	applied int
	partial int64
	state   *state
	bytes   int64
	copied  int64
	shares  map[uintptr]int // what it shares (clone.Size.Shares)
}

// nearGap is how far before a seek's target its own copy is taken.
const nearGap = 1024

// CheckpointStats says what the checkpoints of the timeline cost.
type CheckpointStats struct {
	Count    int   `json:"count"`
	Bytes    int64 `json:"bytes"`    // the memory they hold together
	Interval int64 `json:"interval"` // events between two, as now spaced
	Kept     int   `json:"kept"`     // copies Keep holds (Bytes counts them)
}

// Checkpoints reports the timeline's checkpoints.
func (s *Sim) Checkpoints() CheckpointStats {
	return CheckpointStats{Count: len(s.cps.list), Bytes: s.CheckpointBytes(), Interval: s.cps.interval, Kept: len(s.cps.pinned)}
}

// CheckpointBytes is the memory the checkpoints hold, the last seek's
// copy and Keep's included.
func (s *Sim) CheckpointBytes() int64 {
	n := s.cps.bytes()
	if s.cps.near != nil {
		n += s.cps.near.bytes
	}
	for _, cp := range s.cps.pinned {
		n += cp.bytes
	}
	return n
}

// maxPinned is how many copies Keep holds at once: two moments, each
// with the copy a seek there took a little before it.
const maxPinned = 4

// Keep keeps a copy of the state as it is now as a checkpoint, whatever
// its size: a seek to this event or a little after it starts from the
// copy instead of replaying from an earlier checkpoint or the start. A
// widget keeps the moment a block opens at, which the size limits and
// the thinning may leave far from any checkpoint. When the seek that
// brought the simulation here kept its own copy a little before (see
// near), Keep keeps that one too, so that stepping back from the moment
// replays at most nearGap events.
//
// It holds maxPinned copies at most, the oldest dropped for a new one;
// like the others, they go with the history after them when it is
// replaced. A state that cannot be copied now (it holds a closure) is an
// error, and nothing is kept. Without a recorded history there is
// nothing to seek in, and Keep keeps nothing.
func (s *Sim) Keep() error {
	if !s.opts.Record {
		return nil
	}
	c := &s.cps
	at := s.rt.Events()
	for _, cp := range c.pinned {
		if cp.at == at {
			return nil // the history before a kept event never changes
		}
	}
	st, size, err := s.copySized(0)
	if err != nil {
		return say.Wrap("con.named", err, "keep")
	}
	bytes := size.Copied + size.Shared
	if near := c.near; near != nil && near.at < at && near.at >= at-nearGap {
		c.near = nil
		c.pin(near)
	}
	c.pin(&checkpoint{at: at, applied: s.applied, partial: s.partial, state: st, bytes: bytes})
	return nil
}

// pin holds cp among Keep's copies, the oldest kept first.
func (c *checkpoints) pin(cp *checkpoint) {
	for _, p := range c.pinned {
		if p.at == cp.at {
			return
		}
	}
	if len(c.pinned) == maxPinned {
		c.pinned[0] = nil
		c.pinned = c.pinned[1:]
	}
	c.pinned = append(c.pinned, cp)
}

// recordOp marks the start (or, with on false, the end) of recording
// operation ops[op], so that a checkpoint taken inside it knows where it
// is.
func (s *Sim) recordOp(on bool) {
	if !s.opts.Record {
		return
	}
	c := &s.cps
	c.recording, c.op, c.opStart = on, len(s.ops), s.rt.Events()
	if c.interval == 0 {
		c.interval, c.next, c.spread = checkpointInterval, checkpointInterval, checkpointSpread
	}
}

// afterEvent is called after every event the simulation runs.
func (s *Sim) afterEvent() {
	if c := &s.cps; c.recording && s.rt.Events() >= c.next {
		s.takeCheckpoint()
	}
}

func (s *Sim) takeCheckpoint() {
	c := &s.cps
	at := s.rt.Events()
	if n := len(c.list); n > 0 && c.list[n-1].at >= at {
		c.next = c.list[n-1].at + c.interval
		return
	}
	st, size, err := s.copySized(maxStateBytes)
	if err != nil {
		var ref *clone.Refused
		if errors.As(err, &ref) && ref.TooLarge {
			// too large to keep two of: keep none, and try again twice as
			// far on (the state may shrink as queues drain)
			c.interval *= 2
			c.next = at + c.interval
			return
		}
		c.next = at + checkpointRetry
		return
	}
	c.list = append(c.list, &checkpoint{at: at, applied: c.op, partial: at - c.opStart, state: st, bytes: size.Copied + size.Shared, copied: size.Copied, shares: size.Shares})
	c.count(c.list[len(c.list)-1], 1)
	c.next = at + c.interval
	if spread := c.spread; spread > 0 {
		if size.Copied > largeStateBytes {
			spread *= 2
		}
		c.next = at + max(c.interval, size.Copied/spread)
	}
	for len(c.list) > maxCheckpoints || c.bytes() > c.budget() {
		c.thin()
	}
}

// count adds checkpoint cp to the bytes of the list (by 1), or takes it
// out of them (by -1): what it copied, and what it shares that no other
// checkpoint of the list shares.
func (c *checkpoints) count(cp *checkpoint, by int32) {
	c.copied += int64(by) * cp.copied
	if c.held == nil {
		c.held = map[uintptr]int32{}
	}
	for at, n := range cp.shares {
		h := c.held[at] + by
		switch {
		case h == 0:
			delete(c.held, at)
			c.shares -= int64(n)
		case h == 1 && by > 0:
			c.held[at] = h
			c.shares += int64(n)
		default:
			c.held[at] = h
		}
	}
}

// bytes is the memory the list holds.
func (c *checkpoints) bytes() int64 { return c.copied + c.shares }

// budget is the bytes the checkpoints may hold: smallCheckpointBytes, or
// room for minKept of the largest kept, up to maxCheckpointBytes.
func (c *checkpoints) budget() int64 {
	var largest int64
	for _, cp := range c.list {
		largest = max(largest, cp.bytes)
	}
	return min(maxCheckpointBytes, max(smallCheckpointBytes, minKept*largest))
}

// thin drops every other checkpoint and doubles the interval.
func (c *checkpoints) thin() {
	keep := c.list[:0]
	for i, cp := range c.list {
		if i%2 == 1 {
			keep = append(keep, cp)
		} else {
			c.count(cp, -1)
		}
	}
	clear(c.list[len(keep):])
	c.list = keep
	c.interval *= 2
	if n := len(keep); n > 0 {
		c.next = keep[n-1].at + c.interval
	}
}

// dropAfter forgets the checkpoints past event n (history after it is
// being replaced).
func (c *checkpoints) dropAfter(n int64) {
	i := len(c.list)
	for i > 0 && c.list[i-1].at > n {
		i--
		c.count(c.list[i], -1)
	}
	clear(c.list[i:])
	c.list = c.list[:i]
	if c.near != nil && c.near.at > n {
		c.near = nil
	}
	keep := c.pinned[:0]
	for _, cp := range c.pinned {
		if cp.at <= n {
			keep = append(keep, cp)
		}
	}
	clear(c.pinned[len(keep):])
	c.pinned = keep
	c.next = n + c.interval
	if i > 0 {
		c.next = max(c.next, c.list[i-1].at+c.interval)
	}
}

// nearest is the latest checkpoint at or before event n, or nil.
func (c *checkpoints) nearest(n int64) *checkpoint {
	lo, hi := 0, len(c.list)
	for lo < hi {
		m := (lo + hi) / 2
		if c.list[m].at <= n {
			lo = m + 1
		} else {
			hi = m
		}
	}
	var cp *checkpoint
	if lo > 0 {
		cp = c.list[lo-1]
	}
	if c.near != nil && c.near.at <= n && (cp == nil || c.near.at > cp.at) {
		cp = c.near
	}
	for _, p := range c.pinned {
		if p.at <= n && (cp == nil || p.at > cp.at) {
			cp = p
		}
	}
	return cp
}

// takeNear keeps the state a seek replays through, partial events into
// the operation it is replaying, as the seek's own copy (when it can be
// copied: else the seek goes on without one).
func (s *Sim) takeNear(partial int64) {
	st, size, err := s.copySized(maxStateBytes)
	if err != nil {
		return
	}
	s.cps.near = &checkpoint{at: s.rt.Events(), applied: s.applied, partial: partial, state: st, bytes: size.Copied + size.Shared}
}

// copyState copies the simulation's state, giving up past limit bytes
// (0: no limit).
func (s *Sim) copyState(limit int64) (*state, int64, error) { return clone.CopyUpTo(&s.state, limit) }

// copySized is copyState that says what the copy shares with the state
// as well (file chunks, embedded bodies: clone.Shared).
func (s *Sim) copySized(limit int64) (*state, clone.Size, error) {
	return clone.CopySized(&s.state, limit)
}

// restore makes the simulation's state a copy of checkpoint cp.
func (s *Sim) restore(cp *checkpoint) error {
	st, _, err := clone.Copy(cp.state)
	if err != nil {
		return err // cannot happen: the checkpoint was copied once
	}
	s.replaceState(*st)
	s.applied, s.partial = cp.applied, cp.partial
	return nil
}

// replaceState puts st in place of the simulation's state, as a seek
// does: the history and the settings stay, and what was running stops (a
// replay runs under no budget).
func (s *Sim) replaceState(st state) {
	s.furthest = s.Furthest()
	s.state = st
	s.running = running{}
	s.cps.recording = false
	s.link()
}
