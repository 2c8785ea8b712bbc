package browser_test

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/cdproto/emulation"
	"github.com/chromedp/chromedp"
)

// scenarioStory ends with a delivery its consumer never acks: after it the
// node's only event left is the channel's consumer-timeout tick, half an
// hour on.
const scenarioStory = `queue.declare queue=q
basic.consume queue=q tag=c on=c2.1
basic.publish key=q body=a`

// scenarioPaced delivers twenty messages to a consumer that works 1 ms on
// each: about 20 ms of the node's time.
const scenarioPaced = `queue.declare queue=q
basic.consume queue=q tag=c on=c2.1 ack-every=1 work-us=1000
basic.publish key=q size=10 count=20`

func init() {
	testPages["test-story.html"] = `<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8"><title>story</title>
<link rel="stylesheet" href="/widget.css"><script src="/widget.js" defer></script></head>
<body><warren-scenario id="story" title="Story"><pre>` + scenarioStory + `</pre></warren-scenario>
<warren-scenario id="paced" title="Paced"><pre>` + scenarioPaced + `</pre></warren-scenario></body></html>`
}

type playState struct {
	Pos  int64   `json:"pos"`
	End  int64   `json:"end"`
	Time float64 `json:"time"`
	Idle string  `json:"idle"`
	Live string  `json:"live"`
}

func (b *browser) playState(w string) playState {
	b.t.Helper()
	return evalJS[playState](b, fmt.Sprintf(`(() => {
		const w = document.querySelector(%q), r = w.shadowRoot, tl = r.querySelector(".timeline");
		return {pos: tl.valueAsNumber, end: Number(tl.max), time: w.snap.time,
			idle: r.querySelector("[data-role=idle], .idle") ? r.querySelector("[data-role=idle], .idle").textContent : "",
			live: r.querySelector("[data-role=announce]").textContent};
	})()`, w))
}

// TestStepStopsWhereTheStoryEnds: at the end of a scenario whose node has
// only a timer half an hour away left, Step says that the scenario ends
// there, what comes next and when, and stays; a second Step goes there.
func TestStepStopsWhereTheStoryEnds(t *testing.T) {
	b := newBrowser(t)
	b.open("/test-story.html")
	const w = "#story"
	s := b.playState(w)
	if s.Pos != s.End || s.End == 0 {
		t.Fatalf("the widget opens at %d of %d, want its end", s.Pos, s.End)
	}
	evalJS[bool](b, in(w, "button.step")+".click(), true")
	after := b.playState(w)
	if after.Pos != s.Pos || after.End != s.End {
		t.Errorf("the first Step at the end moved to %d of %d", after.Pos, after.End)
	}
	const said = "The scenario ends here: the node's next event is tick for channel c2.1, a timer 31 min away. Press Step again to go there."
	if after.Idle != said {
		t.Errorf("the first Step at the end says %q, want %q", after.Idle, said)
	}
	evalJS[bool](b, in(w, "button.step")+".click(), true")
	if next := b.playState(w); next.Pos != s.Pos+1 || next.Time < 30*60e6 {
		t.Errorf("the second Step went to event %d at t=%.0f µs, want event %d half an hour on", next.Pos, next.Time, s.Pos+1)
	}
	b.noErrors()
}

// TestPlayByTheNodesClock: at 10 ms of node time a second, playing through
// the deliveries moves the node's clock about 10 ms for each second on
// the reader's, however many events that takes.
func TestPlayByTheNodesClock(t *testing.T) {
	b := newBrowser(t)
	b.open("/test-story.html")
	const w = "#paced"
	end := b.playState(w)
	if end.Time < 20e3 {
		t.Fatalf("the paced run ends at t=%.0f µs: want 20 ms of the node's time or more", end.Time)
	}
	// from a third of the way in, where the deliveries follow one another
	b.scrubTo(w, int(end.End/3))
	evalJS[bool](b, in(w, ".speed")+`.value = "t10", `+in(w, ".speed")+`.dispatchEvent(new Event("change")), true`)
	evalJS[bool](b, in(w, "button.play")+".click(), true")
	time.Sleep(300 * time.Millisecond)
	a := b.playState(w)
	began := time.Now()
	time.Sleep(1500 * time.Millisecond)
	c := b.playState(w)
	wall := time.Since(began).Seconds()
	rate := (c.Time - a.Time) / 1000 / wall // ms of node time per second
	if c.Pos >= c.End || rate < 3 || rate > 20 {
		t.Errorf("playing at 10 ms of node time a second went from t=%.0f µs (event %d) to t=%.0f µs (event %d of %d) in %.1f s: %.1f ms a second", a.Time, a.Pos, c.Time, c.Pos, c.End, wall, rate)
	}
	if !strings.Contains(evalJS[string](b, in(w, ".speed")+".selectedOptions[0].textContent"), "10 ms of node time a second") {
		t.Errorf("the speed reads %q", evalJS[string](b, in(w, ".speed")+".selectedOptions[0].textContent"))
	}
	evalJS[bool](b, in(w, "button.play")+".click(), true")
	b.noErrors()
}

// TestStepShowsWhatTravels: stepping one event at a time, what each event
// handled is drawn going from its sender's box to its handler's (the
// publish from the reader to the channel, then from the channel to the
// queue, among the others); the token goes once it has arrived. With less motion asked for,
// nothing moves.
func TestStepShowsWhatTravels(t *testing.T) {
	b := newBrowser(t)
	b.open("/test-story.html")
	const w = "#story"
	watch := func() {
		evalJS[bool](b, `(() => {
			const d = `+in(w, ".stage")+`;
			globalThis.__tokens = [];
			new MutationObserver((ms) => { for (const m of ms) for (const n of m.addedNodes) if (n.classList && n.classList.contains("token")) globalThis.__tokens.push([Number(n.dataset.from), Number(n.dataset.to)]); }).observe(d, { childList: true });
			return true;
		})()`)
	}
	watch()
	end := b.playState(w).End
	b.scrubTo(w, 0)
	for range end {
		evalJS[bool](b, in(w, "button.step")+".click(), true")
	}
	type moved struct {
		Tokens [][2]int       `json:"tokens"`
		Names  map[int]string `json:"names"`
		Left   int            `json:"left"`
	}
	read := func() moved {
		return evalJS[moved](b, `(() => {
			const w = document.querySelector("`+w+`");
			const names = {};
			for (const p of w.snap.processes) names[p.pid] = p.name;
			return {tokens: globalThis.__tokens, names, left: w.shadowRoot.querySelectorAll(".stage .token").length};
		})()`)
	}
	m := read()
	var paths []string
	for _, tk := range m.Tokens {
		paths = append(paths, m.Names[tk[0]]+" -> "+m.Names[tk[1]])
	}
	got := strings.Join(paths, ", ")
	if !strings.Contains(got, "reader c1 -> channel c1.1") || !strings.Contains(got, "channel c1.1 -> queue q") {
		t.Errorf("stepping %d events moved %q: want a publish from reader c1 to channel c1.1, then from channel c1.1 to queue q", end, got)
	}
	time.Sleep(900 * time.Millisecond)
	if left := read().Left; left != 0 {
		t.Errorf("%d tokens stay in the diagram after they arrived", left)
	}

	if _, err := chromedp.Call(b.ctx, emulation.SetEmulatedMedia, emulation.SetEmulatedMediaParams{
		Features: []*emulation.MediaFeature{{Name: "prefers-reduced-motion", Value: "reduce"}},
	}); err != nil {
		t.Fatal(err)
	}
	b.open("/test-story.html")
	watch()
	b.scrubTo(w, 0)
	for range end {
		evalJS[bool](b, in(w, "button.step")+".click(), true")
	}
	if m := read(); len(m.Tokens) != 0 {
		t.Errorf("with less motion asked for, %d tokens moved", len(m.Tokens))
	}
	b.noErrors()
}
