package engine

import (
	"warren/engine/say"
)

// sayLine is the line that says t, remembered with t so that Run can give
// the sentence beside the line (Result.Said).
func (s *Sim) sayLine(t say.Text) string {
	line := t.String()
	if s.said == nil {
		s.said = map[string]say.Text{}
	}
	s.said[line] = t
	return line
}

// sayLines are the lines that say ts: a sentence is said as sayLine
// says it, words (a Text without a key) are the line as they are.
func (s *Sim) sayLines(ts []say.Text) []string {
	out := make([]string, len(ts))
	for i, t := range ts {
		if t.Key == "" {
			out[i] = t.String()
		} else {
			out[i] = s.sayLine(t)
		}
	}
	return out
}

// sayError is the line that says err: "error: " and why, said as data
// when err says itself so (say.Sayer); RabbitMQ's own answers stay words.
func (s *Sim) sayError(err error) string {
	if e, ok := err.(say.Sayer); ok {
		return s.sayLine(say.Around("con.error", e.Said()))
	}
	return "error: " + err.Error()
}
