package broker

import (
	"strings"
	"testing"

	"warren/engine/script"
)

func TestCtlError(t *testing.T) {
	for _, c := range []struct{ stderr, want string }{
		{"Error:\nValidation failed\n\n<<\"sideways\">> is not a valid overflow value\n\n",
			`Validation failed: <<"sideways">> is not a valid overflow value`},
		{"Error:\nParameter does not exist\n", "Parameter does not exist"},
		{"Error (argument validation): Info key(s) bogus are not supported\nArguments given:\n\t-n x\n\nUsage\n",
			"Info key(s) bogus are not supported"},
		{"something odd\nhappened\n", "something odd: happened"},
	} {
		if got := ctlError(c.stderr, "").Error(); got != c.want {
			t.Errorf("ctlError(%q) = %q, want %q", c.stderr, got, c.want)
		}
	}
}

func TestPolicyJSON(t *testing.T) {
	cmd, err := script.ParseLine(`set_policy name=p pattern=^q\. priority=3 max-length=2 overflow=reject-publish ha=true dead-letter-exchange= note=say"hi"`, 1)
	if err != nil {
		t.Fatal(err)
	}
	got, err := policyJSON(cmd.Table())
	if err != nil {
		t.Fatal(err)
	}
	want := `{"max-length":2,"overflow":"reject-publish","ha":true,"dead-letter-exchange":"","note":"say\"hi\""}`
	if got != want {
		t.Errorf("policyJSON = %s, want %s", got, want)
	}
}

func TestScanNames(t *testing.T) {
	var cmds []script.Command
	for i, line := range []string{
		"exchange.declare exchange=dlx type=fanout",
		"queue.declare queue=q x-dead-letter-exchange=dlx2",
		"queue.declare queue=amq.reserved",
		"queue.bind queue=dlq exchange=amq.fanout",
		"basic.publish exchange= key=q body=x",
		"set_policy name=p pattern=^q$ dead-letter-exchange=dlx3",
		"clear_policy name=p2",
	} {
		c, err := script.ParseLine(line, i+1)
		if err != nil {
			t.Fatal(err)
		}
		cmds = append(cmds, c)
	}
	n := scanNames(cmds)
	if got, want := n.queues, []string{"dlq", "q"}; !equal(got, want) {
		t.Errorf("queues = %q, want %q", got, want)
	}
	if got, want := n.exchanges, []string{"dlx", "dlx2", "dlx3"}; !equal(got, want) {
		t.Errorf("exchanges = %q, want %q", got, want)
	}
	if got, want := n.policies, []string{"p", "p2"}; !equal(got, want) {
		t.Errorf("policies = %q, want %q", got, want)
	}
	if !n.declared["q"] || n.declared["dlq"] {
		t.Errorf("declared = %v, want only the queues of queue.declare", n.declared)
	}
}

func equal(a, b []string) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

// TestErlangBinary checks that a queue name reaches rabbitmqctl eval as the
// bytes of an Erlang binary, whatever characters it holds.
func TestErlangBinary(t *testing.T) {
	for in, want := range map[string]string{
		"q":     "<<113>>",
		`a"b'c`: "<<97,34,98,39,99>>",
		"é":     "<<195,169>>",
		"":      "<<>>",
	} {
		got, err := erlangBinary(in)
		if err != nil || got != want {
			t.Errorf("erlangBinary(%q) = %q, %v; want %q", in, got, err, want)
		}
	}
	if _, err := erlangBinary(strings.Repeat("x", 256)); err == nil {
		t.Error("a 256-byte name was accepted; queue names are at most 255 bytes")
	}
}

// TestPidNode checks that the node column comes out of a queue's pid.
func TestPidNode(t *testing.T) {
	for in, want := range map[string]string{
		"<rabbit@localhost.1796025643.2697.0>":    "rabbit@localhost",
		"<rabbit-2@localhost.1796025643.459.0>":   "rabbit-2@localhost",
		"<rabbit@host.example.com.17960256.45.0>": "rabbit@host.example.com",
	} {
		if got := pidNode(in); got != want {
			t.Errorf("pidNode(%q) = %q, want %q", in, got, want)
		}
	}
}
