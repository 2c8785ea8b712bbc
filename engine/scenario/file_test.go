package scenario

import (
	"slices"
	"testing"
)

const sample = `# A header comment.
# Second line.

queue.declare queue=q
----
c1.1 declare-ok queue=q messages=0 consumers=0

# Between cases.
basic.publish key=q body=a
basic.get queue=q
----
c1.1 get-ok tag=1 exchange= key=q messages=0 body=a

wait ms=10
----

confirm.select
----
----
first

after a blank line
----
----

list_queues
----
`

func TestParse(t *testing.T) {
	f, err := Parse("sample.txt", sample)
	if err != nil {
		t.Fatal(err)
	}
	if len(f.Cases) != 5 {
		t.Fatalf("got %d cases, want 5", len(f.Cases))
	}
	c := f.Cases[1]
	if c.Line != 9 || len(c.Steps) != 2 || c.Steps[1].Line != 10 || c.Steps[1].Command != "basic.get queue=q" {
		t.Errorf("case 2 = %+v", c)
	}
	if want := []string{"c1.1 get-ok tag=1 exchange= key=q messages=0 body=a"}; !slices.Equal(c.Expected, want) {
		t.Errorf("case 2 expected %q, want %q", c.Expected, want)
	}
	if f.Cases[2].Expected == nil || len(f.Cases[2].Expected) != 0 {
		t.Errorf("an empty output must be an empty, non-nil list: %#v", f.Cases[2].Expected)
	}
	if want := []string{"first", "", "after a blank line"}; !slices.Equal(f.Cases[3].Expected, want) {
		t.Errorf("double-separator output = %q, want %q", f.Cases[3].Expected, want)
	}
	if f.Cases[4].Line != 26 || f.Cases[4].Expected == nil {
		t.Errorf("last case = %+v", f.Cases[4])
	}
}

func TestParseNoSeparator(t *testing.T) {
	f, err := Parse("open.txt", "queue.declare queue=q\nqueue.purge queue=q\n")
	if err != nil {
		t.Fatal(err)
	}
	if len(f.Cases) != 1 || f.Cases[0].Expected != nil || len(f.Cases[0].Steps) != 2 {
		t.Fatalf("cases = %+v", f.Cases)
	}
	out, err := f.Rewrite([][]string{{"c1.1 purge-ok messages=0"}})
	if err != nil {
		t.Fatal(err)
	}
	if want := "queue.declare queue=q\nqueue.purge queue=q\n----\nc1.1 purge-ok messages=0\n"; string(out) != want {
		t.Errorf("rewrite =\n%s\nwant\n%s", out, want)
	}
}

func TestParseErrors(t *testing.T) {
	for _, src := range []string{
		"----\nx\n",                     // output without a command
		"a\n----\n----\nnever closed\n", // double separator left open
		"a\n----\n----\nx\n----\n----\nnot blank\n",
	} {
		if _, err := Parse("bad.txt", src); err == nil {
			t.Errorf("Parse(%q) succeeded, want an error", src)
		}
	}
}

func TestRewriteKeepsEverythingButOutputs(t *testing.T) {
	f, err := Parse("sample.txt", sample)
	if err != nil {
		t.Fatal(err)
	}
	var same [][]string
	for _, c := range f.Cases {
		same = append(same, c.Expected)
	}
	out, err := f.Rewrite(same)
	if err != nil {
		t.Fatal(err)
	}
	if string(out) != sample {
		t.Errorf("rewriting with the expected outputs changed the file:\n%s", out)
	}

	out, err = f.Rewrite([][]string{
		{"c1.1 declare-ok queue=q messages=5 consumers=0"},
		{},
		{"c1.1 get-empty"},
		{"one line now"},
		{"queue name=q messages=0"},
	})
	if err != nil {
		t.Fatal(err)
	}
	want := `# A header comment.
# Second line.

queue.declare queue=q
----
c1.1 declare-ok queue=q messages=5 consumers=0

# Between cases.
basic.publish key=q body=a
basic.get queue=q
----

wait ms=10
----
c1.1 get-empty

confirm.select
----
one line now

list_queues
----
queue name=q messages=0
`
	if string(out) != want {
		t.Errorf("rewrite =\n%s\nwant\n%s", out, want)
	}
	again, err := Parse("sample.txt", string(out))
	if err != nil || len(again.Cases) != 5 || again.Cases[4].Expected[0] != "queue name=q messages=0" {
		t.Errorf("the rewritten file does not parse back: %v %+v", err, again)
	}
}

func TestRewriteBlankLineUsesDoubleSeparator(t *testing.T) {
	f, err := Parse("b.txt", "a\n----\nx\n")
	if err != nil {
		t.Fatal(err)
	}
	out, err := f.Rewrite([][]string{{"x", "", "y"}})
	if err != nil {
		t.Fatal(err)
	}
	if want := "a\n----\n----\nx\n\ny\n----\n----\n"; string(out) != want {
		t.Errorf("rewrite = %q, want %q", out, want)
	}
	if _, err := f.Rewrite(nil); err == nil {
		t.Error("Rewrite with the wrong number of outputs succeeded")
	}
}

func TestParseErrorsSayWhere(t *testing.T) {
	for _, c := range []struct{ name, src, want string }{
		{"f.txt", "# c\n----\nx\n", "f.txt:2: ---- with no command before it"},
		{"f.txt", "a\n----\n----\nnever closed\n", "f.txt:2: output opened with a double ---- is never closed"},
		{"f.txt", "#> c1.1 get-empty\nbasic.get queue=q\n", "f.txt:1: #> quotes output before any command"},
		{"", "a\n----\n----\nx\n----\n----\nnot blank\n", "line 7: a blank line must follow the closing ---- ----"},
	} {
		_, err := Parse(c.name, c.src)
		if err == nil || err.Error() != c.want {
			t.Errorf("Parse(%q) = %v, want %q", c.src, err, c.want)
		}
	}
}

// A lesson's block: the lines of a larger file, numbered as there, with
// the output it teaches quoted after each command.
func TestParseAtQuotes(t *testing.T) {
	src := "# one queue\nqueue.declare queue=q\n#> c1.1 declare-ok queue=q messages=0 consumers=0\n\n#>no space\nbasic.get queue=q\n#@mark here\n"
	f, err := ParseAt("lesson.md", 10, src)
	if err != nil {
		t.Fatal(err)
	}
	if len(f.Cases) != 1 || f.Cases[0].Expected != nil {
		t.Fatalf("cases = %+v, want one without recorded output", f.Cases)
	}
	want := []Step{
		{Line: 11, Command: "queue.declare queue=q", Expect: []string{"c1.1 declare-ok queue=q messages=0 consumers=0", "no space"}},
		{Line: 15, Command: "basic.get queue=q"},
	}
	if got := f.Steps(); len(got) != len(want) || got[0].Line != want[0].Line || got[1].Line != want[1].Line ||
		!slices.Equal(got[0].Expect, want[0].Expect) || got[1].Expect != nil || got[1].Command != want[1].Command {
		t.Errorf("steps = %+v, want %+v", got, want)
	}
	if _, err := ParseAt("", 10, "queue.declare queue=q\n----\n----\nx\n"); err == nil || err.Error() != "line 11: output opened with a double ---- is never closed" {
		t.Errorf("an error in a block = %v, want its line in the larger file", err)
	}
}

func TestScriptLeavesOutTheOutputs(t *testing.T) {
	f, err := Parse("sample.txt", sample)
	if err != nil {
		t.Fatal(err)
	}
	want := `# A header comment.
# Second line.

queue.declare queue=q

# Between cases.
basic.publish key=q body=a
basic.get queue=q

wait ms=10

confirm.select

list_queues
`
	if got := f.Script(); got != want {
		t.Errorf("Script() =\n%s\nwant\n%s", got, want)
	}
	again, err := Parse("script", f.Script())
	if err != nil || len(again.Cases) != 1 || len(again.Steps()) != len(f.Steps()) {
		t.Errorf("the script does not hold the file's %d commands: %v %+v", len(f.Steps()), err, again)
	}
}
