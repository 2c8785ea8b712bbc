package script

import (
	"strconv"
	"strings"

	"warren/engine/say"
)

// MaxShortString is the longest AMQP 0-9-1 short string: its length is
// one byte. Queue and exchange names, routing keys, consumer tags, the
// exchange type, the expiration property and the names of field-table
// entries (x-arguments, headers) are short strings.
//
// A longer one cannot be put in a frame at all, so RabbitMQ 3.10.8 never
// sees it (rabbit_binary_parser reads the length byte): the client
// refuses it. amqp091-go fails the write ("amqp: shortstr ... exceeds 255
// bytes") and shuts its connection; the language refuses the line instead,
// on both targets, before anything is sent.
const MaxShortString = 255

// shortStrings are the named arguments of AMQP methods sent as short
// strings.
var shortStrings = map[string]bool{"queue": true, "exchange": true, "key": true, "tag": true, "type": true, "expiration": true,
	"content-type": true, "content-encoding": true, "correlation-id": true, "reply-to": true, "message-id": true,
	"user-id": true, "app-id": true, "source": true, "destination": true}

// checkShortStrings refuses an AMQP method whose short strings do not fit.
func checkShortStrings(c *Command) *Error {
	if !strings.Contains(c.Name, ".") {
		return nil // not an AMQP method: operator and engine commands
	}
	for _, a := range c.Args {
		what, n := "", 0
		switch {
		case shortStrings[a.Key] && a.HasVal:
			what, n = a.Key, len(a.Val)
			if a.Key == "key" && c.Name == "basic.publish" && strings.Contains(a.Val, IndexMark) {
				n = len(Indexed(a.Val, max(c.Int("count", 1)-1, 0))) // the longest key of the run
			}
		case c.Spec.IsTableKey(a.Key) && a.HasVal:
			what, n = "the argument name "+clipName(a.Key), len(a.Key)
		case strings.HasPrefix(a.Key, "header.") && c.Spec.Extra == HeaderArgs:
			what, n = "the header name "+clipName(strings.TrimPrefix(a.Key, "header.")), len(a.Key)-len("header.")
		}
		if n > MaxShortString {
			return &Error{Col: a.Col, Cmd: c.Name, Msg: say.S("con.shortString", what, strconv.Itoa(n), strconv.Itoa(MaxShortString)), Hint: usage(c.Spec.Usage)}
		}
	}
	return nil
}

// clipName keeps an error line short when it quotes a long name.
func clipName(s string) string {
	if len(s) > 60 {
		return s[:40] + "..."
	}
	return s
}

// MaxLineBytes is the longest line the language reads. A line comes from
// whoever wrote the link that runs it; lessons and scenarios stay under
// 1,000 bytes, a long body is written size=N, and the longest name AMQP can
// carry is 255 bytes, so the limit only keeps a stranger's line from
// holding a tab while it is read (it is longer than a 1 MB name, which is
// refused as a short string, with its length).
const MaxLineBytes = 2 << 20

// MaxArgs is the most arguments one command takes: more than any command
// needs (a queue has a few x-arguments, a message a few headers).
const MaxArgs = 1000

// checkLineLength refuses a line longer than MaxLineBytes before it is
// read.
func checkLineLength(text string) *Error {
	if len(text) <= MaxLineBytes {
		return nil
	}
	e := &Error{Col: MaxLineBytes + 1, Msg: say.S("con.lineTooLong", thousands(len(text)), thousands(MaxLineBytes)), Hint: say.T("con.longBody")}
	if f := firstWord(text); f != "" && !strings.Contains(f, `"`) {
		e.Cmd = clipName(f)
	}
	return e
}

// firstWord is the first word of a line, read no further than it goes.
func firstWord(text string) string {
	text = strings.TrimLeft(text, " \t")
	if i := strings.IndexAny(text, " \t"); i >= 0 {
		text = text[:i]
	}
	return text
}

// thousands prints n with a comma between groups of three digits.
func thousands(n int) string {
	s := strconv.Itoa(n)
	for i := len(s) - 3; i > 0; i -= 3 {
		s = s[:i] + "," + s[i:]
	}
	return s
}
