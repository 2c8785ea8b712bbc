package browser_test

import (
	"strings"
	"testing"

	"github.com/chromedp/chromedp"
)

// TestExerciseHintsAndNewGoals works through two exercises as a reader:
// in the first lesson, a goal on credit and one on a process; in the
// files lesson, a goal on a file's entries and a "never" goal. Hints come
// one at a time, and the solution only after the last.
func TestExerciseHintsAndNewGoals(t *testing.T) {
	b := newBrowser(t)
	type goals struct {
		Met      []bool   `json:"met"`
		States   []string `json:"states"`
		Hints    []string `json:"hints"`
		HintBtn  bool     `json:"hintBtn"`
		Solution bool     `json:"solution"`
	}
	for _, c := range []struct {
		page, widget string
		lines        []string
		firstState   string
		shot         string
	}{
		{"/lessons/credit-link-by-link/", `warren-scenario[title="Exercise: block the reader"], warren-scenario[aria-label="Exercise: block the reader"]`,
			[]string{"submit basic.publish key=work body=x count=50000", "run ms=100"},
			"not yet: credit reader c1 -> channel c1.1", "exercise-credit"},
		{"/lessons/where-a-message-lands/", `warren-scenario[aria-label="Exercise: a dead entry"]`,
			[]string{"basic.publish key=orders size=5000 count=2 persistent", "basic.get queue=orders no-ack"},
			"not yet: file 0.rdq has entries=0 (want 2)", "exercise-files"},
	} {
		b.open(c.page)
		w := c.widget
		read := func() goals {
			return evalJS[goals](b, `(() => {
				const g = document.querySelector(`+"`"+w+"`"+`).shadowRoot.querySelector(".goals");
				const items = [...g.querySelectorAll("li.goal")];
				return {met: items.map((li) => li.classList.contains("met")),
					states: items.map((li) => li.querySelector(".goal-state").textContent),
					hints: [...g.querySelectorAll("li.hint")].map((li) => li.textContent),
					hintBtn: !g.querySelector("button.show-hint").hidden,
					solution: !g.querySelector("button.show-solution").hidden};
			})()`)
		}
		root := "document.querySelector(`" + w + "`).shadowRoot"
		g := read()
		if len(g.Met) != 2 || g.Met[0] || !strings.HasPrefix(g.States[0], c.firstState) {
			t.Fatalf("%s: before any command the goals are %+v", c.page, g)
		}
		if len(g.Hints) != 0 || !g.HintBtn || g.Solution {
			t.Errorf("%s: at first %d hints show, hint button %v, solution button %v: want no hint, the button, no solution", c.page, len(g.Hints), g.HintBtn, g.Solution)
		}
		for i := 1; i <= 3; i++ {
			evalJS[bool](b, root+`.querySelector("button.show-hint").click(), true`)
			g = read()
			if len(g.Hints) != i || g.Solution != (i == 3) || g.HintBtn != (i < 3) {
				t.Errorf("%s: after %d clicks: %d hints, hint button %v, solution button %v", c.page, i, len(g.Hints), g.HintBtn, g.Solution)
			}
		}
		for _, line := range c.lines {
			evalJS[bool](b, root+`.querySelector("input.cmd").focus(), true`)
			if err := chromedp.Do(b.ctx, chromedp.KeyEvent(line+"\r")); err != nil {
				t.Fatal(err)
			}
		}
		var done bool
		for range 40 {
			if g = read(); len(g.Met) == 2 && g.Met[0] && g.Met[1] {
				done = true
				break
			}
			evalJS[bool](b, "new Promise((r) => setTimeout(() => r(true), 100))")
		}
		if !done {
			t.Errorf("%s: after the solution the goals are %+v", c.page, g)
		}
		b.shotElement(w, c.shot)
	}
	b.noErrors()
}
