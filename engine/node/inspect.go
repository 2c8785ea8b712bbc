package node

import (
	"fmt"
	"sort"
	"strconv"

	"warren/engine/amqp"
	"warren/engine/beam"
	"warren/engine/trace"
)

// CreditLinks lists the credit every process holds toward its peers.
func (c *Cluster) CreditLinks() []CreditLink {
	var out []CreditLink
	for _, r := range c.readers() {
		out = append(out, r.credit.links(r.proc.PID)...)
	}
	for _, p := range c.RT.Processes() {
		switch h := p.Handler.(type) {
		case *channel:
			if !h.closed {
				out = append(out, h.credit.links(h.pid)...)
			}
		case *queue:
			if !h.deleted {
				out = append(out, h.credit.links(h.pid)...)
			}
		}
	}
	return out
}

// ConsumerLines describes every queue's consumers.
func (c *Cluster) ConsumerLines() []string {
	var out []string
	for _, q := range c.QueueDetails(0) {
		for _, k := range q.Consumers {
			out = append(out, fmt.Sprintf("consumer %s queue=%s %s priority=%d prefetch=%d unacked=%d state=%s",
				k.Tag, q.Name, k.Channel, k.Priority, k.Prefetch, k.Unacked, k.State))
		}
	}
	return out
}

// ConsumerInfo is one consumer as inspection shows it.
type ConsumerInfo struct {
	Tag      string `json:"tag"`
	Channel  string `json:"channel"`
	Priority int64  `json:"priority"`
	Prefetch int    `json:"prefetch"`
	Unacked  int    `json:"unacked"`
	State    string `json:"state"` // active, blocked, waiting (single active consumer)
	NoAck    bool   `json:"noAck"`
}

// QueueDetail is a queue with its levels, head and consumers.
type QueueDetail struct {
	QueueInfo
	PID       beam.PID
	Levels    []int
	Heads     []string
	HeadProps []string // for each of Heads, what it was published with (HeadProps)
	Consumers []ConsumerInfo
}

// HeadProps says what a message was published with, as tab-separated
// words: priority=N when it has one, persistent or transient, then each
// other property set (expiration=, headers=N, content_type=, ...).
func HeadProps(p *amqp.Properties) string {
	out := make([]byte, 0, 32)
	word := func(w string) {
		if len(out) > 0 {
			out = append(out, '\t')
		}
		out = append(out, w...)
	}
	if p.HasPriority {
		word("priority=" + strconv.Itoa(int(p.Priority)))
	}
	if p.Persistent() {
		word("persistent")
	} else {
		word("transient")
	}
	if p.HasExpiration {
		word("expiration=" + p.Expiration)
	}
	if len(p.Headers) > 0 {
		word("headers=" + strconv.Itoa(len(p.Headers)))
	}
	for _, kv := range [...][2]string{{"content_type", p.ContentType}, {"content_encoding", p.ContentEncoding}, {"correlation_id", p.CorrelationID},
		{"reply_to", p.ReplyTo}, {"message_id", p.MessageID}, {"type", p.Type}, {"user_id", p.UserID}, {"app_id", p.AppID}} {
		if kv[1] != "" {
			word(kv[0] + "=" + kv[1])
		}
	}
	if p.HasTimestamp {
		word("timestamp=" + strconv.FormatUint(p.Timestamp, 10))
	}
	return string(out)
}

// QueueDetails inspects every queue, sorted by name; heads lists up to
// n bodies from the head.
func (c *Cluster) QueueDetails(heads int) []QueueDetail {
	infos := c.ListQueues()
	out := make([]QueueDetail, 0, len(infos))
	for _, info := range infos {
		rec := c.queues[info.Name]
		q := rec.proc
		d := QueueDetail{QueueInfo: info, PID: rec.PID}
		if q == nil {
			// its node is down: the record is all there is to show
			out = append(out, d)
			continue
		}
		for i := range q.ready.levels {
			d.Levels = append(d.Levels, q.ready.levels[i].len())
		}
		for i := len(q.ready.levels) - 1; i >= 0 && len(d.Heads) < heads; i-- {
			q.ready.levels[i].each(func(e *entry) {
				if len(d.Heads) < heads {
					d.Heads = append(d.Heads, trace.FormatBody(e.msg.Body))
					d.HeadProps = append(d.HeadProps, HeadProps(e.msg.Props))
				}
			})
		}
		cons := q.allConsumers()
		sort.SliceStable(cons, func(i, j int) bool { return cons[i].order < cons[j].order })
		for _, k := range cons {
			state := "active"
			if q.isConsumerBlocked(k) {
				state = "blocked"
			}
			if q.sac && q.holder != k {
				state = "waiting"
			}
			d.Consumers = append(d.Consumers, ConsumerInfo{Tag: k.tag, Channel: c.RT.Process(k.ch.pid).Name, Priority: k.priority,
				Prefetch: k.prefetch, Unacked: k.unacked(), State: state, NoAck: !k.ackRequired})
		}
		out = append(out, d)
	}
	return out
}

// Depth is the number of messages, ready and unacknowledged, in every
// queue that answers (the sum of list_queues messages), counted without
// sorting or copying the queues: the metrics take it every 100 ms.
func (c *Cluster) Depth() int {
	total := int64(0)
	for _, n := range c.members {
		if t := n.held; t != nil {
			total += t.ready + t.unacked
		}
	}
	return int(total)
}

// CountDepth is Depth found the long way, by visiting every queue: the
// reference Depth's totals are tested against.
func (c *Cluster) CountDepth() int {
	total := 0
	for _, rec := range c.queues {
		if q := rec.proc; q != nil && !rec.dead {
			total += q.ready.count + q.pending.len()
		}
	}
	return total
}
