package engine

// Narration: an event in plain words (a say.Text: its English is
// String), for a reader who listens (the
// widget's live region) rather than reads the event line. The words say
// what the process did and what it holds now, as the state right after the
// event shows it; the event line (Describe) stays for the events list.
//
// The message kinds are those of the node's processes: rabbit_reader,
// rabbit_channel, rabbit_amqqueue_process, rabbit_msg_store and
// credit_flow.

import (
	"strconv"

	"warren/engine/beam"
	"warren/engine/node"
	"warren/engine/say"
)

// narration is how Narrate says a message kind: its catalog key, whether
// the process it came from is named, and what follows (the mailbox, or
// the queue's counts).
type narration struct {
	key  string
	from bool
	tail tail
}

type tail uint8

const (
	tailNone    tail = iota
	tailMailbox      // how many messages wait in the mailbox
	tailQueue        // a queue's ready and unacked counts (else the mailbox)
)

// narrationOf says how the message kinds said one way each are said
// (ok false for the others, which Narrate says itself).
func narrationOf(kind string) (n narration, ok bool) {
	switch kind {
	case "method":
		return narration{"engine.method", true, tailMailbox}, true
	case "send_command":
		return narration{"engine.sendCommand", false, tailNone}, true
	case "confirm":
		return narration{"engine.confirm", true, tailNone}, true
	case "reject_publish":
		return narration{"engine.rejectPublish", true, tailNone}, true
	case "ack":
		return narration{"engine.ack", true, tailQueue}, true
	case "requeue":
		return narration{"engine.requeue", true, tailQueue}, true
	case "reject":
		return narration{"engine.reject", true, tailQueue}, true
	case "notify_sent":
		return narration{"engine.notifySent", false, tailQueue}, true
	case "resume":
		return narration{"engine.resume", false, tailNone}, true
	case "$gen_call":
		return narration{"engine.call", true, tailQueue}, true
	case "reply":
		return narration{"engine.reply", true, tailNone}, true
	case "DOWN":
		return narration{"engine.down", false, tailMailbox}, true
	case "drop_expired":
		return narration{"engine.dropExpired", false, tailQueue}, true
	case "set_ram_duration_target":
		return narration{"engine.pageOut", false, tailQueue}, true
	case "msg_store_call":
		return narration{"engine.msgStore", true, tailMailbox}, true
	case "run_backing_queue":
		return narration{"engine.onDisk", true, tailQueue}, true
	case "maybe_gc":
		return narration{"engine.maybeGC", false, tailNone}, true
	}
	return narration{}, false
}

// Narrate says event e in words. It reads the simulation as it is now, so
// it speaks of e when the simulation is right after it (as the widget is
// when it shows e).
func (s *Sim) Narrate(e *beam.Event) say.Text {
	kind := node.KindName(e.Kind)
	p := s.rt.Process(e.PID)
	if p == nil {
		return say.S("engine.processHandles", strconv.Itoa(int(e.PID)), kind)
	}
	var from any = say.T("engine.itself")
	if f := s.rt.Process(e.From); f != nil && e.From != e.PID {
		from = f.Name
	}
	n := narration{key: "engine.handles", from: true, tail: tailMailbox}
	switch {
	case e.Input:
		if k := p.InputLen(); k > 0 {
			return say.S("engine.readFrame", p.Name, strconv.Itoa(k))
		}
		n = narration{key: "engine.readFrameLast"}
	case kind == "bump_credit":
		n = narration{key: "engine.bumpCreditBare", from: true}
		if credit, ok := s.cluster.CreditToward(e.PID, e.From); ok {
			return say.T("engine.bumpCredit", p.Name, from, strconv.Itoa(max(credit, 0)))
		}
	case kind == "deliver" && p.Kind == "queue":
		n = narration{key: "engine.deliverQueue", tail: tailQueue}
	case kind == "deliver":
		n = narration{key: "engine.deliver", from: true}
	case kind == "conserve_resources" && p.InputOpen:
		n = narration{key: "engine.alarmCleared"}
	case kind == "conserve_resources":
		n = narration{key: "engine.alarmHeard"}
	case kind == "gc_step":
		if job := s.cluster.GCJob(e.PID); job != "" {
			return say.S("engine.gcStepJob", p.Name, job)
		}
		n = narration{key: "engine.gcStep"}
	default:
		if k, ok := narrationOf(kind); ok {
			n = k
		}
	}
	args := []any{p.Name}
	if n.key == "engine.handles" {
		args = append(args, kind)
	}
	if n.from {
		args = append(args, from)
	}
	if n.tail != tailNone {
		args = append(args, s.narrateTail(p, e.PID, n.tail))
	}
	return say.T(n.key, args...)
}

// narrateTail says what a process holds after an event: a queue's counts
// (tailQueue), or how many messages wait in its mailbox.
func (s *Sim) narrateTail(p *beam.Process, pid beam.PID, t tail) say.Text {
	if t == tailQueue {
		if _, ready, unacked, ok := s.cluster.QueueCounts(pid); ok {
			if unacked > 0 {
				return say.S("engine.readyUnacked", strconv.Itoa(ready), strconv.Itoa(unacked))
			}
			return say.S("engine.ready", strconv.Itoa(ready))
		}
	}
	switch k := p.MailboxLen(); k {
	case 0:
		return say.T("engine.mailboxEmpty")
	case 1:
		return say.T("engine.mailboxOne")
	default:
		return say.S("engine.mailboxMany", strconv.Itoa(k))
	}
}

// NarrateNow says the latest event of the current state in words, or that
// nothing has run yet.
func (s *Sim) NarrateNow() say.Text {
	n := s.rt.Events()
	if n == 0 || n > s.log.Len() {
		return say.T("engine.nothingYet")
	}
	e := s.log.At(n)
	return s.Narrate(&e)
}
