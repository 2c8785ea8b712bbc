package trace

import (
	"sort"
	"strconv"
	"strings"

	"warren/engine/amqp"
)

// Kind is what happened, from the client's side.
type Kind uint8

// Event kinds, one per output line form.
const (
	DeclareOK Kind = iota
	DeleteOK
	PurgeOK
	ConsumeOK
	Deliver
	GetOK
	GetEmpty
	ConfirmAck
	ConfirmNack
	Return
	Cancelled
	ChannelClosed
	ConnectionClosed
	Blocked
	Unblocked
	// ConnectionLost is the engine's: the broker died under the client and
	// the socket closed with no AMQP close.
	ConnectionLost
)

// Event is one thing a client saw on a connection or channel.
type Event struct {
	Conn int
	Chan int // 0 for connection-level events
	Kind Kind

	Queue       string
	Messages    int
	Consumers   int
	ConsumerTag string
	DeliveryTag uint64
	Redelivered bool
	Exchange    string
	Key         string
	Body        []byte
	Props       *amqp.Properties // nil: none; shared, never changed
	Seq         uint64
	Code        int
	Text        string
}

// Name is the connection or channel the event belongs to: c1 or c1.2.
func (e *Event) Name() string {
	if e.Chan == 0 {
		return "c" + strconv.Itoa(e.Conn)
	}
	return "c" + strconv.Itoa(e.Conn) + "." + strconv.Itoa(e.Chan)
}

// String prints the event as one trace line.
func (e *Event) String() string {
	var b strings.Builder
	if e.Kind == Deliver {
		b.Grow(64 + len(e.ConsumerTag) + len(e.Exchange) + len(e.Key) + min(len(e.Body), 40))
	}
	var num [20]byte
	b.WriteByte('c')
	b.Write(strconv.AppendInt(num[:0], int64(e.Conn), 10))
	if e.Chan != 0 {
		b.WriteByte('.')
		b.Write(strconv.AppendInt(num[:0], int64(e.Chan), 10))
	}
	b.WriteByte(' ')
	switch e.Kind {
	case DeclareOK:
		b.WriteString("declare-ok queue=" + e.Queue + " messages=" + itoa(e.Messages) + " consumers=" + itoa(e.Consumers))
	case DeleteOK:
		b.WriteString("delete-ok messages=" + itoa(e.Messages))
	case PurgeOK:
		b.WriteString("purge-ok messages=" + itoa(e.Messages))
	case ConsumeOK:
		b.WriteString("consume-ok tag=" + e.ConsumerTag)
	case Deliver:
		// the line of nearly every event of a long run: written piece by
		// piece, without building the pieces first
		b.WriteString("deliver consumer=")
		b.WriteString(e.ConsumerTag)
		b.WriteString(" tag=")
		b.Write(strconv.AppendUint(num[:0], e.DeliveryTag, 10))
		if e.Redelivered {
			b.WriteString(" redelivered")
		}
		b.WriteString(" exchange=")
		b.WriteString(e.Exchange)
		b.WriteString(" key=")
		b.WriteString(e.Key)
		b.WriteString(" body=")
		if len(e.Body) <= 40 {
			b.Write(e.Body)
		} else {
			b.WriteString(FormatBody(e.Body))
		}
		writeProps(&b, e.Props)
	case GetOK:
		b.WriteString("get-ok tag=" + utoa(e.DeliveryTag))
		if e.Redelivered {
			b.WriteString(" redelivered")
		}
		b.WriteString(" exchange=" + e.Exchange + " key=" + e.Key + " messages=" + itoa(e.Messages) + " body=" + FormatBody(e.Body))
		writeProps(&b, e.Props)
	case GetEmpty:
		b.WriteString("get-empty")
	case ConfirmAck:
		b.WriteString("confirm-ack seq=" + utoa(e.Seq))
	case ConfirmNack:
		b.WriteString("confirm-nack seq=" + utoa(e.Seq))
	case Return:
		b.WriteString("return code=" + itoa(e.Code) + " text=" + e.Text + " exchange=" + e.Exchange + " key=" + e.Key + " body=" + FormatBody(e.Body))
		writeProps(&b, e.Props)
	case Cancelled:
		b.WriteString("cancelled consumer=" + e.ConsumerTag)
	case ChannelClosed, ConnectionClosed:
		b.WriteString("closed code=" + itoa(e.Code) + " text=" + strconv.Quote(e.Text))
	case Blocked:
		b.WriteString("blocked reason=" + strconv.Quote(e.Text))
	case Unblocked:
		b.WriteString("unblocked")
	case ConnectionLost:
		b.WriteString("connection-lost")
	}
	return b.String()
}

func itoa(n int) string    { return strconv.Itoa(n) }
func utoa(n uint64) string { return strconv.FormatUint(n, 10) }

// FormatBody prints a body: as is up to 40 bytes, else its first 16 bytes
// then `...(N bytes)`.
func FormatBody(body []byte) string {
	if len(body) <= 40 {
		return string(body)
	}
	return string(body[:16]) + "...(" + strconv.Itoa(len(body)) + " bytes)"
}

func writeProps(b *strings.Builder, p *amqp.Properties) {
	if p == nil {
		return
	}
	if p.DeliveryMode == 2 {
		b.WriteString(" persistent")
	}
	if p.Priority > 0 {
		b.WriteString(" priority=" + strconv.Itoa(int(p.Priority)))
	}
	if p.HasExpiration {
		b.WriteString(" expiration=" + p.Expiration)
	}
	if len(p.Headers) > 0 {
		b.WriteString(" headers=")
		b.WriteString(FormatHeaders(p.Headers))
	}
	for _, s := range [...]struct{ name, v string }{
		{"content-type", p.ContentType}, {"content-encoding", p.ContentEncoding},
		{"correlation-id", p.CorrelationID}, {"reply-to", p.ReplyTo}, {"message-id", p.MessageID},
	} {
		if s.v != "" {
			b.WriteString(" " + s.name + "=" + s.v)
		}
	}
	if p.HasTimestamp {
		b.WriteString(" timestamp=" + utoa(p.Timestamp))
	}
	for _, s := range [...]struct{ name, v string }{{"type", p.Type}, {"user-id", p.UserID}, {"app-id", p.AppID}} {
		if s.v != "" {
			b.WriteString(" " + s.name + "=" + s.v)
		}
	}
}

// FormatHeaders prints a header table with keys sorted bytewise; an x-death
// header prints each entry as {count=N exchange=E queue=Q reason=R
// routing-keys=[k ...]}, space separated, in the order the broker keeps them.
func FormatHeaders(t amqp.Table) string {
	var b strings.Builder
	b.WriteByte('{')
	for i, f := range t.Sorted() {
		if i > 0 {
			b.WriteString(", ")
		}
		b.WriteString(f.Key)
		b.WriteByte('=')
		if f.Key == "x-death" && f.Val.Kind == amqp.Array {
			b.WriteString(formatDeaths(f.Val.Arr))
		} else {
			b.WriteString(f.Val.String())
		}
	}
	b.WriteByte('}')
	return b.String()
}

func formatDeaths(entries []amqp.Value) string {
	parts := make([]string, len(entries))
	for i, e := range entries {
		if e.Kind != amqp.Table_ {
			parts[i] = e.String()
			continue
		}
		var b strings.Builder
		b.WriteByte('{')
		for j, k := range []string{"count", "exchange", "queue", "reason", "routing-keys"} {
			if j > 0 {
				b.WriteByte(' ')
			}
			v, _ := e.Tab.Get(k)
			b.WriteString(k + "=" + v.String())
		}
		b.WriteByte('}')
		parts[i] = b.String()
	}
	return "[" + strings.Join(parts, " ") + "]"
}

// Sort puts the events of one command in output order: grouped by
// connection then channel in numeric order (a connection's own lines before
// its channels), each group in arrival order, except that publisher confirm
// lines are sorted by sequence number among themselves.
func Sort(events []Event) {
	sort.SliceStable(events, func(i, j int) bool {
		a, b := &events[i], &events[j]
		if a.Conn != b.Conn {
			return a.Conn < b.Conn
		}
		return a.Chan < b.Chan
	})
	for start := 0; start < len(events); {
		end := start
		for end < len(events) && events[end].Conn == events[start].Conn && events[end].Chan == events[start].Chan {
			end++
		}
		sortConfirms(events[start:end])
		start = end
	}
}

func sortConfirms(group []Event) {
	var idx []int
	var confirms []Event
	for i := range group {
		if group[i].Kind == ConfirmAck || group[i].Kind == ConfirmNack {
			idx = append(idx, i)
			confirms = append(confirms, group[i])
		}
	}
	if len(idx) < 2 {
		return
	}
	sort.SliceStable(confirms, func(i, j int) bool { return confirms[i].Seq < confirms[j].Seq })
	for k, i := range idx {
		group[i] = confirms[k]
	}
}

// Lines sorts the events and prints them one a line.
func Lines(events []Event) []string {
	Sort(events)
	out := make([]string, len(events))
	for i := range events {
		out[i] = events[i].String()
	}
	return out
}
