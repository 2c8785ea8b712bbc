package lessons

import (
	"strings"
	"testing"
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
