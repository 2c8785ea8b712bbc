package engine

// Narration: an event in plain words, for a reader who listens (the
// widget's live region) rather than reads the event line. The words say
// what the process did and what it holds now, as the state right after the
// event shows it; the event line (Describe) stays for the events list.
//
// The message kinds are those of the node's processes: rabbit_reader,
// rabbit_channel, rabbit_amqqueue_process, rabbit_msg_store and
// credit_flow.

import (
	"fmt"

	"warren/engine/node"
	"warren/engine/sim"
)

// Narrate says event e in words. It reads the simulation as it is now, so
// it speaks of e when the simulation is right after it (as the widget is
// when it shows e).
func (s *Sim) Narrate(e *sim.Event) string {
	p := s.rt.Process(e.PID)
	if p == nil {
		return fmt.Sprintf("process %d handles %s", e.PID, node.KindName(e.Kind))
	}
	name := p.Name
	from := "itself"
	if f := s.rt.Process(e.From); f != nil && e.From != e.PID {
		from = f.Name
	}
	waiting := func() string {
		switch n := p.MailboxLen(); n {
		case 0:
			return "its mailbox is empty"
		case 1:
			return "1 more message waits in its mailbox"
		default:
			return fmt.Sprintf("%d more messages wait in its mailbox", n)
		}
	}
	queue := func() string {
		if _, ready, unacked, ok := s.cluster.QueueCounts(e.PID); ok {
			if unacked > 0 {
				return fmt.Sprintf("%d ready, %d unacked", ready, unacked)
			}
			return fmt.Sprintf("%d ready", ready)
		}
		return waiting()
	}
	if e.Input {
		switch n := p.InputLen(); n {
		case 0:
			return name + " reads a frame from the client's socket; nothing more is unread"
		default:
			return fmt.Sprintf("%s reads a frame from the client's socket; %d more publishes wait unread", name, n)
		}
	}
	switch node.KindName(e.Kind) {
	case "method":
		return fmt.Sprintf("%s takes a command from %s; %s", name, from, waiting())
	case "bump_credit":
		for _, l := range s.cluster.CreditOf(e.PID, nil) {
			if l.To == e.From {
				return fmt.Sprintf("%s gets more credit from %s; it may send %d more before it must wait", name, from, max(l.Credit, 0))
			}
		}
		return fmt.Sprintf("%s gets more credit from %s", name, from)
	case "send_command":
		return name + " sends frames to the client"
	case "deliver":
		if p.Kind == "queue" {
			return fmt.Sprintf("%s takes a publish from its mailbox; %s", name, queue())
		}
		return fmt.Sprintf("%s passes a delivery from %s on to its consumer", name, from)
	case "confirm":
		return fmt.Sprintf("%s hears from %s that publishes are safe, and confirms them to its client", name, from)
	case "reject_publish":
		return fmt.Sprintf("%s hears from %s that publishes were refused, and nacks them to its client", name, from)
	case "ack":
		return fmt.Sprintf("%s takes an ack from %s; %s", name, from, queue())
	case "requeue":
		return fmt.Sprintf("%s puts messages back from %s; %s", name, from, queue())
	case "reject":
		return fmt.Sprintf("%s drops messages %s rejected; %s", name, from, queue())
	case "notify_sent":
		return fmt.Sprintf("%s hears that its deliveries went out; %s", name, queue())
	case "resume":
		return name + " may deliver again: the channel's prefetch has room"
	case "$gen_call":
		return fmt.Sprintf("%s answers a call from %s; %s", name, from, queue())
	case "reply":
		return fmt.Sprintf("%s gets the answer from %s", name, from)
	case "DOWN":
		return fmt.Sprintf("%s hears that a process it watched has gone; %s", name, waiting())
	case "drop_expired":
		return fmt.Sprintf("%s drops the messages whose TTL ran out; %s", name, queue())
	case "conserve_resources":
		if p.InputOpen {
			return name + " hears that the alarm is cleared, and reads its socket again"
		}
		return name + " hears of a resource alarm, and stops reading publishes from its socket"
	case "set_ram_duration_target":
		return fmt.Sprintf("%s pages messages out to disk to free memory; %s", name, queue())
	case "msg_store_call":
		return fmt.Sprintf("%s writes or removes messages for %s; %s", name, from, waiting())
	case "run_backing_queue":
		return fmt.Sprintf("%s hears from %s that its messages are on disk; %s", name, from, queue())
	case "gc_step":
		if _, job, ok := s.cluster.GCState(e.PID); ok && job != "" {
			return fmt.Sprintf("%s runs a step of its job: %s", name, job)
		}
		return name + " runs a step of its job"
	case "maybe_gc":
		return name + " looks for files worth compacting"
	}
	return fmt.Sprintf("%s handles %s from %s; %s", name, node.KindName(e.Kind), from, waiting())
}

// NarrateNow says the latest event of the current state in words, or that
// nothing has run yet.
func (s *Sim) NarrateNow() string {
	n := s.rt.Events()
	if n == 0 || n > s.log.Len() {
		return "nothing has run yet"
	}
	e := s.log.At(n)
	return s.Narrate(&e)
}
