package script

import (
	"strings"
	"testing"
)

func TestParseErrors(t *testing.T) {
	cases := []struct {
		line string
		want string
	}{
		{"basic.ack tag=x", "line 3, column 11: basic.ack: tag must be an integer, got \"x\" (usage: basic.ack tag=N [multiple])"},
		{"basic.pubish key=q", "line 3, column 1: unknown command \"basic.pubish\" (did you mean basic.publish?)"},
		{"queue.declare queue=q durable=yes", "line 3, column 23: queue.declare: durable is a flag and takes no value (write durable, not durable=yes) (usage: queue.declare queue=Q [durable] [exclusive] [auto-delete] [passive] [x-ARG=V ...])"},
		{"queue.declare queue=q colour=red", "line 3, column 23: queue.declare: unknown argument \"colour=red\" (usage: queue.declare queue=Q [durable] [exclusive] [auto-delete] [passive] [x-ARG=V ...])"},
		{"basic.get que=q", "line 3, column 11: basic.get: unknown argument \"que=q\" (did you mean queue?)"},
		{"basic.qos prefetch=70000", "line 3, column 11: basic.qos: prefetch must be between 0 and 65535, got 70000 (usage: basic.qos prefetch=N [global])"},
		{"basic.publish key=q on=c1", "line 3, column 21: basic.publish: on= must name a channel like c1.2 here (usage: basic.publish [exchange=E] [key=K] [body=TEXT | size=BYTES] [count=N] [persistent] [priority=N] [expiration=MS] [mandatory] [header.NAME=V ...] [content-type=T] [content-encoding=E] [correlation-id=ID] [reply-to=Q] [message-id=ID] [timestamp=N] [type=T] [user-id=U] [app-id=A])"},
		{"basic.publish key=q on=x1.1", "line 3, column 21: basic.publish: on: expected a connection like c1 or a channel like c1.2, got \"x1.1\" (usage: basic.publish [exchange=E] [key=K] [body=TEXT | size=BYTES] [count=N] [persistent] [priority=N] [expiration=MS] [mandatory] [header.NAME=V ...] [content-type=T] [content-encoding=E] [correlation-id=ID] [reply-to=Q] [message-id=ID] [timestamp=N] [type=T] [user-id=U] [app-id=A])"},
		{"basic.publish body=a size=3", "line 3, column 22: basic.publish: give body= or size=, not both (usage: basic.publish [exchange=E] [key=K] [body=TEXT | size=BYTES] [count=N] [persistent] [priority=N] [expiration=MS] [mandatory] [header.NAME=V ...] [content-type=T] [content-encoding=E] [correlation-id=ID] [reply-to=Q] [message-id=ID] [timestamp=N] [type=T] [user-id=U] [app-id=A])"},
		{"set_policy name=p pattern=(a|b) max-length=1", "line 3, column 27: set_policy: pattern: a value starting with ( is read as a list (write the value without a leading parenthesis)"},
		{"basic.nack tag=1 requeue=maybe", "line 3, column 18: basic.nack: requeue must be true or false, got \"maybe\" (usage: basic.nack tag=N [multiple] [requeue=false])"},
		{"list_queues colour", "line 3, column 13: list_queues: unknown argument \"colour\" (usage: list_queues [COLUMN ...])"},
		{"expect queue=q mesages=0", "line 3, column 16: expect: mesages is not a list_queues column (want one of messages, messages_ready, messages_unacknowledged, consumers, durable, auto_delete, exclusive, policy, arguments, memory, state, message_bytes, node, consumer_utilisation) (did you mean messages?)"},
		{"expect queue=q", "line 3, column 15: expect: say what the queue should show, as list_queues columns: messages=0 consumers=1 ... (usage: expect queue=Q COLUMN=V ... | expect on=CONN[.CH] saw=KIND [FIELD=V ...] [redelivered] [persistent])"},
		{"expect queue=q saw=deliver", "line 3, column 16: expect: give queue= or saw=, not both (usage: expect queue=Q COLUMN=V ... | expect on=CONN[.CH] saw=KIND [FIELD=V ...] [redelivered] [persistent])"},
		{"expect on=c2.1 saw=delivered", "line 3, column 16: expect: saw must be one of declare-ok, delete-ok, purge-ok, consume-ok, deliver, get-ok, get-empty, confirm-ack, confirm-nack, return, cancelled, closed, blocked, unblocked, connection-lost, got \"delivered\" (usage: expect queue=Q COLUMN=V ... | expect on=CONN[.CH] saw=KIND [FIELD=V ...] [redelivered] [persistent])"},
		{"queue.declare queue=q queue=r", "line 3, column 23: queue.declare: queue is given twice (usage: queue.declare queue=Q [durable] [exclusive] [auto-delete] [passive] [x-ARG=V ...])"},
	}
	for _, c := range cases {
		_, err := ParseLine(c.line, 3)
		if err == nil {
			t.Errorf("%q: no error", c.line)
			continue
		}
		if err.Error() != c.want {
			t.Errorf("%q:\n got %s\nwant %s", c.line, err, c.want)
		}
		if strings.Contains(err.Error(), "\n") {
			t.Errorf("%q: error spans lines", c.line)
		}
	}
}

func TestParseTypesValues(t *testing.T) {
	c, err := ParseLine("queue.declare queue=q x-max-priority=5 x-dead-letter-exchange= x-single-active-consumer=true x-overflow=drop-head x-big=3000000000", 1)
	if err != nil {
		t.Fatal(err)
	}
	got := c.Table().String()
	want := "{x-big=3000000000, x-dead-letter-exchange=, x-max-priority=5, x-overflow=drop-head, x-single-active-consumer=true}"
	if got != want {
		t.Fatalf("table %s, want %s", got, want)
	}
	kinds := map[string]string{}
	for _, f := range c.Table() {
		kinds[f.Key] = f.Val.Kind.String()
	}
	for k, v := range map[string]string{"x-max-priority": "signedint", "x-dead-letter-exchange": "longstr",
		"x-single-active-consumer": "bool", "x-big": "longstr"} {
		if kinds[k] != v {
			t.Errorf("%s typed %s, want %s", k, kinds[k], v)
		}
	}
	if on := c.On(); on.Conn != 1 || on.Chan != 1 {
		t.Errorf("default channel %v", on)
	}
}

func TestParseScript(t *testing.T) {
	cmds, err := Parse("# a comment\nqueue.declare queue=q\n\nbasic.publish key=q body=hi on=c2.3\n")
	if err != nil {
		t.Fatal(err)
	}
	if len(cmds) != 2 || cmds[1].Line != 4 || cmds[1].On().String() != "c2.3" {
		t.Fatalf("parsed %+v", cmds)
	}
	if _, err := Parse("queue.declare queue=q\nbasic.ack\n"); err == nil || !strings.HasPrefix(err.Error(), "line 2, ") {
		t.Fatalf("error %v, want one on line 2", err)
	}
}

// show's usage is written out as a literal so that the spec table needs no
// code to build it; it must still name every view.
func TestShowUsageNamesEveryView(t *testing.T) {
	s, _ := Lookup("show")
	if want := "show [" + strings.Join(ShowViews, "|") + "]"; s.Usage != want {
		t.Fatalf("show's usage is %q, want %q", s.Usage, want)
	}
}
