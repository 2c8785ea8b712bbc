package browser_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"

	"warren/lessons"
)

// TestGuidedPlayStopsAtEachCaption plays a lesson's widget in guided mode
// (on by default in a lesson) and checks that Play stops where each
// caption starts, with the caption said in the live region; that a
// question shown before its moment takes an answer, right or wrong, and
// then shows the right one and why; that the , and . keys go to the
// previous and next caption; and that the lesson list counts both
// answered questions in the lesson's progress.
func TestGuidedPlayStopsAtEachCaption(t *testing.T) {
	b := newBrowser(t)
	all, err := lessons.All()
	if err != nil {
		t.Fatal(err)
	}
	var lesson lessons.Lesson
	var block lessons.Scenario
	exercises, questions := 0, 0
	for _, l := range all {
		if l.Slug != "credit-link-by-link" {
			continue
		}
		lesson = l
		blocks, err := l.Scenarios()
		if err != nil {
			t.Fatal(err)
		}
		for _, bl := range blocks {
			if bl.Info.Title == "Spending and granting" {
				block = bl
			}
			if bl.Info.Exercise {
				exercises++
			}
			qs, err := bl.Questions()
			if err != nil {
				t.Fatal(err)
			}
			questions += len(qs)
		}
	}
	if block.Script == "" {
		t.Fatal(`credit-link-by-link has no block "Spending and granting"`)
	}
	m := blockMoments(t, lesson, block)
	if len(m.captions) < 4 {
		t.Fatalf("the block has %d captions, want 4", len(m.captions))
	}

	b.open("/lessons/credit-link-by-link/")
	evalJS[bool](b, `localStorage.clear(), true`)
	b.open("/lessons/credit-link-by-link/")
	const sel = `warren-scenario[aria-label="Spending and granting"]`
	type state struct {
		Pos      int64  `json:"pos"`
		End      int64  `json:"end"`
		Playing  bool   `json:"playing"`
		Caption  string `json:"caption"`
		Live     string `json:"live"`
		Held     bool   `json:"held"`
		Question string `json:"question"`
		Result   string `json:"result"`
	}
	read := func() state {
		return evalJS[state](b, fmt.Sprintf(`(() => {
			const r = document.querySelector(%q).shadowRoot;
			const q = r.querySelector("[data-role=question]"), res = r.querySelector("[data-role=question-result]");
			return {pos: r.querySelector(".timeline").valueAsNumber, end: Number(r.querySelector(".timeline").max),
				playing: r.querySelector("button.play").getAttribute("aria-pressed") === "true",
				caption: r.querySelector(".caption").textContent,
				live: r.querySelector("[data-role=announce]").textContent,
				held: !r.querySelector("[data-role=guided-held]").hidden,
				question: q.hidden ? "" : r.querySelector(".question-ask").textContent,
				result: res ? res.textContent : ""};
		})()`, sel))
	}
	// play presses Play at the fastest speed and waits until it stops.
	play := func() state {
		t.Helper()
		evalJS[bool](b, fmt.Sprintf(`(() => {
			const r = document.querySelector(%q).shadowRoot, s = r.querySelector("select.speed");
			s.value = "10000";
			r.querySelector("button.play").click();
			return true;
		})()`, sel))
		ok := evalJS[bool](b, fmt.Sprintf(`new Promise((done) => {
			const r = document.querySelector(%q).shadowRoot, t0 = Date.now();
			const poll = () => {
				if (r.querySelector("button.play").getAttribute("aria-pressed") === "false") {
					requestAnimationFrame(() => requestAnimationFrame(() => done(true)));
				} else if (Date.now() - t0 > 60000) {
					done(false);
				} else {
					setTimeout(poll, 50);
				}
			};
			setTimeout(poll, 50);
		})`, sel))
		if !ok {
			t.Fatal("Play did not stop within a minute")
		}
		return read()
	}

	// The widget opens with the first caption and the number question.
	got := read()
	if got.Pos != m.open || got.Caption != m.captions[0].text {
		t.Fatalf("the widget opens at event %d with %q, want %d with %q", got.Pos, got.Caption, m.open, m.captions[0].text)
	}
	if !strings.Contains(got.Question, "How many credits") {
		t.Fatalf("at the opening the question shown is %q", got.Question)
	}
	evalJS[bool](b, in(sel, "[data-role=answer-number]")+`.value = "208", true`)
	evalJS[bool](b, in(sel, "form.question-form button")+`.click(), true`)
	if got = read(); got.Result != "Right: 208." || got.Pos != m.open {
		t.Errorf("answering 208: the result says %q at event %d", got.Result, got.Pos)
	}

	// Play stops where the second caption starts, for the choice question.
	got = play()
	if got.Pos != m.captions[1].at || got.Caption != m.captions[1].text || !got.Held {
		t.Fatalf("Play stopped at event %d with %q (held note shown %v), want event %d with %q", got.Pos, got.Caption, got.Held, m.captions[1].at, m.captions[1].text)
	}
	if !strings.Contains(got.Question, "credit toward the channel reaches 0") || !strings.Contains(got.Live, "Stopped for a question") {
		t.Errorf("at the second caption the question is %q and the live region says %q", got.Question, got.Live)
	}
	evalJS[bool](b, in(sel, `button.question-choice[data-choice="0"]`)+`.click(), true`)
	got = read()
	if !strings.HasPrefix(got.Result, "You said It drops the publishes") || !strings.Contains(got.Result, "the answer is It stops reading its socket") {
		t.Errorf("a wrong choice: the result says %q", got.Result)
	}

	// Then at each caption after it, the live region saying it.
	for _, c := range m.captions[2:] {
		got = play()
		if c.at == got.End {
			if got.Pos != got.End || got.Caption != c.text {
				t.Errorf("Play ended at event %d of %d with %q, want the last caption %q", got.Pos, got.End, got.Caption, c.text)
			}
			continue
		}
		if got.Pos != c.at || got.Caption != c.text || !strings.Contains(got.Live, c.text) {
			t.Errorf("Play stopped at event %d with %q (live region %q), want event %d with %q", got.Pos, got.Caption, got.Live, c.at, c.text)
		}
	}
	last := m.captions[len(m.captions)-1]
	if got.Pos < last.at {
		got = play()
	}
	if got.Pos != got.End {
		t.Errorf("after the last caption Play stopped at event %d of %d", got.Pos, got.End)
	}

	// , and . go to the previous and the next caption.
	evalJS[bool](b, in(sel, ".stage")+".focus(), true")
	key := func(k string) state {
		if err := chromedp.Do(b.ctx, chromedp.KeyEvent(k)); err != nil {
			t.Fatal(err)
		}
		evalJS[bool](b, `new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(() => r(true))))`)
		return read()
	}
	// from the last caption's start , goes to the one before it; from
	// inside its stretch, to its start
	back := m.captions[len(m.captions)-2]
	if got.Pos > last.at {
		back = last
	}
	if got = key(","); got.Pos != back.at || got.Caption != back.text || !strings.Contains(got.Live, back.text) {
		t.Errorf(", went to event %d with %q (live %q), want event %d: %q", got.Pos, got.Caption, got.Live, back.at, back.text)
	}
	if back != last {
		if got = key("."); got.Pos != last.at || got.Caption != last.text {
			t.Errorf(". went to event %d with %q, want event %d: %q", got.Pos, got.Caption, last.at, last.text)
		}
	}
	b.shotElement(sel, "guided-question-answered")

	// The lesson list counts the two answered questions.
	b.open("/lessons/")
	badge := evalJS[string](b, `(() => { const p = document.querySelector('ol.lesson-list li[data-href="/lessons/credit-link-by-link/"] .progress'); return p ? p.textContent : "(none)"; })()`)
	if want := fmt.Sprintf("2 of %d exercises and questions done", exercises+questions); badge != want {
		t.Errorf("the lesson list says %q, want %q", badge, want)
	}
	b.noErrors()
}

// scenarioCaptioned is a script with three captions, for a widget outside
// a lesson.
const scenarioCaptioned = `queue.declare queue=q
#@caption Declared.
basic.publish key=q body=a count=50
#@caption Fifty published.
basic.publish key=q body=b count=50
#@caption A hundred.
`

// TestGuidedOnlyWhereAsked: outside a lesson a widget plays through its
// captions, and with the guided attribute it stops where the first one
// after the start begins.
func TestGuidedOnlyWhereAsked(t *testing.T) {
	b := newBrowser(t)
	b.open("/test-guided.html")
	type state struct {
		Pos     int64  `json:"pos"`
		End     int64  `json:"end"`
		Caption string `json:"caption"`
		Held    bool   `json:"held"`
	}
	for _, c := range []struct {
		id     string
		guided bool
	}{{"plain", false}, {"guided", true}} {
		got := evalJS[state](b, fmt.Sprintf(`new Promise((done) => {
			const r = document.getElementById(%q).shadowRoot, s = r.querySelector("select.speed");
			s.value = "10000";
			r.querySelector("button.play").click();
			const t0 = Date.now();
			const poll = () => {
				if (r.querySelector("button.play").getAttribute("aria-pressed") === "false" || Date.now() - t0 > 30000) {
					requestAnimationFrame(() => requestAnimationFrame(() => done({pos: r.querySelector(".timeline").valueAsNumber,
						end: Number(r.querySelector(".timeline").max), caption: r.querySelector(".caption").textContent,
						held: !r.querySelector("[data-role=guided-held]").hidden})));
				} else {
					setTimeout(poll, 50);
				}
			};
			setTimeout(poll, 50);
		})`, c.id))
		switch {
		case !c.guided && (got.Pos != got.End || got.Caption != "A hundred." || got.Held):
			t.Errorf("%s: Play stopped at event %d of %d with %q (held %v), want the end with the last caption", c.id, got.Pos, got.End, got.Caption, got.Held)
		case c.guided && (got.Pos <= 0 || got.Pos >= got.End || got.Caption != "Declared." || !got.Held):
			t.Errorf("%s: Play stopped at event %d of %d with %q (held %v), want where Declared. starts", c.id, got.Pos, got.End, got.Caption, got.Held)
		}
	}
	b.noErrors()
}
