package engine

// What RabbitMQ's replies mean: a line of the trace that shows a channel
// or a connection RabbitMQ closed, or a message it returned, and
// rabbitmqctl's refusal of a policy stay as RabbitMQ prints them, and
// the engine gives beside each a sentence that says what the reply means
// (Result.Explain), which a widget shows under the line in the reader's
// language. The codes are AMQP 0-9-1's (rabbit_framing_amqp_0_9_1), each
// with its meaning in the widget's catalogs as con.amqp.CODE. The
// sentences are the widget's words about RabbitMQ's reply, in the
// languages it speaks other than English (an English page shows the reply
// alone): the engine names them and their arguments, and holds no
// English for them.

import (
	"errors"
	"strconv"
	"strings"

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

// explainedCodes are the reply codes whose meaning the widget's catalogs
// say (con.amqp.CODE): not 200, a normal close.
const explainedCodes = " 312 313 320 403 404 405 406 501 502 503 504 505 506 530 540 541 "

// explained is the sentence that says what e's reply means, and whether
// e shows one: a channel or connection closed, or a message returned,
// with a code whose meaning the catalog says (con.amqp.CODE: not 200, a
// normal close).
func explained(e *trace.Event) (say.Text, bool) {
	if e.Kind != trace.ChannelClosed && e.Kind != trace.ConnectionClosed && e.Kind != trace.Return {
		return say.Text{}, false // every delivery passes here: no number to write
	}
	code := strconv.Itoa(e.Code)
	if !strings.Contains(explainedCodes, " "+code+" ") {
		return say.Text{}, false
	}
	meaning := say.T("con.amqp." + code)
	if e.Kind == trace.Return {
		return say.T("con.amqp.returned", code, e.Text, meaning), true
	}
	what := "con.amqp.connection"
	if e.Kind == trace.ChannelClosed {
		what = "con.amqp.channel"
	}
	return say.T("con.amqp.explain", say.S(what, e.Name()), code, replyName(e.Text), meaning), true
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
