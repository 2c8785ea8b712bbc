package browser_test

import (
	"testing"
)

func init() {
	testPages["test-utilisation.html"] = `<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8"><title>consumer utilisation</title>
<link rel="stylesheet" href="/widget.css"><script src="/widget.js" defer></script></head>
<body><warren-scenario id="u" view="table">queue.declare queue=slow
basic.qos prefetch=1 on=c2.1
basic.consume queue=slow tag=c on=c2.1
basic.publish key=slow body=m count=2
run ms=3000</warren-scenario></body></html>`
}

// TestUtilisationGauge: the table view shows a queue's consumer
// utilisation as a percentage and a meter. Here the one consumer sits at
// its prefetch of 1 with a message waiting for the last three of the
// scenario's 3.6 seconds, so the queue could deliver at once only for the
// first 0.6 s: 20%
// (rabbit_queue_consumers' moving average, a one-second half-life).
func TestUtilisationGauge(t *testing.T) {
	b := newBrowser(t)
	b.open("/test-utilisation.html")
	type gauge struct {
		Text  string `json:"text"`
		Value string `json:"value"`
		Width string `json:"width"`
	}
	g := evalJS[gauge](b, `(() => {
		const m = `+in("#u", ".tables .utilisation")+`;
		if (!m) return {text: "", value: "", width: ""};
		return {text: m.textContent, value: m.querySelector("[role=meter]").getAttribute("aria-valuenow"),
			width: m.querySelector(".fill").style.width};
	})()`)
	if g.Text != "20%" || g.Value != "20" || g.Width != "20%" {
		t.Errorf("the utilisation gauge shows %+v, want 20%% with a meter at 20", g)
	}
}
