package engine

// What RabbitMQ's replies mean: a line of the trace that shows a channel
// or a connection RabbitMQ closed, or a message it returned, and
// rabbitmqctl's refusal of a policy stay as RabbitMQ prints them, and
// the engine gives beside each a sentence that says what the reply means
// (Result.Explain), which a widget shows under the line in the reader's
// language. The codes are AMQP 0-9-1's (rabbit_framing_amqp_0_9_1), each
// with its meaning in the catalog as con.amqp.CODE.

import (
	"errors"
	"strconv"

	"warren/engine/node"
	"warren/engine/say"
	"warren/engine/trace"
)

// replyName is the name a reply's text starts with: PRECONDITION_FAILED
// of "PRECONDITION_FAILED - unknown delivery tag 9".
func replyName(text string) string {
	n := 0
	for n < len(text) && (text[n] >= 'A' && text[n] <= 'Z' || text[n] == '_') {
		n++
	}
	return text[:n]
}

// explained is the sentence that says what e's reply means, and whether
// e shows one: a channel or connection closed, or a message returned,
// with a code whose meaning the catalog says (con.amqp.CODE: not 200, a
// normal close).
func explained(e *trace.Event) (say.Text, bool) {
	code := strconv.Itoa(e.Code)
	meaning := say.T("con.amqp." + code)
	if _, ok := say.English(meaning.Key); !ok {
		return say.Text{}, false
	}
	switch e.Kind {
	case trace.ChannelClosed:
		return say.T("con.amqp.explain", say.S("con.amqp.channel", e.Name()), code, replyName(e.Text), meaning), true
	case trace.ConnectionClosed:
		return say.T("con.amqp.explain", say.S("con.amqp.connection", e.Name()), code, replyName(e.Text), meaning), true
	case trace.Return:
		return say.T("con.amqp.returned", code, e.Text, meaning), true
	}
	return say.Text{}, false
}

// explainTrace remembers the sentence of each event of ev whose reply
// explained says, by the event's line.
func (s *Sim) explainTrace(ev [][]trace.Event) {
	for _, b := range ev {
		for i := range b {
			if t, ok := explained(&b[i]); ok {
				s.explainLine(b[i].String(), t)
			}
		}
	}
}

// explainLine remembers t as what line means, for Run to give beside it
// (Result.Explain).
func (s *Sim) explainLine(line string, t say.Text) {
	if s.explains == nil {
		s.explains = map[string]say.Text{}
	}
	s.explains[line] = t
}

// refusalMeans is what rabbitmqctl's refusal err means, when it says
// (node.OperatorError's Means).
func refusalMeans(err error) (say.Text, bool) {
	var oe *node.OperatorError
	if errors.As(err, &oe) && oe.Means.Key != "" {
		return oe.Means, true
	}
	return say.Text{}, false
}
