package engine

// Markers: the moments of a recorded run a learner should notice, found
// while the run is recorded by watching the state each event leaves:
// credit running out and granted back (credit_flow), a reader that stops
// and starts reading its socket, an alarm raised or cleared
// (rabbit_alarm), the message store moving to a new file and its GC jobs
// starting and ending (rabbit_msg_store, rabbit_msg_store_gc), a queue
// crashing and its supervisor restarting it or giving up
// (rabbit_amqqueue_sup), a channel confirming publishes.
//
// Each marker names itself in words; the widget puts them on the timeline
// and jumps between them.

import (
	"fmt"
	"slices"
	"strconv"

	"warren/engine/beam"
	"warren/engine/internal/order"
	"warren/engine/node"
	"warren/engine/say"
)

// Marker is one moment of the timeline worth a learner's notice.
type Marker struct {
	// Event is the event after which it holds (0: before any).
	Event int64 `json:"event"`
	// Time is the virtual time of that moment, µs.
	Time int64 `json:"time"`
	// Kind is what happened: credit-out, credit-back, blocked, unblocked,
	// alarm-raised, alarm-cleared, file-rolled, gc-start, gc-end,
	// queue-crashed, queue-restarted, queue-gave-up, confirm.
	Kind string `json:"kind"`
	// Say says it in words (say.Text; its English is Text).
	Say say.Text `json:"-"`
}

// Text is the marker in English.
func (m Marker) Text() string { return m.Say.String() }

// MarkerKinds are the kinds a Marker has.
var MarkerKinds = []string{"credit-out", "credit-back", "blocked", "unblocked", "alarm-raised", "alarm-cleared",
	"file-rolled", "gc-start", "gc-end", "queue-crashed", "queue-restarted", "queue-gave-up", "confirm"}

// episodeQuiet is how long a credit link or a reader must stay able to
// send before running out again is a new episode with markers of its own:
// under load, credit runs out and is granted back every few hundred
// messages, and only the first of each spell is worth a marker.
const episodeQuiet = 50_000 // µs

// episode is a spell of running out and being granted back, again and
// again, of one credit link or reader.
type episode struct {
	on       bool  // a spell is going on
	marked   bool  // its first grant back has a marker
	lastBack int64 // when it was last granted back, µs
}

// start says whether running out now starts a new spell.
func (ep *episode) start(now int64) bool {
	if ep.on && now-ep.lastBack < episodeQuiet {
		return false
	}
	*ep = episode{on: true}
	return true
}

// back says whether this grant back is the spell's first.
func (ep *episode) back(now int64) bool {
	ep.lastBack = now
	if !ep.on || ep.marked {
		return false
	}
	ep.marked = true
	return true
}

// confirmQuiet is how long a channel must have confirmed nothing before a
// confirm is a marker again: one marker for a burst of confirms.
const confirmQuiet = 1000 // µs

// markerLog is what the recording found, and the state it compares the
// next event with.
type markerLog struct {
	list   []Marker
	out    map[[2]beam.PID]bool     // credit links at or below zero
	spells map[[2]beam.PID]*episode // credit links' and readers' (to 0) spells
	// procs is what markEvent keeps of each process, by PID: the same as
	// the maps hold, where every event would look it up
	procs  []procMarks
	alarms int
	gc     map[beam.PID]string // GC processes with a job running: the job
	files  map[beam.PID]uint64 // message stores: the current file
	lives  map[string]node.QueueLife
	seen   map[string]node.QueueLife // scratch for QueueLives
	// livesOf is the cluster lives was read from, livesAt its place in
	// the cluster's log of changed lives; while it is the same cluster,
	// only the queues the log names are read again
	livesOf *node.Cluster
	livesAt int
	links   []node.CreditLink // scratch for CreditOf
	// the last confirm of each channel, µs
	confirmed map[beam.PID]int64
	ready     bool
}

// procMarks is what the markers keep of one process.
type procMarks struct {
	what markWhat // what markEvent looks at after its events (0: not known yet)
	shut bool     // a reader not reading its socket
	out  int32    // its credit links in out (at or below zero)
}

// markWhat is the part of markEvent a process's events need, from its
// kind.
type markWhat uint8

const (
	markUnknown markWhat = iota
	markNothing
	markReader
	markChannel
	markQueue
	markStore
	markStoreGC
)

func markWhatOf(kind string) markWhat {
	switch kind {
	case "reader":
		return markReader
	case "channel":
		return markChannel
	case "queue":
		return markQueue
	case "msg_store":
		return markStore
	case "msg_store_gc":
		return markStoreGC
	}
	return markNothing
}

// proc is the marks of process pid (grown as processes are spawned).
func (m *markerLog) proc(pid beam.PID) *procMarks {
	if int(pid) >= len(m.procs) {
		m.procs = append(m.procs, make([]procMarks, int(pid)+1-len(m.procs))...)
	}
	return &m.procs[pid]
}

func (m *markerLog) init() {
	if m.ready {
		return
	}
	m.out, m.gc = map[[2]beam.PID]bool{}, map[beam.PID]string{}
	m.files, m.lives, m.seen = map[beam.PID]uint64{}, map[string]node.QueueLife{}, map[string]node.QueueLife{}
	m.confirmed = map[beam.PID]int64{}
	m.spells = map[[2]beam.PID]*episode{}
	m.ready = true
}

// Markers lists the markers of the whole recorded timeline, in order.
func (s *Sim) Markers() []Marker { return slices.Clone(s.marks.list) }

// addMarker records a marker at the current event. It is not inlined:
// it is called at a dozen places, and inlined each would carry the
// append.
//
//go:noinline
func (s *Sim) addMarker(kind string, text say.Text) {
	s.marks.list = append(s.marks.list, Marker{Event: s.rt.Events(), Time: s.rt.Now(), Kind: kind, Say: text})
}

func (s *Sim) procName(pid beam.PID) string {
	if p := s.rt.Process(pid); p != nil {
		return p.Name
	}
	return fmt.Sprintf("process %d", pid)
}

// markEvent looks at what event e (just recorded) changed: only the
// process that ran it can have changed what it holds.
func (s *Sim) markEvent(e *beam.Event) {
	m := &s.marks
	m.init()
	c := s.cluster
	pid := e.PID
	p := s.rt.Process(pid)
	if p == nil {
		s.markAlarms()
		return
	}
	pm := m.proc(pid)
	if pm.what == markUnknown {
		pm.what = markWhatOf(p.Kind)
	}
	switch pm.what {
	case markReader, markChannel, markQueue, markStore:
		s.markCredit(p, pm)
	}
	switch pm.what {
	case markReader:
		if shut := !p.InputOpen; shut != pm.shut {
			pm.shut = shut
			ep := m.spell([2]beam.PID{pid, 0})
			if shut && ep.start(e.End) {
				s.addMarker("blocked", say.S("engine.m.blocked", p.Name))
			} else if !shut && ep.back(e.End) {
				s.addMarker("unblocked", say.S("engine.m.unblocked", p.Name))
			}
		}
	case markChannel:
		if e.Kind == kindConfirm {
			if last, ok := m.confirmed[pid]; !ok || e.Start-last > confirmQuiet {
				s.addMarker("confirm", say.S("engine.m.confirm", p.Name))
			}
			m.confirmed[pid] = e.End
		}
	case markStore:
		if file, _, ok := c.StoreFile(pid); ok {
			if was, had := m.files[pid]; !had {
				m.files[pid] = file
			} else if file != was {
				m.files[pid] = file
				s.addMarker("file-rolled", say.S("engine.m.fileRolled", p.Name, strconv.FormatUint(was, 10), strconv.FormatUint(file, 10)))
			}
		}
	case markStoreGC:
		if running, job, ok := c.GCState(pid); ok {
			was, had := m.gc[pid]
			switch {
			case running && (!had || was != job):
				if had {
					s.addMarker("gc-end", say.S("engine.m.gcEnd", p.Name, was))
				}
				m.gc[pid] = job
				s.addMarker("gc-start", say.S("engine.m.gcStart", p.Name, job))
			case !running && had:
				delete(m.gc, pid)
				s.addMarker("gc-end", say.S("engine.m.gcEnd", p.Name, was))
			}
		}
	}
	s.markAlarms()
}

// markCredit looks for credit of process p running out or granted back.
func (s *Sim) markCredit(p *beam.Process, pm *procMarks) {
	if pm.out == 0 && !s.cluster.CreditShort(p.PID) {
		return // none was out and none is: nothing is news
	}
	m := &s.marks
	m.links = s.cluster.CreditOf(p.PID, m.links)
	for _, l := range m.links {
		key := [2]beam.PID{p.PID, l.To}
		switch was := m.out[key]; {
		case l.Credit <= 0 && !was:
			m.out[key] = true
			pm.out++
			if !m.spell(key).start(s.rt.Now()) {
				continue
			}
			to := s.procName(l.To)
			if p.Kind == "reader" {
				s.addMarker("credit-out", say.S("engine.m.creditOut", p.Name, to, strconv.Itoa(l.Credit), strconv.Itoa(l.Initial), to))
				continue
			}
			// credit_flow: a sender out of credit is blocked, yet
			// nothing stops it sending; it holds back the credit it
			// owes its own senders, so the reader is what stops.
			s.addMarker("credit-out", say.S("engine.m.creditOutHolds", p.Name, to, strconv.Itoa(l.Credit), strconv.Itoa(l.Initial), to))
		case l.Credit > 0 && was:
			delete(m.out, key)
			pm.out--
			if !m.spell(key).back(s.rt.Now()) {
				continue
			}
			s.addMarker("credit-back", say.S("engine.m.creditBack", s.procName(l.To), p.Name, strconv.Itoa(l.Credit), strconv.Itoa(l.Initial)))
		}
	}
}

// spell is the episode of a credit link, or of a reader (key {pid, 0}).
func (m *markerLog) spell(key [2]beam.PID) *episode {
	ep := m.spells[key]
	if ep == nil {
		ep = &episode{}
		m.spells[key] = ep
	}
	return ep
}

// markAlarms looks for an alarm raised or cleared.
func (s *Sim) markAlarms() {
	m, c := &s.marks, s.cluster
	if a := c.AlarmBits(); a != m.alarms {
		for bit, res := range []string{"engine.res.memory", "engine.res.disk"} {
			on, was := a&(1<<bit) != 0, m.alarms&(1<<bit) != 0
			switch {
			case on && !was:
				s.addMarker("alarm-raised", say.T("engine.m.alarmRaised", say.T(res)))
			case !on && was:
				s.addMarker("alarm-cleared", say.T("engine.m.alarmCleared", say.T(res)))
			}
		}
		m.alarms = a
	}
}

// markNode looks at what a command changed on the whole node: the alarms
// and the queues' lives (a queue crashes by command only).
func (s *Sim) markNode() {
	m := &s.marks
	m.init()
	c := s.cluster
	s.markAlarms()
	if m.livesOf == c {
		s.markChangedLives()
		return
	}
	m.livesOf, m.livesAt = c, c.LivesLogged()
	c.QueueLives(m.seen)
	if len(m.seen) == 0 && len(m.lives) == 0 {
		return
	}
	names := make([]string, 0, len(m.seen))
	for name := range m.seen {
		names = append(names, name)
	}
	order.Strings(names)
	for _, name := range names {
		if was, had := m.lives[name]; had {
			s.markLife(name, was, m.seen[name])
		}
	}
	m.lives, m.seen = m.seen, m.lives
}

// markChangedLives is markNode's look at the queues for a command after
// the last one: only the queues the cluster's log names can have changed.
func (s *Sim) markChangedLives() {
	m := &s.marks
	var names []string
	names, m.livesAt = s.cluster.ChangedLives(m.livesAt)
	for _, name := range names {
		now, ok := s.cluster.QueueLife(name)
		was, had := m.lives[name]
		if ok && had {
			s.markLife(name, was, now)
		}
		if ok {
			m.lives[name] = now
		} else {
			delete(m.lives, name)
		}
	}
}

// markLife marks what happened to a queue between two looks.
func (s *Sim) markLife(name string, was, now node.QueueLife) {
	switch {
	case now.Dead && !was.Dead:
		s.addMarker("queue-gave-up", say.S("engine.m.gaveUp", name))
	case now.PID != was.PID && now.PID != 0 && was.PID != 0:
		if now.Restarts > was.Restarts {
			s.addMarker("queue-crashed", say.S("engine.m.crashed", name))
			s.addMarker("queue-restarted", say.S("engine.m.restarted", name, strconv.Itoa(now.Restarts)))
		} else {
			s.addMarker("queue-restarted", say.S("engine.m.runsAgain", name))
		}
	}
}

// resetMarkers makes the current state the one the next event is compared
// with, after history past it was dropped.
func (s *Sim) resetMarkers() {
	m := &s.marks
	if !m.ready {
		return
	}
	n := s.rt.Events()
	i := len(m.list)
	for i > 0 && m.list[i-1].Event > n {
		i--
	}
	m.list = m.list[:i]
	clear(m.out)
	clear(m.procs)
	clear(m.gc)
	clear(m.files)
	clear(m.confirmed)
	clear(m.spells)
	c := s.cluster
	for _, p := range s.rt.Processes() {
		pm := m.proc(p.PID)
		for _, l := range c.CreditOf(p.PID, m.links) {
			if k := [2]beam.PID{p.PID, l.To}; l.Credit <= 0 && !m.out[k] {
				m.out[k] = true
				pm.out++
			}
		}
		if p.Kind == "reader" && !p.InputOpen {
			pm.shut = true
		}
		if running, job, ok := c.GCState(p.PID); ok && running {
			m.gc[p.PID] = job
		}
		if file, _, ok := c.StoreFile(p.PID); ok {
			m.files[p.PID] = file
		}
	}
	m.alarms = c.AlarmBits()
	c.QueueLives(m.lives)
	m.livesOf, m.livesAt = c, c.LivesLogged()
}

// kindConfirm is the kind of a queue's confirm to a channel.
var kindConfirm = func() uint16 {
	for k := uint16(0); k < 256; k++ {
		if node.KindName(k) == "confirm" {
			return k
		}
	}
	panic("no confirm message kind")
}()
