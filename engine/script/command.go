package script

import (
	"strconv"
	"strings"

	"warren/engine/amqp"
	"warren/engine/say"
)

// Arg is one argument of a command: `key=value`, or a bare flag.
type Arg struct {
	Key    string
	Val    string
	HasVal bool
	Col    int  // 1-based column of the key
	Quoted bool // the value was written in quotes: always a string
}

// Value types the argument's value as a field-table value: a quoted value
// is a string, anything else as amqp.ParseValue types it.
func (a Arg) Value() amqp.Value {
	if a.Quoted {
		return amqp.StrValue(a.Val)
	}
	return amqp.ParseValue(a.Val)
}

// Command is one parsed and checked command line.
type Command struct {
	Name string
	Args []Arg
	Line int    // 1-based line in its file or console session; 0 if unknown
	Text string // the line as written, trimmed
	Spec *Spec
	// Inner is the client command that `submit` hands to the node without
	// running it.
	Inner *Command
}

// Arg returns the argument named key.
func (c *Command) Arg(key string) (Arg, bool) {
	for _, a := range c.Args {
		if a.Key == key {
			return a, true
		}
	}
	return Arg{}, false
}

// Str returns the value of key, or def when absent.
func (c *Command) Str(key, def string) string {
	if a, ok := c.Arg(key); ok {
		return a.Val
	}
	return def
}

// Has reports whether key was given, as a flag or with a value.
func (c *Command) Has(key string) bool {
	_, ok := c.Arg(key)
	return ok
}

// Int returns the integer value of key, or def when absent. The parser has
// already checked that the value is an integer in the parameter's range.
func (c *Command) Int(key string, def int64) int64 {
	a, ok := c.Arg(key)
	if !ok {
		return def
	}
	n, err := strconv.ParseInt(a.Val, 10, 64)
	if err != nil {
		return def
	}
	return n
}

// Bool returns the value of a boolean parameter such as requeue=false: a
// bare flag or `true` is true, `false` is false, absent is def.
func (c *Command) Bool(key string, def bool) bool {
	a, ok := c.Arg(key)
	if !ok {
		return def
	}
	return !a.HasVal || a.Val == "true"
}

// Table returns the arguments that become an AMQP field table (x-ARG on
// declare and consume, the extra arguments of bind and exchange.declare,
// policy definition keys), typed as the language types them.
func (c *Command) Table() amqp.Table {
	var t amqp.Table
	for _, a := range c.Args {
		if c.Spec.IsTableKey(a.Key) {
			t = append(t, amqp.Field{Key: a.Key, Val: a.Value()})
		}
	}
	return t
}

// Headers returns the header.NAME=V arguments of basic.publish as a table.
func (c *Command) Headers() amqp.Table {
	var t amqp.Table
	for _, a := range c.Args {
		if name, ok := strings.CutPrefix(a.Key, "header."); ok {
			t = append(t, amqp.Field{Key: name, Val: a.Value()})
		}
	}
	return t
}

// Words returns the bare words after the command name (list_queues columns).
func (c *Command) Words() []string {
	var w []string
	for _, a := range c.Args {
		if !a.HasVal {
			w = append(w, a.Key)
		}
	}
	return w
}

// Target is a parsed on=CONN[.CH] value.
type Target struct {
	Conn int
	Chan int // 0 when only a connection was named
}

// String prints the target as c1 or c1.2.
func (t Target) String() string {
	if t.Chan == 0 {
		return "c" + strconv.Itoa(t.Conn)
	}
	return "c" + strconv.Itoa(t.Conn) + "." + strconv.Itoa(t.Chan)
}

// On returns the channel (or connection) the command acts on; c1.1 by default.
func (c *Command) On() Target {
	t, err := ParseTarget(c.Str("on", "c1.1"))
	if err != nil {
		return Target{Conn: 1, Chan: 1}
	}
	return t
}

// ParseTarget reads `c3` or `c3.2`.
func ParseTarget(s string) (Target, error) {
	rest, ok := strings.CutPrefix(s, "c")
	if !ok {
		return Target{}, say.E("con.expectedTarget", strconv.Quote(s))
	}
	connS, chanS, hasChan := strings.Cut(rest, ".")
	conn, err := strconv.Atoi(connS)
	if err != nil || conn < 1 || conn > 9999 || !looksNumber(connS) {
		return Target{}, say.E("con.expectedTarget", strconv.Quote(s))
	}
	t := Target{Conn: conn}
	if hasChan {
		ch, err := strconv.Atoi(chanS)
		if err != nil || ch < 1 || ch > 65535 || !looksNumber(chanS) {
			return Target{}, say.E("con.channelNumber", strconv.Quote(s))
		}
		t.Chan = ch
	}
	return t, nil
}

func looksNumber(s string) bool {
	if s == "" {
		return false
	}
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return true
}

// Itoa formats an integer argument value.
func Itoa(n int) string { return strconv.Itoa(n) }

// IndexMark is the placeholder that a publish with count=N replaces, in its
// body and routing key, by the message's index 0..N-1.
const IndexMark = "{i}"

// Indexed is s with each IndexMark replaced by i.
func Indexed(s string, i int64) string {
	if !strings.Contains(s, IndexMark) {
		return s
	}
	return strings.ReplaceAll(s, IndexMark, strconv.FormatInt(i, 10))
}
