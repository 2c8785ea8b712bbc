package engine

// What RabbitMQ's replies mean: a line of the trace that shows a channel
// or a connection RabbitMQ closed, or a message it returned, and
// rabbitmqctl's refusal of a policy stay as RabbitMQ prints them, and
// the engine gives beside each a sentence that says what the reply means
// (Result.Explain), which a widget shows under the line in the reader's
// language. The codes are AMQP 0-9-1's (rabbit_framing_amqp_0_9_1).

import (
	"errors"
	"strconv"
	"strings"

	"warren/engine/node"
	"warren/engine/say"
	"warren/engine/trace"
)

// replyMeanings names, by reply code, the sentence (con.amqp.NAME) that
// says what RabbitMQ means by closing with it, "CODE NAME" a line; a code
// not here (200, a normal close) is not explained. NB: one string, not a
// map: the browser's build is smaller so.
const replyMeanings = `
320 connectionForced
403 accessRefused
404 notFound
405 resourceLocked
406 preconditionFailed
501 frameError
502 syntaxError
503 commandInvalid
504 channelError
505 unexpectedFrame
506 resourceError
530 notAllowed
540 notImplemented
541 internalError
`

// replyMeaning is the name of the sentence that says what code means, or
// "" (replyMeanings).
func replyMeaning(code string) string {
	i := strings.Index(replyMeanings, "\n"+code+" ")
	if i < 0 {
		return ""
	}
	name := replyMeanings[i+len(code)+2:]
	return name[:strings.IndexByte(name, '\n')]
}

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
// e shows one: a channel or connection closed with a code of
// replyMeanings, or a message returned as unroutable (312) or with no
// consumer to take it at once (313).
func explained(e *trace.Event) (say.Text, bool) {
	code := strconv.Itoa(e.Code)
	switch e.Kind {
	case trace.ChannelClosed, trace.ConnectionClosed:
		meaning := replyMeaning(code)
		if meaning == "" {
			return say.Text{}, false
		}
		what := say.S("con.amqp.connection", e.Name())
		if e.Kind == trace.ChannelClosed {
			what = say.S("con.amqp.channel", e.Name())
		}
		return say.T("con.amqp.explain", what, code, replyName(e.Text), say.T("con.amqp."+meaning)), true
	case trace.Return:
		switch e.Code {
		case 312:
			return say.T("con.amqp.returned", code, e.Text, say.T("con.amqp.noRoute")), true
		case 313:
			return say.T("con.amqp.returned", code, e.Text, say.T("con.amqp.noConsumers")), true
		}
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
