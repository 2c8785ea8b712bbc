package broker

import (
	"testing"

	"warren/engine/script"
)

func TestGenNames(t *testing.T) {
	g := newGenNames()
	a, b := "amq.gen-JzTY20BRgKO-HjmUJj0wLg", "amq.gen-Ab_cdEFghIJklMNopQRstu"
	if fresh := g.learn("c1.1 declare-ok queue=" + a + " messages=0"); len(fresh) != 1 || fresh[0] != a {
		t.Fatalf("learn: %v", fresh)
	}
	g.learn("c1.1 get-ok key=" + a + " reply-to=" + b)
	if got := g.out("c1.1 get-ok key=" + a + " reply-to=" + b); got != "c1.1 get-ok key=amq.gen-1 reply-to=amq.gen-2" {
		t.Errorf("out: %s", got)
	}
	cmd, err := script.ParseLine("basic.publish key=amq.gen-2 reply-to=amq.gen-1 body=amq.gen-3", 1)
	if err != nil {
		t.Fatal(err)
	}
	in := g.in(cmd)
	if in.Str("key", "") != b || in.Str("reply-to", "") != a || in.Str("body", "") != "amq.gen-3" {
		t.Errorf("in: %+v", in.Args)
	}
	if cmd.Str("key", "") != "amq.gen-2" {
		t.Errorf("in changed the command it was given")
	}
}
