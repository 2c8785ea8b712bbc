package browser_test

import (
	"fmt"
	"strings"
	"testing"
)

// TestOtherNumbersAsksAgain: a question whose block's numbers can vary
// offers other numbers; taking them runs the block again with the next
// draw, the question asks about it, and the answer the widget holds right
// is the one the engine works out for that draw (tag 2 leaves two of the
// four deliveries unacknowledged; 1, the block's own answer, is wrong).
func TestOtherNumbersAsksAgain(t *testing.T) {
	b := newBrowser(t)
	b.open("/lessons/a-tour-of-the-console/")
	const sel = `warren-scenario[aria-label="Acks, one by one and several at once"]`
	type q struct {
		Ask    string `json:"ask"`
		Vary   bool   `json:"vary"`
		Result string `json:"result"`
	}
	read := func() q {
		return evalJS[q](b, fmt.Sprintf(`(() => {
			const w = document.querySelector(%q), r = w.shadowRoot, p = r.querySelector("[data-role=question]");
			const res = r.querySelector("[data-role=question-result]");
			return {ask: p.querySelector(".question-ask") ? p.querySelector(".question-ask").textContent : "", vary: !!p.querySelector("button.question-vary"),
				result: res ? res.textContent : ""};
		})()`, sel))
	}
	answer := func(n string) {
		evalJS[bool](b, in(sel, "[data-role=answer-number]")+`.value = "`+n+`", true`)
		evalJS[bool](b, in(sel, "form.question-form button")+`.click(), true`)
	}
	got := read()
	if !strings.Contains(got.Ask, "basic.ack tag=3 multiple") || !got.Vary {
		t.Fatalf("the question reads %q (other numbers offered: %v), want tag=3 and the offer", got.Ask, got.Vary)
	}
	evalJS[bool](b, in(sel, "button.question-vary")+`.click(), true`)
	if got = read(); !strings.Contains(got.Ask, "basic.ack tag=2 multiple") || got.Result != "" {
		t.Fatalf("after other numbers the question reads %q with the result %q, want tag=2 and no answer yet", got.Ask, got.Result)
	}
	answer("1")
	if got = read(); got.Result != "You said 1; the answer is 2." {
		t.Errorf("answering 1 for tag=2: %q, want it wrong with 2 as the answer", got.Result)
	}
	evalJS[bool](b, in(sel, "button.question-vary")+`.click(), true`)
	if got = read(); !strings.Contains(got.Ask, "basic.ack tag=4 multiple") {
		t.Fatalf("the next draw asks %q, want tag=4", got.Ask)
	}
	answer("0")
	if got = read(); got.Result != "Right: 0." {
		t.Errorf("answering 0 for tag=4: %q, want it right", got.Result)
	}
	b.noErrors()
}
