package site_test

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"warren/engine"
	"warren/internal/nodetest"
	"warren/lessons"
	"warren/tutorials"
)

// lessonCut bounds the events of one command here: the lines a command
// prints have the same shapes after a cut, and a cut command says so in
// a line of its own, which is checked too.
const lessonCut = 30_000

// TestChineseConsoleOfEveryLesson runs the blocks of every Chinese lesson
// (an exercise's setup, goals, solution and goals again) and the
// playground's tutorials, and checks that
// every line the console prints for them reads in Chinese where the words
// are warren's own (widget/i18n.js consoleLine, under Node): the show
// views, the goals, the errors, the budget's stops.
func TestChineseConsoleOfEveryLesson(t *testing.T) {
	node := nodetest.Path(t, "the Chinese console's tests")
	all, err := lessons.In("zh")
	if err != nil {
		t.Fatal(err)
	}
	digits := regexp.MustCompile(`[0-9]+`)
	seen := map[string]bool{}
	var lines []any
	// add keeps one line of each shape: the same line with other numbers
	// reads the same
	add := func(r engine.Result) {
		for i, s := range said(r) {
			if k := digits.ReplaceAllString(r.Lines[i], "0"); !seen[k] {
				seen[k] = true
				lines = append(lines, s)
			}
		}
	}
	for _, l := range all {
		blocks, err := l.Scenarios()
		if err != nil {
			t.Fatal(err)
		}
		for _, b := range blocks {
			var cmds []string
			if b.Info.Exercise {
				ex, err := b.Exercise()
				if err != nil {
					t.Fatal(err)
				}
				steps, err := ex.Setup.Steps()
				if err != nil {
					t.Fatal(err)
				}
				for _, s := range append(append(append(steps, ex.Goals...), ex.Solution...), ex.Goals...) {
					cmds = append(cmds, s.Command)
				}
			} else {
				steps, err := b.Steps()
				if err != nil {
					t.Fatal(err)
				}
				for _, s := range steps {
					cmds = append(cmds, s.Command)
				}
			}
			sim := engine.New(engine.Options{Record: true})
			sim.Run("set version="+l.Version, engine.RunOptions{})
			for _, c := range cmds {
				add(sim.Run(c, engine.RunOptions{Cut: lessonCut}))
			}
		}
	}
	// the tutorials the Chinese playground offers
	for _, tu := range tutorials.All() {
		sim := engine.New(engine.Options{Record: true})
		for _, c := range strings.Split(tu.Script(), "\n") {
			if c = strings.TrimSpace(c); c == "" || strings.HasPrefix(c, "#") {
				continue
			}
			add(sim.Run(c, engine.RunOptions{Cut: lessonCut}))
		}
	}
	if len(lines) < 200 {
		t.Fatalf("the Chinese lessons printed only %d kinds of line", len(lines))
	}
	in, err := json.Marshal(map[string]any{"names": codeWords(), "lines": lines})
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "lines.json")
	if err := os.WriteFile(path, in, 0o644); err != nil {
		t.Fatal(err)
	}
	out, err := exec.Command(node, "widgettest/zh-lines.mjs", path).Output()
	if err != nil {
		t.Fatalf("node widgettest/zh-lines.mjs: %v", err)
	}
	var bad [][3]string
	if err := json.Unmarshal(out, &bad); err != nil {
		t.Fatalf("node widgettest/zh-lines.mjs said %q: %v", out, err)
	}
	for _, b := range bad {
		t.Errorf("a Chinese lesson's console shows English %q:\n\t%s\n\tshown as %s", b[2], b[0], b[1])
	}
	t.Logf("%d kinds of line from %d lessons and the tutorials, %d still in English", len(lines), len(all), len(bad))
}
