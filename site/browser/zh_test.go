package browser_test

import (
	"strings"
	"testing"

	"github.com/chromedp/chromedp"

	"warren/lessons"
)

// widgetEnglish is JavaScript that lists the phrases of the English
// catalog (two words or more, cut at their {parameters}) that any widget
// of the page shows or speaks: its text and the words of its title,
// aria-label, placeholder and aria-valuetext attributes, and what it
// announced. The console's log, the events list and the goal lines are
// left out: they hold commands and what the engine and RabbitMQ print,
// which stay as they are in every language.
const widgetEnglish = `(async () => {
	const en = (await import("/widget/i18n-en.js")).default;
	const phrases = new Set();
	for (const [key, text] of Object.entries(en)) {
		if (key.startsWith("engine.") || key === "site.name") continue;
		for (let piece of text.replace(/<[^>]*>/g, " ").split(/\{\w+\}/)) {
			piece = piece.replace(/^[\s.,:;()]+|[\s.,:;()]+$/g, "").replace(/\s+/g, " ");
			if (piece.includes(" ") && piece.length >= 8) phrases.add(piece);
		}
	}
	const skip = ".log, .events, code, pre, .goal-line, .solution";
	const words = [];
	const walk = (n) => {
		if (n.nodeType === 3) { words.push(n.data); return; }
		if (n.nodeType !== 1 && n.nodeType !== 11) return;
		if (n.nodeType === 1) {
			if (n.matches(skip) || n.hidden) return;
			for (const a of ["title", "aria-label", "placeholder", "aria-valuetext"]) if (n.hasAttribute(a)) words.push(n.getAttribute(a));
			if (n.tagName === "STYLE") return;
		}
		for (const c of n.childNodes) walk(c);
	};
	for (const w of document.querySelectorAll("warren-scenario")) walk(w.shadowRoot);
	const text = words.join("\n").replace(/[ \t]+/g, " ");
	const found = [...phrases].filter((p) => text.includes(p));
	// Words of warren's own that no catalog holds yet: three English words
	// in a row.
	for (const m of text.matchAll(/\b[A-Za-z][a-z]+(?: [a-z]{2,}){2,}\b/g)) found.push(m[0]);
	return found;
})()`

// TestChineseWidgetsSpeakChinese: on the Chinese playground and a Chinese
// lesson page, after stepping, playing, opening every view and a hint,
// no widget shows or says a phrase of the English catalog.
func TestChineseWidgetsSpeakChinese(t *testing.T) {
	b := newBrowser(t)
	for _, path := range chinesePagesWithWidgets(t) {
		b.open(path)
		for _, view := range []string{".view-rates", ".view-files", ".view", ".view"} {
			evalJS[bool](b, `(() => { for (const w of document.querySelectorAll("warren-scenario")) { const r = w.shadowRoot; r.querySelector(".step").click(); r.querySelector(".back").click(); r.querySelector("`+view+`").click(); r.querySelector(".share").click(); const h = r.querySelector(".show-hint"); if (h && !h.hidden) h.click(); } return true; })()`)
			if got := evalJS[[]string](b, widgetEnglish); len(got) > 0 {
				t.Errorf("%s (after %s): the widgets show English: %q", path, view, got)
			}
		}
		if lang := evalJS[string](b, `document.documentElement.lang`); lang != "zh-CN" {
			t.Errorf("%s: <html lang=%q>", path, lang)
		}
	}
	b.noErrors()
}

// chinesePagesWithWidgets are the Chinese pages the widget test opens:
// the playground, and the first lesson translated.
func chinesePagesWithWidgets(t *testing.T) []string {
	paths := []string{"/zh/playground/"}
	tl, err := lessons.In("zh")
	if err != nil {
		t.Fatal(err)
	}
	if len(tl) > 0 {
		paths = append(paths, "/zh/lessons/"+tl[0].Slug+"/")
	}
	return paths
}

// TestChineseLessonScreenshots takes the screenshots of a Chinese lesson
// and of the Chinese playground on a desktop (1280x800) and a phone
// (390x844) that show whether any glyph is missing, and checks that the
// page's fonts have CJK glyphs.
func TestChineseLessonScreenshots(t *testing.T) {
	paths := chinesePagesWithWidgets(t)
	for i, path := range []string{paths[len(paths)-1], "/zh/playground/"} {
		chinesePageScreenshots(t, path, []string{"zh", "zh-playground"}[i])
	}
}

// chinesePageScreenshots shoots the top of the page at path and its first
// widget on a desktop and on a phone, as name-desktop-top.png and so on.
func chinesePageScreenshots(t *testing.T, path, name string) {
	for _, size := range []struct {
		name string
		w, h int64
		opts []chromedp.EmulateViewportOption
	}{
		{name + "-desktop", 1280, 800, nil},
		{name + "-phone", 390, 844, []chromedp.EmulateViewportOption{chromedp.EmulateMobile, chromedp.EmulateScale(2)}},
	} {
		b := newBrowser(t)
		if err := chromedp.Do(b.ctx, chromedp.EmulateViewport(size.w, size.h, size.opts...)); err != nil {
			t.Fatal(err)
		}
		b.open(path)
		font := evalJS[string](b, `getComputedStyle(document.body).fontFamily`)
		if !strings.Contains(font, "Noto Sans CJK SC") || !strings.Contains(font, "Microsoft YaHei") || !strings.Contains(font, "PingFang SC") {
			t.Errorf("%s: the body's fonts are %s, without the CJK stack", size.name, font)
		}
		if !evalJS[bool](b, `document.fonts.check("16px 'Noto Sans CJK SC'", "队列确认流控")`) {
			t.Errorf("%s: no Noto Sans CJK SC for Chinese text (apt-get install fonts-noto-cjk)", size.name)
		}
		overflow := evalJS[int](b, `document.documentElement.scrollWidth - document.documentElement.clientWidth`)
		if overflow > 0 {
			t.Errorf("%s: the page scrolls sideways by %d px", size.name, overflow)
		}
		evalJS[bool](b, `(window.scrollTo(0, 0), true)`)
		b.shotViewport(size.name + "-top")
		evalJS[bool](b, `(document.querySelector("warren-scenario").scrollIntoView(), true)`)
		b.shotViewport(size.name + "-widget")
		b.noErrors()
	}
}

// shotViewport saves a PNG of what the viewport shows.
func (b *browser) shotViewport(name string) {
	b.t.Helper()
	b.saveShot(name, chromedp.CaptureScreenshot())
}
