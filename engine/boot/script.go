package boot

import (
	"strconv"
	"strings"
	"unicode/utf8"

	"warren/engine/definitions"
	"warren/engine/store/format"
)

// Script writes the recovered node as lines of the command language, for
// the simulated node to start from: each queue that comes back declared
// durable with its arguments, each of its messages published again to it
// under confirms, so that it is on disk (persistent, with its priority, content type, message id and the
// like), and then a restart after a crash, so that the simulated node
// recovers them as RabbitMQ did, redelivered. What the language cannot
// carry (a body that is not one line of text, the exchange a message was
// first published to) is a comment line that says so.
func Script(n *Node) []string {
	d := &definitions.Defs{}
	for _, q := range n.Queues {
		d.Queues = append(d.Queues, definitions.Queue{Name: q.Name, Durable: true, Args: q.Args})
	}
	out := []string{"# recovered from a RabbitMQ 3.10.8 vhost folder (vhost " + n.VHost + "); queues named by the " + n.Named}
	out = append(out, definitions.Script(d)...)
	// confirms: each message is on disk before the crash
	out = append(out, "confirm.select")
	for _, q := range n.Queues {
		for _, m := range q.Messages {
			out = append(out, publishLines(q.Name, m)...)
		}
	}
	return append(out, "restart kind=crash")
}

// publishLines publishes m to queue again through the default exchange.
func publishLines(queue string, m Message) []string {
	var notes []string
	line := "basic.publish key=" + word(queue) + " persistent"
	p := m.Props
	if p.Has(format.FlagPriority) {
		line += " priority=" + strconv.Itoa(int(p.Priority))
	}
	for _, f := range []struct {
		flag uint16
		key  string
		val  string
	}{
		{format.FlagContentType, "content-type", p.ContentType},
		{format.FlagContentEncoding, "content-encoding", p.ContentEncoding},
		{format.FlagCorrelationID, "correlation-id", p.CorrelationID},
		{format.FlagMessageID, "message-id", p.MessageID},
		{format.FlagType, "type", p.Type},
		{format.FlagAppID, "app-id", p.AppID},
	} {
		if p.Has(f.flag) {
			line += " " + f.key + "=" + word(f.val)
		}
	}
	if m.Exchange != "" || m.Key != queue {
		notes = append(notes, "# the message below was published to exchange "+strconv.Quote(m.Exchange)+" with key "+strconv.Quote(m.Key))
	}
	body := string(m.Body)
	if utf8.ValidString(body) && !strings.ContainsAny(body, "\n\r") {
		line += " body=" + word(body)
	} else {
		notes = append(notes, "# the body below ("+strconv.Itoa(len(m.Body))+" bytes) is not one line of text: size= stands for it")
		line += " size=" + strconv.Itoa(len(m.Body))
	}
	return append(notes, line)
}

// word writes a value, quoted when the language would otherwise read it
// as something else.
func word(s string) string {
	if s == "" || strings.ContainsAny(s, " \t\"=#") || strings.HasPrefix(s, "(") {
		return `"` + strings.ReplaceAll(strings.ReplaceAll(s, `\`, `\\`), `"`, `\"`) + `"`
	}
	return s
}
