package browser_test

import (
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"

	"warren/engine/script"

	"warren/site/widgettest"
)

// consoleShown is JavaScript that reads what a widget's console and
// events list show: each output line (its text, its title, whether it is
// an error or an explanation), the hint under the prompt, and each line
// of the events list with its title.
const consoleShown = `(() => {
	const r = document.querySelector("warren-scenario").shadowRoot;
	return {
		out: [...r.querySelectorAll(".log .out")].map((e) => ({text: e.textContent, title: e.title, err: e.classList.contains("err"), explain: e.classList.contains("explain")})),
		hint: r.querySelector(".console .hint").textContent,
		events: [...r.querySelectorAll(".events li")].map((e) => ({text: e.textContent, title: e.title})),
	};
})()`

type shownLine struct {
	Text    string `json:"text"`
	Title   string `json:"title"`
	Err     bool   `json:"err"`
	Explain bool   `json:"explain"`
}

type shownConsole struct {
	Out    []shownLine `json:"out"`
	Hint   string      `json:"hint"`
	Events []shownLine `json:"events"`
}

// quoted and cjk are what englishWords leaves out of a line: quoted
// texts (RabbitMQ's replies, the reader's own values) and Chinese.
var (
	quoted = regexp.MustCompile(`"(?:[^"\\]|\\.)*"|'[^']*'`)
	cjk    = regexp.MustCompile(`[\x{3000}-\x{303f}\x{3400}-\x{9fff}\x{ff00}-\x{ffef}]+`)
	hasCJK = regexp.MustCompile(`[\x{3400}-\x{9fff}]`)
)

// englishWords finds three English words in a row in text that are not
// the command language's (command names, argument keys and values), or "".
func englishWords(text string) string {
	code := map[string]bool{}
	for _, name := range script.Names() {
		spec, _ := script.Lookup(name)
		code[name] = true
		for _, p := range spec.Params {
			code[p.Key] = true
			for _, v := range p.Values {
				code[v] = true
			}
		}
		for _, w := range spec.WordSet {
			code[w] = true
		}
	}
	bare := cjk.ReplaceAllString(quoted.ReplaceAllString(text, " \x00 "), " \x00 ")
	var run []string
	word := regexp.MustCompile(`^[A-Za-z]+$`)
	for _, tok := range strings.FieldsFunc(bare, func(r rune) bool { return r == ' ' || r == ',' || r == ';' || r == '\n' || r == '\t' }) {
		if word.MatchString(tok) && !code[tok] && strings.ToUpper(tok) != tok {
			run = append(run, tok)
			if len(run) >= 3 {
				return strings.Join(run, " ")
			}
		} else {
			run = run[:0]
		}
	}
	return ""
}

// TestChineseConsoleSpeaksChinese types the typical mistakes of a reader
// new to the console into the Chinese playground (an unknown command, an
// unknown argument, bad values, a missing argument, an unknown delivery
// tag, a queue that is not there, a closed channel used again, refused
// engine commands) and checks what the console and the events list show:
// warren's own words in Chinese with the English line in the title,
// RabbitMQ's replies as RabbitMQ wrote them with a Chinese explanation
// under each, and the events list's lines in Chinese with the English in
// the title. It saves screenshots at desktop and phone size.
func TestChineseConsoleSpeaksChinese(t *testing.T) {
	if englishWords("错误：unknown command foo") == "" || englishWords(`kind 必须是 clean, crash, power-loss 之一 text="PRECONDITION_FAILED - unknown delivery tag"`) != "" {
		t.Fatal("englishWords does not tell prose from the command language")
	}
	b := newBrowser(t)
	b.open("/zh/playground/")
	w := "warren-scenario"
	typeLine := func(line string) {
		t.Helper()
		evalJS[bool](b, in(w, "input.cmd")+".focus(), true")
		if err := chromedp.Do(b.ctx, chromedp.KeyEvent(line+"\r")); err != nil {
			t.Fatal(err)
		}
	}
	before := len(evalJS[shownConsole](b, consoleShown).Out)
	for _, line := range widgettest.TypicalMistakes {
		typeLine(line)
	}
	got := evalJS[shownConsole](b, consoleShown)
	out := got.Out[before:]
	var errs, replies, explained int
	ctl := regexp.MustCompile(`^错误：(Validation failed|Parameter does not exist)`)
	for i, l := range out {
		if ctl.MatchString(l.Text) {
			// rabbitmqctl's own words stay, with what they mean under them
			if i+1 >= len(out) || !out[i+1].Explain || !strings.HasPrefix(out[i+1].Text, "↳ rabbitmqctl") {
				t.Errorf("no Chinese explanation under rabbitmqctl's %q", l.Text)
			}
			continue
		}
		if run := englishWords(l.Text); run != "" {
			t.Errorf("the console shows English %q in %q", run, l.Text)
		}
		if l.Err {
			errs++
			if !hasCJK.MatchString(l.Text) || !strings.HasPrefix(l.Text, "错误：") {
				t.Errorf("an error not in Chinese: %q", l.Text)
			}
			if !strings.HasPrefix(l.Title, "error: ") {
				t.Errorf("the error %q has no English original in its title (title %q)", l.Text, l.Title)
			}
		}
		if strings.Contains(l.Text, " closed code=") {
			replies++
			if !regexp.MustCompile(`text="[A-Z_]+ - `).MatchString(l.Text) {
				t.Errorf("RabbitMQ's reply is not as RabbitMQ wrote it: %q", l.Text)
			}
			if i+1 < len(out) && out[i+1].Explain && hasCJK.MatchString(out[i+1].Text) {
				explained++
			} else {
				t.Errorf("no Chinese explanation under %q", l.Text)
			}
		}
	}
	if errs < 15 || replies < 6 || explained != replies {
		t.Errorf("the mistakes showed %d errors and %d replies, %d explained: want at least 15 and 6, each explained", errs, replies, explained)
	}
	for _, want := range []string{"错误：第 1 列：未知命令 \"frobnicate\"", "basic.qos：prefetch 必须是整数", "queue.bind：缺少 exchange=", "目标未达成：", "（用法：queue.declare queue=Q"} {
		if !slices.ContainsFunc(out, func(l shownLine) bool { return strings.Contains(l.Text, want) }) {
			t.Errorf("no console line says %q", want)
		}
	}

	if len(got.Events) < 5 {
		t.Fatalf("the events list shows %d lines", len(got.Events))
	}
	for _, e := range got.Events {
		if !hasCJK.MatchString(e.Text) || strings.Contains(e.Text, "sched=") || englishWords(e.Text) != "" {
			t.Errorf("an event line not in Chinese: %q", e.Text)
		}
		if !strings.HasPrefix(e.Title, "#") || !strings.Contains(e.Title, " sched=") {
			t.Errorf("the event %q has no English line in its title (%q)", e.Text, e.Title)
		}
	}

	// the hint under the prompt: a value's kind and the usage
	evalJS[bool](b, in(w, "input.cmd")+`.value = "basic.qos prefetch=", true`)
	evalJS[bool](b, in(w, "input.cmd")+".focus(), true")
	if err := chromedp.Do(b.ctx, chromedp.KeyEvent(kb.Tab)); err != nil {
		t.Fatal(err)
	}
	if hint := evalJS[shownConsole](b, consoleShown).Hint; !strings.HasPrefix(hint, "prefetch：整数。用法：basic.qos prefetch=N") || englishWords(hint) != "" {
		t.Errorf("the hint for prefetch= says %q", hint)
	}
	evalJS[bool](b, in(w, "input.cmd")+`.value = "", true`)

	// the log scrolled to a reply's explanation, as a reader sees it
	evalJS[bool](b, `(() => { const r = document.querySelector("warren-scenario").shadowRoot; const x = [...r.querySelectorAll(".log .out.explain")].find((e) => e.textContent.includes("NOT_ALLOWED")); x.scrollIntoView({block: "center"}); return true; })()`)
	b.shotElement(w, "zh-console-desktop")
	if err := chromedp.Do(b.ctx, chromedp.EmulateViewport(390, 844, chromedp.EmulateMobile, chromedp.EmulateScale(2))); err != nil {
		t.Fatal(err)
	}
	evalJS[bool](b, `(() => { const r = document.querySelector("warren-scenario").shadowRoot; [...r.querySelectorAll(".log .out.explain")].find((e) => e.textContent.includes("NOT_ALLOWED")).scrollIntoView({block: "center"}); return true; })()`)
	b.shotViewport("zh-console-phone")
	evalJS[bool](b, in(w, ".events")+".scrollIntoView(), true")
	b.shotViewport("zh-events-phone")

	// a mistake in the scenario editor: the problem box says it in Chinese
	evalJS[bool](b, in(w, "textarea.script")+`.value = "queue.declare queue=q\nbasic.qos prefetch=lots\n", true`)
	evalJS[bool](b, in(w, "button.run-script")+".click(), true")
	problem := evalJS[string](b, `(async () => {
		const r = document.querySelector("warren-scenario").shadowRoot;
		for (let i = 0; i < 100 && r.querySelector(".problem").hidden; i++) await new Promise((d) => setTimeout(d, 50));
		return r.querySelector(".problem").textContent;
	})()`)
	if !strings.Contains(problem, `第 2 行第 11 列：basic.qos：prefetch 必须是整数，收到的是 "lots"（用法：basic.qos prefetch=N [global]）`) || englishWords(problem) != "" {
		t.Errorf("the problem box says %q", problem)
	}
	evalJS[bool](b, in(w, ".problem")+".scrollIntoView(), true")
	b.shotViewport("zh-problem-phone")
	b.noErrors()
}

// TestChineseLessonConsoleSpeaksChinese opens the Chinese lesson on dead
// bytes and compaction, whose blocks print show gc's steps, and checks
// every widget's console and events list: no English of warren's own.
func TestChineseLessonConsoleSpeaksChinese(t *testing.T) {
	b := newBrowser(t)
	b.open("/zh/lessons/dead-bytes-and-compaction/")
	got := evalJS[[]shownConsole](b, `[...document.querySelectorAll("warren-scenario")].map((w) => {
		const r = w.shadowRoot;
		return {
			out: [...r.querySelectorAll(".log .out")].map((e) => ({text: e.textContent, title: e.title})),
			events: [...r.querySelectorAll(".events li")].map((e) => ({text: e.textContent, title: e.title})),
		};
	})`)
	var lines, gc, events int
	for _, w := range got {
		for _, l := range w.Out {
			lines++
			if strings.HasPrefix(l.Title, "gc ") {
				gc++
			}
			if run := englishWords(regexp.MustCompile(` body=.*$`).ReplaceAllString(l.Text, "")); run != "" {
				t.Errorf("the lesson's console shows English %q in %q", run, l.Text)
			}
		}
		for _, e := range w.Events {
			events++
			if !hasCJK.MatchString(e.Text) || englishWords(e.Text) != "" || !strings.HasPrefix(e.Title, "#") {
				t.Errorf("an event line not in Chinese: %q (title %q)", e.Text, e.Title)
			}
		}
	}
	if len(got) < 3 || lines < 20 || gc < 3 || events < 10 {
		t.Errorf("the lesson's %d widgets showed %d console lines (%d of show gc said again) and %d events", len(got), lines, gc, events)
	}
	b.noErrors()
}
