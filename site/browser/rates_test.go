package browser_test

// Browser tests of the Rates view: the charts of the engine's metrics
// samples, their table form, and how both follow the timeline.

import (
	"fmt"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"

	"warren/engine"
)

// charted is what the Rates view of a widget shows.
type charted struct {
	Visible  bool              `json:"visible"`
	Pressed  string            `json:"pressed"`
	Charts   []string          `json:"charts"`
	Deliver  string            `json:"deliver"`
	Points   int               `json:"points"`
	Lines    map[string]int    `json:"lines"`
	Rule     string            `json:"rule"`
	Bands    int               `json:"bands"`
	Badge    string            `json:"badge"`
	Legend   map[string]string `json:"legend"`
	SVGWidth float64           `json:"svgWidth"`
	Plot     float64           `json:"plot"`
}

func (b *browser) charted(widget string) charted {
	b.t.Helper()
	return evalJS[charted](b, fmt.Sprintf(`(() => {
		const r = document.querySelector(%q).shadowRoot, rates = r.querySelector(".rates");
		const deliver = rates.querySelector('path.line[data-series="deliver"]');
		const d = deliver ? deliver.getAttribute("d") : "";
		const lines = {}, legend = {};
		for (const c of rates.querySelectorAll(".chart")) {
			lines[c.dataset.chart] = c.querySelectorAll("path.line").length;
			for (const li of c.querySelectorAll(".legend li")) {
				legend[li.dataset.series] = li.querySelector(".now").textContent;
			}
		}
		const rule = rates.querySelector(".rule text");
		const svg = rates.querySelector("svg"), badge = rates.querySelector('[data-chart="memory"] .badge');
		return {
			visible: !rates.hidden && rates.offsetHeight > 0,
			pressed: r.querySelector("button.view-rates").getAttribute("aria-pressed"),
			charts: [...rates.querySelectorAll(".chart")].map((c) => c.dataset.chart),
			deliver: d, points: (d.match(/[ML]/g) || []).length, lines,
			rule: rule ? rule.textContent : "", bands: rates.querySelectorAll(".band").length,
			badge: badge.hidden ? "" : badge.textContent,
			legend, svgWidth: svg ? svg.getBoundingClientRect().width : 0,
			plot: svg ? svg.parentElement.clientWidth : 0,
		};
	})()`, widget))
}

// samplesBy counts the samples taken by virtual time t.
func samplesBy(all []engine.Sample, t int64) int {
	n := 0
	for _, x := range all {
		if x.Time <= t {
			n++
		}
	}
	return n
}

// TestRatesView: after a run that moves messages, the Rates view charts the
// engine's samples (a line for deliveries, the watermark crossed and the
// alarm raised), the
// table view lists them, and after a seek back only the samples taken by
// then show; stepping on brings the rest back.
func TestRatesView(t *testing.T) {
	b := newBrowser(t)
	b.open("/test-rates.html")
	s := native(t, scenarioRates)
	all := append([]engine.Sample(nil), s.Samples()...)
	end := s.Furthest()
	over := false
	for _, x := range all {
		over = over || x.Memory > 21500000
	}
	// the first event at which the memory alarm is on
	alarmAt := int64(-1)
	for n := int64(0); n <= end && alarmAt < 0; n += 100 {
		if err := s.SeekEvent(n); err != nil {
			t.Fatal(err)
		}
		if len(s.Snapshot().Alarms) > 0 {
			alarmAt = n
		}
	}
	if len(all) < 6 || !over || alarmAt < 0 {
		t.Fatalf("the scenario gives %d samples (memory over the watermark: %v, alarm at event %d): too little to chart", len(all), over, alarmAt)
	}

	evalJS[bool](b, in("warren-scenario", "button.view-rates")+".click(), true")
	got := b.charted("warren-scenario")
	if !got.Visible || got.Pressed != "true" {
		t.Fatalf("after clicking Rates the view is visible=%v, the button aria-pressed=%s", got.Visible, got.Pressed)
	}
	if strings.Join(got.Charts, ",") != "rates,depth,memory,schedulers" {
		t.Errorf("charts: %q", got.Charts)
	}
	if got.Deliver == "" || got.Points != len(all) {
		t.Errorf("the deliver line has %d points (d=%.80q), want one per sample: %d", got.Points, got.Deliver, len(all))
	}
	if got.Lines["rates"] != 4 || got.Lines["schedulers"] != 2 || got.Lines["depth"] != 1 || got.Lines["memory"] != 1 {
		t.Errorf("lines per chart: %v, want 4 rates, 1 depth, 1 memory, 2 schedulers", got.Lines)
	}
	if got.Rule != "watermark 20.5 MiB" || got.Bands == 0 {
		t.Errorf("the memory chart marks the watermark %q and %d spans over it", got.Rule, got.Bands)
	}
	last := all[len(all)-1]
	if want := fmt.Sprint(last.Depth); got.Legend["depth"] != want {
		t.Errorf("the queued legend says %q, the last sample %s", got.Legend["depth"], want)
	}
	if got.Legend["deliver"] == "" || got.Legend["publish"] == "" || got.Legend["sched0"] == "" {
		t.Errorf("legend: %v", got.Legend)
	}
	b.shotElement("warren-scenario", "rates-view")

	// The table view has the samples as text, and returns to the Rates view.
	evalJS[bool](b, in("warren-scenario", "button.view")+".click(), true")
	type table struct {
		Caption string     `json:"caption"`
		Rows    [][]string `json:"rows"`
	}
	rates := evalJS[table](b, `(() => {
		const t = [...`+in("warren-scenario", ".tables")+`.querySelectorAll("table")].pop();
		return {caption: t.caption.textContent,
			rows: [...t.tBodies[0].rows].map((r) => [...r.cells].map((c) => c.textContent))};
	})()`)
	if rates.Caption != "Rates" || len(rates.Rows) != len(all) {
		t.Fatalf("the last table is %q with %d rows, want Rates with %d", rates.Caption, len(rates.Rows), len(all))
	}
	busiest := ""
	for _, r := range rates.Rows {
		if len(r) == 8 && r[2] != "0/s" {
			busiest = r[2]
		}
	}
	if busiest == "" {
		t.Errorf("no row of the rates table has a delivery: %q", rates.Rows)
	}
	b.shotElement("warren-scenario", "rates-table")
	evalJS[bool](b, in("warren-scenario", "button.view")+".click(), true")
	if got := b.charted("warren-scenario"); !got.Visible {
		t.Errorf("leaving the table view did not go back to the Rates view")
	}

	// After a seek back, only the samples taken by then.
	at := end / 2
	b.scrubTo("warren-scenario", int(at))
	if err := s.SeekEvent(at); err != nil {
		t.Fatal(err)
	}
	want := samplesBy(all, s.Snapshot().Time)
	if want == len(all) || want == 0 || len(s.Snapshot().Alarms) != 0 {
		t.Fatalf("event %d of %d is not in the middle of the samples (%d of %d) or has an alarm", at, end, want, len(all))
	}
	if got := b.charted("warren-scenario"); got.Points != want || got.Badge != "" {
		t.Errorf("at event %d the deliver line has %d points, want %d, and the alarm badge says %q", at, got.Points, want, got.Badge)
	}
	b.shotElement("warren-scenario", "rates-seek-back")
	b.scrubTo("warren-scenario", int(alarmAt))
	if got := b.charted("warren-scenario"); got.Badge != "Alarm: memory" {
		t.Errorf("at event %d, with the memory alarm on, the badge says %q", alarmAt, got.Badge)
	}
	b.shotElement("warren-scenario", "rates-alarm")
	evalJS[bool](b, in("warren-scenario", ".stage")+".focus(), true")
	if err := chromedp.Do(b.ctx, chromedp.KeyEvent(kb.End)); err != nil {
		t.Fatal(err)
	}
	if got := b.charted("warren-scenario"); got.Points != len(all) {
		t.Errorf("back at the end the deliver line has %d points, want %d", got.Points, len(all))
	}

	// A share link keeps the view.
	link := evalJS[string](b, `document.querySelector("warren-scenario").shareURL()`)
	if !strings.Contains(link, "&v=rates") {
		t.Errorf("share link %q does not say v=rates", link)
	}
	fresh := b.tab()
	fresh.open(link)
	if got := fresh.charted("warren-scenario"); !got.Visible || got.Points != len(all) {
		t.Errorf("the share link opened the Rates view %v with %d points", got.Visible, got.Points)
	}
	b.noErrors()
	fresh.noErrors()
}

// TestRatesOnAPhone: on a narrow screen the charts stack, fit the width
// and draw at the width they have.
func TestRatesOnAPhone(t *testing.T) {
	b := newBrowser(t)
	if err := chromedp.Do(b.ctx, chromedp.EmulateViewport(390, 844, chromedp.EmulateMobile, chromedp.EmulateScale(2))); err != nil {
		t.Fatal(err)
	}
	b.open("/test-rates.html")
	evalJS[bool](b, in("warren-scenario", "button.view-rates")+".click(), true")
	got := b.charted("warren-scenario")
	if !got.Visible || got.Points == 0 {
		t.Fatalf("on a phone the Rates view is visible=%v with %d points", got.Visible, got.Points)
	}
	if overflow := evalJS[int](b, `document.documentElement.scrollWidth - document.documentElement.clientWidth`); overflow > 0 {
		t.Errorf("the page scrolls sideways by %d px on a phone", overflow)
	}
	if got.SVGWidth > got.Plot+0.5 || got.SVGWidth < got.Plot-1 {
		t.Errorf("a chart is %.0f px wide in a %.0f px plot", got.SVGWidth, got.Plot)
	}
	cols := evalJS[string](b, `getComputedStyle(`+in("warren-scenario", ".charts")+`).gridTemplateColumns`)
	if strings.Count(cols, "px") != 1 {
		t.Errorf("on a phone the charts are in columns %q, want one", cols)
	}
	b.shot("rates-phone")
	b.noErrors()
}
