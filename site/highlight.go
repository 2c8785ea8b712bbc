package site

import (
	"html"
	"strings"

	"warren/engine/script"
	"warren/lessons"
)

// Class names of the warren highlighter's spans. site.css colours them;
// the widget may reuse them.
const (
	classCommand = "w-cmd"     // a command the language knows
	classUnknown = "w-unknown" // a first word that is not a command
	classKey     = "w-key"     // the key of key=value
	classEquals  = "w-eq"      // the = between them
	classValue   = "w-val"     // a text value
	classNumber  = "w-num"     // an integer value
	classFlag    = "w-flag"    // a bare word
	classComment = "w-comment" // a # comment line
	classOutput  = "w-out"     // a #> line quoting output
)

// highlightWarren returns script as HTML with a span around each token of
// the command language. Whitespace and line breaks are kept as they are, so
// the text of the result is exactly script.
func highlightWarren(src string) string {
	var b strings.Builder
	for i, line := range strings.Split(src, "\n") {
		if i > 0 {
			b.WriteByte('\n')
		}
		highlightLine(&b, line)
	}
	return b.String()
}

func highlightLine(b *strings.Builder, line string) {
	t := strings.TrimLeft(line, " \t")
	b.WriteString(html.EscapeString(line[:len(line)-len(t)]))
	switch {
	case t == "":
		return
	case strings.HasPrefix(t, lessons.ExpectPrefix):
		span(b, classOutput, t)
		return
	case strings.HasPrefix(t, "#"):
		span(b, classComment, t)
		return
	}
	first := true
	for t != "" {
		end := strings.IndexAny(t, " \t")
		if end < 0 {
			end = len(t)
		}
		tok := t[:end]
		if first {
			if commands[tok] {
				span(b, classCommand, tok)
			} else {
				span(b, classUnknown, tok)
			}
			// `submit basic.publish ...`: the wrapped command is a command too.
			first = tok == "submit"
		} else if key, val, ok := strings.Cut(tok, "="); ok && key != "" {
			span(b, classKey, key)
			span(b, classEquals, "=")
			if val != "" {
				if isInteger(val) {
					span(b, classNumber, val)
				} else {
					span(b, classValue, val)
				}
			}
		} else {
			span(b, classFlag, tok)
		}
		rest := t[end:]
		t = strings.TrimLeft(rest, " \t")
		b.WriteString(html.EscapeString(rest[:len(rest)-len(t)]))
	}
}

// commands is every first word the language accepts.
var commands = func() map[string]bool {
	m := map[string]bool{}
	for _, n := range script.Names() {
		m[n] = true
	}
	return m
}()

func span(b *strings.Builder, class, text string) {
	b.WriteString(`<span class="`)
	b.WriteString(class)
	b.WriteString(`">`)
	b.WriteString(html.EscapeString(text))
	b.WriteString(`</span>`)
}

func isInteger(s string) bool {
	s = strings.TrimPrefix(s, "-")
	if s == "" {
		return false
	}
	for _, r := range s {
		if r < '0' || r > '9' {
			return false
		}
	}
	return true
}
