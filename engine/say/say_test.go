package say

import (
	"errors"
	"regexp"
	"testing"
)

// TestStringIsTheEnglishLine: a Text says its catalog's English with its
// arguments in place, a sentence inside a sentence said in turn.
func TestStringIsTheEnglishLine(t *testing.T) {
	cases := []struct {
		t    Text
		want string
	}{
		{S("engine.readFrame", "reader c1", "3"), "reader c1 reads a frame from the client's socket; 3 more publishes wait unread"},
		{T("engine.ack", "queue q", "channel c1.1", S("engine.readyUnacked", "2", "1")), "queue q takes an ack from channel c1.1; 2 ready, 1 unacked"},
		{T("engine.m.alarmRaised", T("engine.res.memory")), "the memory alarm is raised: every connection that publishes is blocked"},
		{S("engine.m.creditOut", "reader c1", "channel c1.1", "-1", "400", "channel c1.1"), "reader c1 has used its credit towards channel c1.1 (-1/400): it sends nothing more until channel c1.1 grants more"},
		{T("engine.ready", 3), "? ready"},
		{T("engine.mailboxMany"), "? more messages wait in its mailbox"},
		{T("no.such.key"), "no.such.key"},
	}
	for _, c := range cases {
		if got := c.t.String(); got != c.want {
			t.Errorf("%s: %q, want %q", c.t.Key, got, c.want)
		}
	}
}

// TestEveryKeyHasEnglish: each text's places run {a}, {b}, ... without a
// gap, so that a Text's arguments fill them in order.
func TestEveryKeyHasEnglish(t *testing.T) {
	place := regexp.MustCompile(`\{([a-z])\}`)
	for _, k := range Keys() {
		s, _ := English(k)
		for i, m := range place.FindAllStringSubmatch(s, -1) {
			if m[1][0] > byte('a'+i) {
				t.Errorf("%s: %q skips a place before {%s}", k, s, m[1])
			}
		}
	}
}

// TestKeysAreOnce: no key has two texts.
func TestKeysAreOnce(t *testing.T) {
	keys := Keys()
	for i := 1; i < len(keys); i++ {
		if keys[i] == keys[i-1] {
			t.Errorf("%s has two texts", keys[i])
		}
	}
}

// TestListsAndWords: a Text without a key says its arguments with ", "
// between them; words are said as they are.
func TestListsAndWords(t *testing.T) {
	l := List(S("engine.g.want", "messages=3", "5"), Words("consumers=0"))
	if got, want := T("engine.g.has", "queue q", l).String(), "queue q has messages=3 (want 5), consumers=0"; got != want {
		t.Errorf("%q, want %q", got, want)
	}
	if got := Words("queue q messages=1").String(); got != "queue q messages=1" {
		t.Errorf("words said as %q", got)
	}
}

// TestErrorsWrap: an Error's English is its sentence's, an error inside
// it is said as its own sentence and stays the one it wraps, and an error
// that is words (RabbitMQ's) is said as its words.
func TestErrorsWrap(t *testing.T) {
	inner := E("con.clusterTwo")
	outer := Wrap("con.named", inner, "connect")
	if got, want := outer.Error(), "connect: cluster: nodes must be at least 2"; got != want {
		t.Errorf("%q, want %q", got, want)
	}
	if !errors.Is(outer, inner) {
		t.Error("the wrapped error is lost")
	}
	said := Of(outer)
	if said.Key != "con.named" || said.Args[1].(Text).Key != "con.clusterTwo" {
		t.Errorf("said as %#v", said)
	}
	words := Wrap("con.named", errors.New("Validation failed: x"), "set_policy")
	if got := Of(words).Args[1].(Text); got.Key != "" || got.String() != "Validation failed: x" {
		t.Errorf("RabbitMQ's words said as %#v", got)
	}
}
