package lessons

import (
	"strings"
	"testing"
)

func TestDirectives(t *testing.T) {
	b := Scenario{Line: 10, Info: Info{Lang: Lang, Open: "sent"}, Script: "queue.declare queue=q\n" +
		"#@caption Declared.\n" +
		"submit basic.publish key=q body=x\n" +
		"#@mark sent\n" +
		"step"}
	ds, err := b.Directives()
	if err != nil {
		t.Fatal(err)
	}
	if len(ds) != 2 || ds[0] != (Directive{Line: 12, Kind: "caption", Text: "Declared.", After: 1}) || ds[1] != (Directive{Line: 14, Kind: "mark", Text: "sent", After: 2}) {
		t.Fatalf("directives %+v", ds)
	}
	if k, err := b.OpenAfter(); err != nil || k != 2 {
		t.Errorf("open=sent: after %d commands (%v), want 2", k, err)
	}
	for open, want := range map[string]int{"": 3, "end": 3, "start": 0} {
		b.Info.Open = open
		if k, err := b.OpenAfter(); err != nil || k != want {
			t.Errorf("open=%q: after %d commands (%v), want %d", open, k, err, want)
		}
	}
	b.Info.Open = "nowhere"
	if _, err := b.OpenAfter(); err == nil || !strings.Contains(err.Error(), "open=nowhere names no #@mark") {
		t.Errorf("open=nowhere: %v", err)
	}
	for script, want := range map[string]string{
		"#@mark A b":         `line 11: #@mark needs a name of lowercase letters, digits and dashes, got "A b"`,
		"#@mark x\n#@mark x": `line 12: mark "x" is already set on line 11`,
		"#@caption":          "line 11: #@caption needs words after it",
		"#@seek 3":           "line 11: unknown directive #@seek",
	} {
		_, err := Scenario{Line: 10, Script: script}.Directives()
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%q: error %v, want %q", script, err, want)
		}
	}
	if _, err := ParseInfo(`warren open="two words"`); err == nil {
		t.Error(`open="two words" was accepted`)
	}
}

// TestWhenDirective: a `#@when NAME GOAL` line names the first event its
// goal holds at, from where it stands; open=NAME opens there.
func TestWhenDirective(t *testing.T) {
	b := Scenario{Line: 10, Info: Info{Lang: Lang, Open: "credit-out"}, Script: "queue.declare queue=q\n" +
		"#@when credit-out credit=\"reader c1 -> channel c1.1\" left=0\n" +
		"#@caption Out of credit.\n" +
		"basic.publish key=q size=100 count=2000\n" +
		"#@caption Later."}
	ds, err := b.Directives()
	if err != nil {
		t.Fatal(err)
	}
	want := Directive{Line: 12, Kind: "when", Text: "credit-out", Goal: `expect credit="reader c1 -> channel c1.1" left=0`, After: 1}
	if len(ds) != 3 || ds[0] != want {
		t.Fatalf("directives %+v, want %+v first", ds, want)
	}
	if ds[1].When != "credit-out" || ds[2].When != "" || ds[2].After != 2 {
		t.Errorf("the caption after the when follows it (%+v); the one after a command does not (%+v)", ds[1], ds[2])
	}
	if k, err := b.OpenAfter(); err != nil || k != 1 {
		t.Errorf("open=credit-out: search from after %d commands (%v), want 1", k, err)
	}
	if g, ok := b.OpenWhen(); !ok || g != want.Goal {
		t.Errorf("OpenWhen: %q %v", g, ok)
	}
	b.Info.Open = "end"
	if _, ok := b.OpenWhen(); ok {
		t.Error("open=end names a when")
	}
	for script, want := range map[string]string{
		"#@when credit-out":             "line 11: #@when needs a name of lowercase letters, digits and dashes and a goal",
		"#@when X queue=q messages=0":   "line 11: #@when needs a name",
		"#@mark x\n#@when x queue=q":    `line 12: "x" is already a moment of line 11`,
		"#@when x queue=q\n#@mark x":    `line 12: mark "x" is already set on line 11`,
		"#@whenever x queue=q messages": "line 11: unknown directive #@whenever",
	} {
		_, err := Scenario{Line: 10, Script: script}.Directives()
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%q: error %v, want %q", script, err, want)
		}
	}
}
