package browser_test

import (
	"strings"
	"testing"
)

// drawInPlace steps and seeks every widget of a page through its run. At
// each state it compares the diagram the widget drew in place with a new
// diagram drawing the same state from nothing (every element, attribute
// and text, hidden ones too, but whether a chip played its entrance), and
// it checks that each process box, gauge, priority lane and consumer that
// is there before and after a step kept its element. The chips of the
// state a widget opens at are drawn still; chips a step adds pop in.
const drawInPlace = `(async () => {
	const { Diagram } = await import("/widget/diagram.js");
	const canon = (n) => {
		if (n.nodeType === 3) return JSON.stringify(n.nodeValue);
		const attrs = [...n.attributes].filter((a) => a.name !== "data-still").map((a) => a.name + "=" + JSON.stringify(a.name === "style" ? n.style.cssText : a.value)).sort();
		return "<" + n.localName + (attrs.length ? " " + attrs.join(" ") : "") + ">" + [...n.childNodes].map(canon).join("") + "</" + n.localName + ">";
	};
	const keyed = (el) => {
		const m = new Map();
		for (const b of el.querySelectorAll(".proc")) {
			const pid = b.dataset.pid;
			m.set("proc " + pid, b);
			for (const l of b.querySelectorAll(".lane")) m.set("lane " + pid + "/" + (l.dataset.level ?? "folded " + l.dataset.levels), l);
			for (const c of b.querySelectorAll(".consumer")) m.set("consumer " + pid + "/" + c.dataset.tag, c);
		}
		for (const g of el.querySelectorAll("[data-gauge]")) m.set("gauge " + g.dataset.gauge, g);
		return m;
	};
	const out = { states: 0, kept: 0, popped: 0, problems: [] };
	const popping = (el) => el.querySelectorAll(".chip:not([data-still]), .msg:not([data-still]), .dot:not([data-still])").length;
	for (const w of document.querySelectorAll("warren-scenario")) {
		await w.ready;
		if (w.idle) await w.idle();
		if (w.view === "diagram" && popping(w.diagram.el) > 0) out.problems.push((w.id || w.title) + ": " + popping(w.diagram.el) + " chips of the state the widget opened at pop in");
		const end = w.end;
		const at = [0];
		for (let i = 1; i <= Math.min(end, 60); i++) at.push(i);
		for (let i = 1; i <= 12; i++) at.push(Math.round((end * i) / 12));
		at.push(Math.round(end / 3), end);
		let before = null;
		for (const n of at) {
			await w.seekTo(n);
			await w.idle();
			if (w.view !== "diagram" || !w.drawn) continue;
			out.states++;
			const fresh = new Diagram(w.tr, w.terms);
			fresh.render(w.drawn, w.changed, w.gen);
			const a = canon(w.diagram.el), b = canon(fresh.el);
			if (a !== b && out.problems.length < 3) {
				let i = 0;
				while (a[i] === b[i]) i++;
				out.problems.push((w.id || w.title) + " at event " + n + ": in place …" + a.slice(Math.max(0, i - 150), i + 150) + "… new …" + b.slice(Math.max(0, i - 150), i + 150) + "…");
			}
			const now = keyed(w.diagram.el);
			if (before) {
				for (const [k, el] of now) {
					if (!before.has(k)) continue;
					if (before.get(k) === el) out.kept++;
					else if (out.problems.length < 6) out.problems.push((w.id || w.title) + " at event " + n + ": " + k + " was drawn again, not changed in place");
				}
			}
			before = now;
			out.popped = Math.max(out.popped, popping(w.diagram.el));
		}
	}
	return out;
})()`

// TestDiagramDrawsInPlace: the diagram changes what it shows in place
// (so that the browser lays out again only what changed), and what it
// shows after any sequence of steps and seeks is exactly what it shows
// when it draws that state from nothing.
func TestDiagramDrawsInPlace(t *testing.T) {
	b := newBrowser(t)
	type result struct {
		States   int      `json:"states"`
		Kept     int      `json:"kept"`
		Popped   int      `json:"popped"`
		Problems []string `json:"problems"`
	}
	for _, p := range []string{"/test-one.html", "/test-cluster.html", "/test-goals.html", "/lessons/credit-link-by-link/"} {
		b.open(p)
		r := evalJS[result](b, drawInPlace)
		t.Logf("%s: %d states compared, %d elements kept across a step or seek", p, r.States, r.Kept)
		if r.States == 0 || r.Kept == 0 {
			t.Errorf("%s: nothing compared (%d states, %d elements kept)", p, r.States, r.Kept)
		}
		if r.Popped == 0 {
			t.Errorf("%s: no chip a step added played its entrance", p)
		}
		if len(r.Problems) > 0 {
			t.Errorf("%s:\n%s", p, strings.Join(r.Problems, "\n"))
		}
	}
	b.noErrors()
}

// TestManyLevelsShareARow: a queue of 40 priority levels draws a row for
// each level that holds messages, and one for each run of empty levels
// between them, from the highest down, instead of 41 rows.
func TestManyLevelsShareARow(t *testing.T) {
	b := newBrowser(t)
	b.open("/test-one.html")
	for _, line := range []string{"queue.declare queue=many x-max-priority=40", "basic.publish key=many body=a priority=7 count=2", "basic.publish key=many body=b priority=30"} {
		b.console("warren-scenario", line)
	}
	lanes := evalJS[[]string](b, settled(`[...`+in("warren-scenario", `.kind-queue[data-name*="many"]`)+`.querySelectorAll(".lane")].map((l) => l.querySelector(".k").textContent + " " + l.querySelector(".n").textContent)`))
	want := []string{"priorities 31–40, empty 0", "priority 30 1", "priorities 8–29, empty 0", "priority 7 2", "priorities 0–6, empty 0"}
	if strings.Join(lanes, "|") != strings.Join(want, "|") {
		t.Errorf("the queue of 40 levels draws the rows %q, want %q", lanes, want)
	}
	b.noErrors()
}
