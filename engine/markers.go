package engine

// Markers: the moments of a recorded run a learner should notice, read
// while the run is recorded from the notices the node tells as they
// happen (node.Notice), taken after each event and each command:
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

// markerLog is what the recording found, and what it keeps between two
// events to find more: the spells, the channels' last confirms and the
// queue notices of the command running now.
type markerLog struct {
	list   []Marker
	spells map[[2]beam.PID]*episode // credit links' and readers' (to 0) spells
	// the last confirm of each channel, µs
	confirmed map[beam.PID]int64
	// lives are the queue notices of the command running now: a queue's
	// markers say what its life became by the command's end
	lives []node.Notice
	taken []node.Notice // scratch: the notices of one event
	ready bool
}

func (m *markerLog) init() {
	if m.ready {
		return
	}
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

// markLast marks what the node told during the event just recorded.
// Most events tell nothing: then it reads no event back.
func (s *Sim) markLast() {
	m := &s.marks
	if m.taken = s.cluster.TakeNotices(m.taken[:0]); len(m.taken) == 0 {
		return
	}
	e := s.log.Last() // not decoded again from the log
	if e.N != s.rt.Events() {
		at := s.log.At(s.rt.Events())
		e = &at
	}
	s.markTaken(e.Start, e.End)
}

// dropNotices empties the node's outbox unread: what a replay tells, the
// markers already hold.
func (s *Sim) dropNotices() { s.marks.taken = s.cluster.TakeNotices(s.marks.taken[:0]) }

// markTaken marks what the node told during one event (which ran from
// start to end, µs) or one command: credit first, in the order of the
// sender's links, then readers, confirms, files, GC jobs and alarms, as a
// look at the state after the event would have found them. A thing told
// twice within the event counts as the change from before the first to
// after the last (a credit that ran out and came back is no news); the
// queues wait for the command's end (markNode).
func (s *Sim) markTaken(start, end int64) {
	m := &s.marks
	m.init()
	ns := m.taken
	sortNotices(ns, func(a, b *node.Notice) bool { return noticeOrder(a) < noticeOrder(b) })
	for i := range ns {
		n := ns[i]
		switch n.Kind {
		case 0: // taken with an earlier one
		case node.CreditOut, node.CreditBack, node.ReaderBlocked, node.ReaderUnblocked, node.AlarmSet, node.AlarmCleared:
			// the last of the same link, reader or resource says where
			// it ended: the same change as the first, or back where it
			// started
			last := n
			for k := i + 1; k < len(ns); k++ {
				if pairOf(ns[k].Kind) == pairOf(n.Kind) && ns[k].PID == n.PID && ns[k].Peer == n.Peer && ns[k].Word == n.Word {
					last, ns[k].Kind = ns[k], 0
				}
			}
			if last.Kind == n.Kind {
				s.markNotice(last, start, end)
			}
		case node.Confirmed:
			for k := i + 1; k < len(ns); k++ {
				if ns[k].Kind == node.Confirmed && ns[k].PID == n.PID {
					ns[k].Kind = 0
				}
			}
			s.markNotice(n, start, end)
		case node.FileRolled:
			for k := i + 1; k < len(ns); k++ {
				if ns[k].Kind == node.FileRolled && ns[k].PID == n.PID {
					n.To, ns[k].Kind = ns[k].To, 0
				}
			}
			if n.To != n.From {
				s.markNotice(n, start, end)
			}
		case node.QueueStarted, node.QueueCrashed, node.QueueGaveUp, node.QueueGone:
			m.lives = append(m.lives, n)
		default:
			s.markNotice(n, start, end)
		}
	}
}

// sortNotices sorts a few notices, keeping the order of equal ones
// (insertion: there are few, and sort's generic code would weigh on the
// browser's build).
func sortNotices(ns []node.Notice, less func(a, b *node.Notice) bool) {
	for i := 1; i < len(ns); i++ {
		for j := i; j > 0 && less(&ns[j], &ns[j-1]); j-- {
			ns[j], ns[j-1] = ns[j-1], ns[j]
		}
	}
}

// noticeOrder is the place of a notice among an event's markers.
func noticeOrder(n *node.Notice) int {
	switch n.Kind {
	case node.CreditOut, node.CreditBack:
		return n.Place
	case node.ReaderBlocked, node.ReaderUnblocked:
		return 1 << 20
	case node.Confirmed:
		return 2 << 20
	case node.FileRolled:
		return 3 << 20
	case node.GCStarted, node.GCEnded:
		return 4 << 20
	case node.AlarmSet, node.AlarmCleared:
		if n.Word == "memory" {
			return 5 << 20
		}
		return 6 << 20
	}
	return 7 << 20
}

// pairOf is the first kind of a pair of kinds that undo each other (a
// credit link's, a reader's, an alarm's).
func pairOf(k node.NoticeKind) node.NoticeKind {
	switch k {
	case node.CreditBack:
		return node.CreditOut
	case node.ReaderUnblocked:
		return node.ReaderBlocked
	case node.AlarmCleared:
		return node.AlarmSet
	}
	return k
}

// markNotice marks one thing the node told, in the event that ran from
// start to end.
func (s *Sim) markNotice(n node.Notice, start, end int64) {
	m := &s.marks
	switch n.Kind {
	case node.CreditOut:
		if !m.spell([2]beam.PID{n.PID, n.Peer}).start(s.rt.Now()) {
			return
		}
		from, to := s.procName(n.PID), s.procName(n.Peer)
		credit, initial := strconv.Itoa(n.Credit), strconv.Itoa(n.Initial)
		if p := s.rt.Process(n.PID); p != nil && p.Kind == "reader" {
			s.addMarker("credit-out", say.S("engine.m.creditOut", from, to, credit, initial, to))
			return
		}
		// credit_flow: a sender out of credit is blocked, yet nothing
		// stops it sending; it holds back the credit it owes its own
		// senders, so the reader is what stops.
		s.addMarker("credit-out", say.S("engine.m.creditOutHolds", from, to, credit, initial, to))
	case node.CreditBack:
		if m.spell([2]beam.PID{n.PID, n.Peer}).back(s.rt.Now()) {
			s.addMarker("credit-back", say.S("engine.m.creditBack", s.procName(n.Peer), s.procName(n.PID), strconv.Itoa(n.Credit), strconv.Itoa(n.Initial)))
		}
	case node.ReaderBlocked:
		if m.spell([2]beam.PID{n.PID, 0}).start(end) {
			s.addMarker("blocked", say.S("engine.m.blocked", s.procName(n.PID)))
		}
	case node.ReaderUnblocked:
		if m.spell([2]beam.PID{n.PID, 0}).back(end) {
			s.addMarker("unblocked", say.S("engine.m.unblocked", s.procName(n.PID)))
		}
	case node.Confirmed:
		if last, ok := m.confirmed[n.PID]; !ok || start-last > confirmQuiet {
			s.addMarker("confirm", say.S("engine.m.confirm", s.procName(n.PID)))
		}
		m.confirmed[n.PID] = end
	case node.FileRolled:
		s.addMarker("file-rolled", say.S("engine.m.fileRolled", s.procName(n.PID), strconv.FormatUint(n.From, 10), strconv.FormatUint(n.To, 10)))
	case node.GCStarted:
		s.addMarker("gc-start", say.S("engine.m.gcStart", s.procName(n.PID), n.Word))
	case node.GCEnded:
		s.addMarker("gc-end", say.S("engine.m.gcEnd", s.procName(n.PID), n.Word))
	case node.AlarmSet:
		s.addMarker("alarm-raised", say.T("engine.m.alarmRaised", say.T(resourceKey(n.Word))))
	case node.AlarmCleared:
		s.addMarker("alarm-cleared", say.T("engine.m.alarmCleared", say.T(resourceKey(n.Word))))
	}
}

// resourceKey is the catalog key of an alarm's resource.
func resourceKey(resource string) string {
	if resource == "disk" {
		return "engine.res.disk"
	}
	return "engine.res.memory"
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

// markNode marks, when a command ends, what the node told since its last
// event (alarms a command set, queues it crashed) and what became of the
// queues whose life changed during the command: each queue's life at the
// command's end against its life before.
func (s *Sim) markNode() {
	m := &s.marks
	now := s.rt.Now()
	m.taken = s.cluster.TakeNotices(m.taken[:0])
	s.markTaken(now, now)
	if len(m.lives) == 0 {
		return
	}
	// by name, each queue's notices in the order told
	sortNotices(m.lives, func(a, b *node.Notice) bool { return a.Word < b.Word })
	for i := 0; i < len(m.lives); {
		j := i + 1
		for j < len(m.lives) && m.lives[j].Word == m.lives[i].Word {
			j++
		}
		was, now := m.lives[i].Was, m.lives[j-1].Now
		if was.Exists && now.Exists {
			s.markLife(m.lives[i].Word, was, now)
		}
		i = j
	}
	m.lives = m.lives[:0]
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

// resetMarkers drops the markers past the current event, after history
// past it was dropped, and what the node told that no marker holds yet.
func (s *Sim) resetMarkers() {
	m := &s.marks
	n := s.rt.Events()
	i := len(m.list)
	for i > 0 && m.list[i-1].Event > n {
		i--
	}
	m.list = m.list[:i]
	clear(m.confirmed)
	clear(m.spells)
	m.lives = m.lives[:0]
	s.dropNotices()
}
