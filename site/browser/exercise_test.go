package browser_test

import (
	"strings"
	"testing"

	"github.com/chromedp/chromedp"
)

// TestExercise works through the priority lesson's exercise as a reader
// would: the goals start unmet, each is ticked once the commands typed in
// the console meet it, scrubbing back un-ticks them, and the solution
// shows on request.
func TestExercise(t *testing.T) {
	b := newBrowser(t)
	b.open("/lessons/priority-is-several-queues/")
	const w = "warren-scenario[goals]"
	type goals struct {
		Visible bool     `json:"visible"`
		Met     []bool   `json:"met"`
		States  []string `json:"states"`
		Done    bool     `json:"done"`
		Drawn   string   `json:"drawn"` // the first goal's values, wanted beside now
		Count   string   `json:"count"`
	}
	read := func() goals {
		return evalJS[goals](b, `(() => {
			const g = `+in(w, ".goals")+`;
			const items = [...g.querySelectorAll("li.goal")];
			const table = items[0].querySelector(".goal-draw"), count = g.querySelector(".goal-count");
			return {visible: !g.hidden && g.offsetHeight > 0,
				met: items.map((li) => li.classList.contains("met")),
				states: items.map((li) => li.querySelector(".goal-state").textContent),
				done: !g.querySelector(".goals-done").hidden,
				drawn: table.hidden || !table.offsetHeight ? "" : [...table.rows].map((r) => r.className + ": " + [...r.cells].map((c) => c.textContent).join(" | ")).join("; "),
				count: count.hidden ? "" : count.textContent};
		})()`)
	}
	typeLine := func(line string) {
		t.Helper()
		evalJS[bool](b, in(w, "input.cmd")+".focus(), true")
		if err := chromedp.Do(b.ctx, chromedp.KeyEvent(line+"\r")); err != nil {
			t.Fatal(err)
		}
	}

	g := read()
	if !g.Visible || len(g.Met) != 2 || g.Met[0] || g.Met[1] || g.Done {
		t.Fatalf("before any command the goals are %+v: want two, unmet", g)
	}
	if g.States[0] != "not yet: queue work has consumers=0 (want 1)" {
		t.Errorf("the first goal says %q", g.States[0])
	}
	// the goal drawn beside the reader's state, and the commands counted
	if want := ": Value | Wanted | Now; off: consumers | 1 | 0"; g.Drawn != want {
		t.Errorf("the first goal draws %q, want %q", g.Drawn, want)
	}
	if want := "Commands you ran: 0. The solution runs 4."; g.Count != want {
		t.Errorf("the count reads %q, want %q", g.Count, want)
	}
	if n := evalJS[int](b, `[...document.querySelectorAll("warren-scenario:not([goals])")].filter((e) => !e.shadowRoot.querySelector(".goals").hidden).length`); n != 0 {
		t.Errorf("%d widgets that are not exercises show goals", n)
	}
	typeLine("basic.qos prefetch=1 on=c2.1")
	typeLine("basic.consume queue=work tag=worker on=c2.1")
	if g = read(); !g.Met[0] || g.Met[1] || g.States[0] != "met" {
		t.Errorf("after the consume the goals are %+v: want the first met", g)
	}
	if g.Drawn != ": Value | Wanted | Now; same: consumers | 1 | 1" || g.Count != "Commands you ran: 2. The solution runs 4." {
		t.Errorf("after the consume the first goal draws %q and the count reads %q", g.Drawn, g.Count)
	}
	start := evalJS[int](b, in(w, "input[type=range]")+".valueAsNumber")
	typeLine("basic.publish key=work body=urgent priority=5")
	typeLine("basic.ack tag=1 on=c2.1")
	if g = read(); !g.Met[0] || !g.Met[1] || !g.Done {
		t.Errorf("after the ack the goals are %+v: want both met", g)
	}
	var said string
	for range 20 {
		if said = evalJS[string](b, in(w, "[data-role=announce]")+".textContent"); strings.Contains(said, "Every goal is met.") {
			break
		}
		evalJS[bool](b, "new Promise((r) => setTimeout(() => r(true), 50))")
	}
	if !strings.Contains(said, "Every goal is met.") {
		t.Errorf("the live region says %q", said)
	}
	b.shotElement(w, "exercise-done")

	// Back on the timeline, before the urgent message: not met there.
	b.scrubTo(w, start)
	if g = read(); !g.Met[0] || g.Met[1] || g.Done {
		t.Errorf("scrubbed back to event %d, the goals are %+v: want only the first met", start, g)
	}

	evalJS[bool](b, in(w, "button.show-solution")+".click(), true")
	sol := evalJS[string](b, `(() => { const s = `+in(w, "pre.solution")+`; return s.hidden ? "" : s.textContent; })()`)
	if !strings.HasPrefix(sol, "basic.qos prefetch=1 on=c2.1\n") || strings.Count(sol, "\n") != 3 {
		t.Errorf("the solution shows %q", sol)
	}
	b.shotElement(w, "exercise-solution")

	// A share link carries the goals and the solution to the playground.
	link := evalJS[string](b, `document.querySelector("`+w+`").shareURL()`)
	fresh := b.tab()
	fresh.open(link)
	const pw = "warren-scenario"
	shared := evalJS[goals](fresh, `(() => {
		const g = `+in(pw, ".goals")+`;
		const items = [...g.querySelectorAll("li.goal")];
		return {visible: !g.hidden, met: items.map((li) => li.classList.contains("met")),
			states: items.map((li) => li.querySelector(".goal-line").textContent),
			done: !g.querySelector("button.show-hint").hidden && g.querySelector("button.show-solution").hidden};
	})()`)
	if !shared.Visible || len(shared.Met) != 2 || shared.Met[1] || shared.States[1] != "expect on=c2.1 saw=deliver tag=2 body=urgent priority=5" || !shared.Done {
		t.Errorf("the share link opened goals %+v: want both, at the shared event (only the first met), with the hints offered before the solution", shared)
	}
	if n := evalJS[int](fresh, in(pw, ".log")+".querySelectorAll(\".err\").length"); n != 0 {
		t.Errorf("replaying the shared script refused %d lines", n)
	}
	b.noErrors()
	fresh.noErrors()
}

// TestExerciseOnAPhone: on a narrow screen the goals, their states and the
// solution fit the width.
func TestExerciseOnAPhone(t *testing.T) {
	b := newBrowser(t)
	if err := chromedp.Do(b.ctx, chromedp.EmulateViewport(390, 844, chromedp.EmulateMobile, chromedp.EmulateScale(2))); err != nil {
		t.Fatal(err)
	}
	b.open("/lessons/priority-is-several-queues/")
	const w = "warren-scenario[goals]"
	evalJS[bool](b, in(w, "button.show-solution")+".click(), true")
	wide := evalJS[int](b, `(() => {
		const g = `+in(w, ".goals")+`;
		return Math.max(...[g, ...g.querySelectorAll("*")].map((e) => e.scrollWidth - e.clientWidth));
	})()`)
	if wide > 0 {
		t.Errorf("something in the goals panel is %d px wider than its box on a phone", wide)
	}
	if overflow := evalJS[int](b, `document.documentElement.scrollWidth - document.documentElement.clientWidth`); overflow > 0 {
		t.Errorf("the page scrolls sideways by %d px on a phone", overflow)
	}
	b.shotElement(w, "exercise-phone")
	b.noErrors()
}
