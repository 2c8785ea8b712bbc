package lessons

import (
	"strings"
	"testing"
	"testing/fstest"
)

func TestParse(t *testing.T) {
	src := "---\n" +
		"title: \"Queues: a \\\"start\\\"\"\n" +
		"summary: 'It''s short'\n" +
		"order: 3 # third\n" +
		"version: \"3.10\"\n" +
		"---\n" +
		"Intro.\n\n" +
		"```warren title=\"Two steps\"\n" +
		"queue.declare queue=q\n" +
		"#> c1.1 declare-ok queue=q messages=0 consumers=0\n" +
		"# a comment\n" +
		"\n" +
		"basic.get queue=q\n" +
		"```\n\n" +
		"~~~go\nfmt.Println()\n~~~\n\n" +
		"````warren error-ok\nbasic.ack tag=9\n````\n"
	l, err := Parse("a-lesson.md", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	if l.Slug != "a-lesson" || l.Title != `Queues: a "start"` || l.Summary != "It's short" || l.Order != 3 || l.Version != "3.10" {
		t.Fatalf("front matter: %+v", l)
	}
	if l.BodyLine != 7 || !strings.HasPrefix(l.Body, "Intro.") {
		t.Fatalf("body starts at line %d: %q", l.BodyLine, l.Body[:10])
	}
	blocks, err := l.Scenarios()
	if err != nil {
		t.Fatal(err)
	}
	if len(blocks) != 2 {
		t.Fatalf("got %d scenario blocks, want 2", len(blocks))
	}
	b := blocks[0]
	if b.Line != 9 || b.Info.Title != "Two steps" || b.Info.ErrorOK {
		t.Errorf("first block: %+v", b)
	}
	if want := "queue.declare queue=q\n#> c1.1 declare-ok queue=q messages=0 consumers=0\n# a comment\n\nbasic.get queue=q"; b.Script != want {
		t.Errorf("script %q, want %q", b.Script, want)
	}
	steps, err := b.Steps()
	if err != nil {
		t.Fatal(err)
	}
	if len(steps) != 2 || steps[0].Line != 10 || steps[0].Expect[0] != "c1.1 declare-ok queue=q messages=0 consumers=0" || steps[1].Line != 14 {
		t.Errorf("steps: %+v", steps)
	}
	if !blocks[1].Info.ErrorOK {
		t.Errorf("second block should be error-ok: %+v", blocks[1])
	}
}

func TestParseErrors(t *testing.T) {
	for name, src := range map[string]string{
		"no front matter":   "# Title\n",
		"unclosed":          "---\ntitle: x\n",
		"unknown key":       "---\ntitle: x\nsummary: y\norder: 1\nversion: \"3.10\"\nauthor: z\n---\n",
		"missing version":   "---\ntitle: x\nsummary: y\norder: 1\n---\n",
		"bad version":       "---\ntitle: x\nsummary: y\norder: 1\nversion: latest\n---\n",
		"bad order":         "---\ntitle: x\nsummary: y\norder: first\nversion: \"3.10\"\n---\n",
		"twice":             "---\ntitle: x\ntitle: x\nsummary: y\norder: 1\nversion: \"3.10\"\n---\n",
		"unterminated":      "---\ntitle: \"x\nsummary: y\norder: 1\nversion: \"3.10\"\n---\n",
		"not key value":     "---\njust words\n---\n",
		"bad block info":    "---\ntitle: x\nsummary: y\norder: 1\nversion: \"3.10\"\n---\n```warren titel=\"x\"\nshow\n```\n",
		"output before cmd": "---\ntitle: x\nsummary: y\norder: 1\nversion: \"3.10\"\n---\n```warren\n#> c1.1 get-empty\n```\n",
		"recorded output":   "---\ntitle: x\nsummary: y\norder: 1\nversion: \"3.10\"\n---\n```warren\nbasic.get queue=q\n----\nc1.1 get-empty\n```\n",
	} {
		l, err := Parse("x.md", []byte(src))
		if err == nil {
			var blocks []Scenario
			blocks, err = l.Scenarios()
			for _, b := range blocks {
				if err == nil {
					_, err = b.Steps()
				}
			}
		}
		if err == nil {
			t.Errorf("%s: no error", name)
		}
	}
}

// TestExercise: an exercise block splits into the setup the widget runs,
// its goals and its solution; one without goals or a solution is refused
// with the line of its fence.
func TestExercise(t *testing.T) {
	b := Scenario{Line: 10, Info: Info{Lang: Lang, Exercise: true}, Script: "queue.declare queue=q\n" +
		"# a comment stays in the setup\n" +
		"expect queue=q consumers=1\n" +
		"#solution: basic.consume queue=q tag=c on=c2.1\n" +
		"  expect on=c2.1 saw=consume-ok tag=c"}
	ex, err := b.Exercise()
	if err != nil {
		t.Fatal(err)
	}
	if ex.Setup.Script != "queue.declare queue=q\n# a comment stays in the setup" {
		t.Errorf("setup %q", ex.Setup.Script)
	}
	if len(ex.Goals) != 2 || ex.Goals[0].Command != "expect queue=q consumers=1" || ex.Goals[1].Line != 15 ||
		ex.Goals[1].Command != "expect on=c2.1 saw=consume-ok tag=c" {
		t.Errorf("goals %+v", ex.Goals)
	}
	if len(ex.Solution) != 1 || ex.Solution[0].Command != "basic.consume queue=q tag=c on=c2.1" || ex.Solution[0].Line != 14 {
		t.Errorf("solution %+v", ex.Solution)
	}
	for _, c := range []struct{ script, want string }{
		{"queue.declare queue=q\n#solution: queue.delete queue=q", "line 10: an exercise block needs at least one goal"},
		{"expect queue=q messages=0", "line 10: an exercise block needs a solution"},
		{"expect queue=q messages=0\n#solution:", "line 12: #solution: needs a command after it"},
	} {
		b.Script = c.script
		if _, err := b.Exercise(); err == nil || !strings.HasPrefix(err.Error(), c.want) {
			t.Errorf("%q: error %v, want %q", c.script, err, c.want)
		}
	}
	b.Info.Exercise = false
	if _, err := b.Exercise(); err == nil || !strings.Contains(err.Error(), "not marked `warren exercise`") {
		t.Errorf("a block that is not an exercise: %v", err)
	}
	if in, err := ParseInfo(`warren exercise title="Try"`); err != nil || !in.Exercise || in.Title != "Try" {
		t.Errorf("ParseInfo: %+v, %v", in, err)
	}
}

func TestRequires(t *testing.T) {
	fsys := fstest.MapFS{
		"a.md": {Data: []byte("---\ntitle: A\nsummary: s\norder: 1\nversion: \"3.10\"\n---\nRabbitMQ 3.10\n")},
		"b.md": {Data: []byte("---\ntitle: B\nsummary: s\norder: 2\nversion: \"3.10\"\nrequires: a\n---\nRabbitMQ 3.10\n")},
	}
	all, err := Load(fsys)
	if err != nil {
		t.Fatal(err)
	}
	if got := all[1].Requires; len(got) != 1 || got[0] != "a" {
		t.Errorf("b requires %v, want [a]", got)
	}
	for name, src := range map[string]string{
		"later":   "---\ntitle: C\nsummary: s\norder: 3\nversion: \"3.10\"\nrequires: a, d\n---\n",
		"missing": "---\ntitle: C\nsummary: s\norder: 3\nversion: \"3.10\"\nrequires: zz\n---\n",
		"bad":     "---\ntitle: C\nsummary: s\norder: 3\nversion: \"3.10\"\nrequires: A B\n---\n",
	} {
		f := fstest.MapFS{"a.md": fsys["a.md"], "c.md": {Data: []byte(src)}, "d.md": {Data: []byte("---\ntitle: D\nsummary: s\norder: 4\nversion: \"3.10\"\n---\n")}}
		if _, err := Load(f); err == nil {
			t.Errorf("%s: a lesson requiring %q loaded", name, src)
		}
	}
}

// TestStepsRefuseRecordedOutput: a block quotes what it teaches with `#>`;
// a `----` line in it is refused with its line in the lesson.
func TestStepsRefuseRecordedOutput(t *testing.T) {
	b := Scenario{Line: 20, Info: Info{Lang: Lang}, Script: "queue.declare queue=q\n# then\nbasic.get queue=q\n----\nc1.1 get-empty"}
	_, err := b.Steps()
	if want := "line 24: a scenario block records no output after ----"; err == nil || !strings.HasPrefix(err.Error(), want) {
		t.Errorf("Steps() = %v, want %q...", err, want)
	}
	b.Script = "queue.declare queue=q\n#> c1.1 declare-ok queue=q messages=0 consumers=0\nbasic.get queue=q"
	steps, err := b.Steps()
	if err != nil || len(steps) != 2 || steps[1].Line != 23 || len(steps[0].Expect) != 1 {
		t.Errorf("Steps() = %+v, %v", steps, err)
	}
}
