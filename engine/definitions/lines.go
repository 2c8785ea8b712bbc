package definitions

import (
	"strconv"
	"strings"

	"warren/engine/amqp"
)

// Script writes d as lines of the command language, in the order
// rabbit_definitions imports them: exchanges, policies, queues, then
// bindings, for a node that has only the built-in exchanges. What the
// file holds besides, the bindings RabbitMQ would skip (their exchange or
// queue is neither in the file nor built in), and what the language
// cannot say (an argument that is a list or a table, a queue argument not
// named x-...), are comment lines that say so, one a kind or a line.
func Script(d *Defs) []string {
	var out []string
	for _, l := range d.Left {
		out = append(out, "# "+l.Line())
	}
	bindings, dangling := Dangling(d, func(x string) bool { return x == "" || strings.HasPrefix(x, "amq.") }, func(string) bool { return false })
	if dangling != nil {
		out = append(out, "# "+dangling.Line())
	}
	for _, x := range d.Exchanges {
		line := "exchange.declare exchange=" + word(x.Name) + " type=" + word(x.Type) + flags(x.Durable, x.AutoDelete) + flag(x.Internal, "internal")
		out = append(out, withArgs(line, x.Args, "")...)
	}
	for _, p := range d.Policies {
		line := "set_policy name=" + word(p.Name) + " pattern=" + word(p.Pattern) + " apply-to=" + p.ApplyTo + " priority=" + strconv.Itoa(p.Priority)
		out = append(out, withArgs(line, p.Definition, "")...)
	}
	for _, q := range d.Queues {
		line := "queue.declare queue=" + word(q.Name) + flags(q.Durable, q.AutoDelete)
		out = append(out, withArgs(line, q.Args, "x-")...)
	}
	for _, b := range bindings {
		var line string
		if b.DestinationType == "exchange" {
			line = "exchange.bind destination=" + word(b.Destination) + " source=" + word(b.Source)
		} else {
			line = "queue.bind queue=" + word(b.Destination) + " exchange=" + word(b.Source)
		}
		if b.Key != "" {
			line += " key=" + word(b.Key)
		}
		out = append(out, withArgs(line, b.Args, "")...)
	}
	return out
}

func flags(durable, autoDelete bool) string {
	return flag(durable, "durable") + flag(autoDelete, "auto-delete")
}

func flag(on bool, name string) string {
	if on {
		return " " + name
	}
	return ""
}

// withArgs appends t's fields to line as KEY=V; a field the language
// cannot write (a list, a table, a float, a key without prefix where one
// is needed) becomes a comment line before it.
func withArgs(line string, t amqp.Table, prefix string) []string {
	var notes []string
	for _, f := range t {
		v, ok := valueWord(f.Val)
		if !ok || !strings.HasPrefix(f.Key, prefix) || strings.ContainsAny(f.Key, " \t\"=") {
			notes = append(notes, "# not imported: argument "+f.Key+" of the line below: the language cannot write it")
			continue
		}
		line += " " + f.Key + "=" + v
	}
	return append(notes, line)
}

// valueWord writes a field value so that the language types it back the
// same: integers and booleans bare, strings quoted where they would
// otherwise read as something else.
func valueWord(v amqp.Value) (string, bool) {
	switch {
	case v.Kind == amqp.LongStr:
		if amqp.ParseValue(v.Str).Kind != amqp.LongStr {
			return quote(v.Str), true
		}
		return word(v.Str), true
	case v.Kind == amqp.Bool:
		return v.String(), true
	case v.Kind.IsInt():
		// the language types an integer beyond 32 bits as a string
		return v.String(), v.Int >= -1<<31 && v.Int < 1<<31
	}
	return "", false
}

// word writes a name or value, quoted when it holds a space, a tab or a
// quote, or starts with a parenthesis (which the language reads as a
// list).
func word(s string) string {
	if strings.ContainsAny(s, " \t\"") || strings.HasPrefix(s, "(") {
		return quote(s)
	}
	return s
}

func quote(s string) string {
	return `"` + strings.ReplaceAll(strings.ReplaceAll(s, `\`, `\\`), `"`, `\"`) + `"`
}
