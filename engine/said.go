package engine

import "warren/engine/say"

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
