package script

import (
	"strings"
	"testing"
	"time"
)

// TestShortStringLimits: a name, key or tag of 255 bytes is accepted, one
// of 256 is refused with where and what; operator commands are not AMQP
// and have no such limit.
func TestShortStringLimits(t *testing.T) {
	n := func(k int) string { return strings.Repeat("n", k) }
	ok := []string{
		"queue.declare queue=" + n(255),
		"basic.consume queue=q tag=" + n(255),
		"basic.publish key=" + n(252) + "{i} count=10", // keys k..0 to k..9: 253 bytes
		"set_policy name=" + n(300) + " pattern=q max-length=1",
		"basic.publish key=q body=" + n(1000),
		"basic.publish key=q header.a=" + n(1000),
	}
	for _, l := range ok {
		if _, err := ParseLine(l, 1); err != nil {
			t.Errorf("%.40s...: %v", l, err)
		}
	}
	bad := []struct{ line, want string }{
		{"queue.declare queue=" + n(256), "line 1, column 15: queue.declare: queue is 256 bytes long; AMQP carries it as a short string of at most 255 bytes"},
		{"basic.consume queue=q tag=" + n(1<<20), "line 1, column 23: basic.consume: tag is 1048576 bytes long"},
		{"basic.publish key=" + n(253) + "{i} count=1000", "basic.publish: key is 256 bytes long"},
		{"exchange.declare exchange=" + n(256) + " type=direct", "exchange.declare: exchange is 256 bytes long"},
		{"queue.bind queue=q exchange=amq.direct key=" + n(256), "queue.bind: key is 256 bytes long"},
		{"basic.cancel tag=" + n(256), "basic.cancel: tag is 256 bytes long"},
		{"basic.publish key=q header." + n(256) + "=1", "basic.publish: the header name nnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnn... is 256 bytes long"},
		{"queue.declare queue=q x-" + n(254) + "=1", "queue.declare: the argument name x-nnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnn... is 256 bytes long"},
		{"submit basic.publish exchange=" + n(300), "basic.publish: exchange is 300 bytes long"},
	}
	for _, c := range bad {
		_, err := ParseLine(c.line, 1)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%.50s...: got %v, want %q", c.line, err, c.want)
		}
		if err != nil && strings.Contains(err.Error(), n(100)) {
			t.Errorf("%.50s...: the error quotes the whole name (%d bytes)", c.line, len(err.Error()))
		}
	}
}

// TestStrangersLinesParseInOnePass: the lines of a share link that took
// minutes to read (one argument after another, a run of quotes, submit
// nested thousands of times) are refused at once, saying where and what,
// with no error quoting the whole of a long argument; a line past
// MaxLineBytes is refused before it is read.
func TestStrangersLinesParseInOnePass(t *testing.T) {
	var args strings.Builder
	args.WriteString("queue.declare queue=q")
	for i := range 80_000 {
		args.WriteString(" x-a" + strings.Repeat("b", i%7) + "=1")
	}
	var dup strings.Builder
	dup.WriteString("queue.declare queue=q")
	for i := range MaxArgs - 1 {
		dup.WriteString(" x-" + strings.Repeat("a", i%200) + "=1")
	}
	cases := []struct{ line, want string }{
		{args.String(), "line 1, column 9009: queue.declare: a command takes at most 1,000 arguments; this one has 80,001"},
		{dup.String(), "line 1, column 20923: queue.declare: x- is given twice"},
		{"list_queues " + strings.Repeat(`"`, 1_000_000), `line 1, column 13: list_queues: unknown argument "\"\"\"`},
		{"queue.declare queue=q x-a=" + strings.Repeat(`"`, 1_000_000), "line 1, column 29: queue.declare: text right after a closing quote"},
		{strings.Repeat("submit ", 140_000) + "basic.get queue=q", "line 1, column 8: submit: submit is not a client command"},
		{"queue.declare queue=q x-a=" + strings.Repeat("1", MaxLineBytes), "line 1, column 2097153: queue.declare: the line is 2,097,178 bytes long; a line holds at most 2,097,152 (write a long body as size=N)"},
		{strings.Repeat("q", 1<<20) + " queue=q", `unknown command "qqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqq..."`},
		{"basic.ack tag=" + strings.Repeat("1", 1_000_000), `line 1, column 11: basic.ack: tag must be an integer, got "1111111111111111111111111111111111111111..."`},
		{"queue.declare queue=q durable=" + strings.Repeat("x", 100_000), `queue.declare: durable is a flag and takes no value (write durable, not durable=xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx...)`},
	}
	for _, c := range cases {
		start := time.Now()
		_, err := ParseLine(c.line, 1)
		took := time.Since(start)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%.40s... (%d bytes): got %.300v, want %q", c.line, len(c.line), err, c.want)
		}
		if err != nil && len(err.Error()) > 1000 {
			t.Errorf("%.40s...: the error is %d bytes long", c.line, len(err.Error()))
		}
		// each takes milliseconds in one pass; read again for each
		// argument, quote or level, each took from seconds to minutes
		if took > 2*time.Second {
			t.Errorf("%.40s... (%d bytes): read in %v", c.line, len(c.line), took)
		}
	}
	if _, err := Parse("queue.declare queue=q\n" + strings.Repeat("submit ", 1000) + "basic.get queue=q"); err == nil || !strings.Contains(err.Error(), "line 2, column 8: submit: submit is not a client command") {
		t.Errorf("a script with nested submits: %v", err)
	}
	if _, err := ParseLine("submit basic.publish key=q body="+strings.Repeat("b", 100_000), 1); err != nil {
		t.Errorf("a 100,000-byte body: %v", err)
	}
}
