package script

import (
	"strings"
	"testing"
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
