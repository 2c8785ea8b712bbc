package script

import (
	"strings"
	"testing"
)

func TestQuotedValues(t *testing.T) {
	c, err := ParseLine(`basic.publish key="a b" body="say \"hi\" \\ x=1" header.n="5" header.m=5 header.e="" header.p="(x"`, 1)
	if err != nil {
		t.Fatal(err)
	}
	for k, want := range map[string]string{"key": "a b", "body": `say "hi" \ x=1`, "header.e": "", "header.p": "(x"} {
		if got := c.Str(k, "?"); got != want {
			t.Errorf("%s = %q, want %q", k, got, want)
		}
	}
	kinds := map[string]string{}
	for _, f := range c.Headers() {
		kinds[f.Key] = f.Val.Kind.String()
	}
	if kinds["n"] != "longstr" || kinds["m"] != "signedint" {
		t.Errorf("header kinds %v: a quoted 5 is a string, a bare 5 an integer", kinds)
	}
	// a quote that does not open a value is an ordinary character
	c, err = ParseLine(`basic.publish body=say"hi" header.k"=v`, 1)
	if err != nil || c.Str("body", "") != `say"hi"` || c.Str(`header.k"`, "") != "v" {
		t.Fatalf("args %+v, err %v", c.Args, err)
	}
	// a backslash before anything else is itself
	c, err = ParseLine(`basic.publish body="a\nb"`, 1)
	if err != nil || c.Str("body", "") != `a\nb` {
		t.Fatalf("body %q, err %v", c.Str("body", ""), err)
	}
}

func TestQuoteErrors(t *testing.T) {
	cases := []struct{ line, want string }{
		{`basic.publish body="Hello World!`, `line 2, column 20: basic.publish: the quote opened here is never closed (write key="a value"; inside quotes \" is a quote and \\ a backslash)`},
		{`basic.publish body="a"b`, `line 2, column 23: basic.publish: text right after a closing quote (put a space between arguments, or the text inside the quotes)`},
	}
	for _, c := range cases {
		_, err := ParseLine(c.line, 2)
		if err == nil || err.Error() != c.want {
			t.Errorf("%s:\n got %v\nwant %s", c.line, err, c.want)
		}
	}
}

func TestClientWords(t *testing.T) {
	for line, hint := range map[string]string{
		"basic.consume queue=q auto-ack":              "(did you mean no-ack?)",
		"basic.consume queue=q auto_ack=true":         "(did you mean no-ack?)",
		"basic.publish key=q delivery_mode=2":         "(did you mean persistent?)",
		"basic.publish routing_key=q":                 "(did you mean key=q?)",
		"queue.bind queue=q exchange=x routing_key=k": "",
		"queue.declare queue=q durable=true":          "(did you mean durable?)",
		"basic.publish key=q reply_to=cb":             "(did you mean reply-to=cb?)",
	} {
		_, err := ParseLine(line, 1)
		if hint == "" {
			continue // queue.bind takes any ARG=V: routing_key is an argument
		}
		if err == nil || !strings.HasSuffix(err.Error(), hint) {
			t.Errorf("%s: got %v, want a hint %s", line, err, hint)
		}
	}
}
