package engine

import "warren/engine/say"

// saidKept is how many of the lines it printed lately the engine keeps
// the sentences of (Said): a command's output has a few such lines, and
// the bridge asks right after the command.
const saidKept = 256

// sayLine is the line that says t, remembered with t so that the bridge
// can hand the widget the sentence beside the line.
func (s *Sim) sayLine(t say.Text) string {
	line := t.String()
	if s.said == nil || len(s.said) >= saidKept {
		s.said = map[string]say.Text{}
	}
	s.said[line] = t
	return line
}

// Said is the sentence of a line the engine printed lately, when it says
// that line as data (an error, a goal's verdict, a budget's stop); the
// other lines (RabbitMQ's trace, the command language) are said as they
// are in every language.
func (s *Sim) Said(line string) (say.Text, bool) {
	t, ok := s.said[line]
	return t, ok
}
