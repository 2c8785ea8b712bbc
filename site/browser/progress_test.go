package browser_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"

	"warren/lessons"
)

// TestProgressKeptExportedImported: solving an exercise marks its lesson
// on the lesson list; the mark survives a reload; the exported file,
// imported into a browser that has forgotten everything, brings it back,
// and a damaged file is refused with a message.
func TestProgressKeptExportedImported(t *testing.T) {
	b := newBrowser(t)
	const w = `warren-scenario[aria-label="Exercise: a dead entry"]`
	// the lesson's list counts its exercises and its questions
	total, questions := 0, 0
	all, _ := lessons.All()
	for _, l := range all {
		if l.Slug == "where-a-message-lands" {
			blocks, _ := l.Scenarios()
			for _, bl := range blocks {
				if bl.Info.Exercise {
					total++
				}
				qs, err := bl.Questions()
				if err != nil {
					t.Fatal(err)
				}
				questions += len(qs)
			}
		}
	}
	total += questions
	one := fmt.Sprintf("1 of %d exercises done", total)
	if questions > 0 {
		one = fmt.Sprintf("1 of %d exercises and questions done", total)
	}
	if total == 1 {
		one = "Done: 1 of 1 exercises"
	}
	b.open("/lessons/where-a-message-lands/")
	evalJS[bool](b, `localStorage.clear(), true`)
	root := "document.querySelector(`" + w + "`).shadowRoot"
	for _, line := range []string{"basic.publish key=orders size=5000 count=2 persistent", "basic.get queue=orders no-ack"} {
		evalJS[bool](b, root+`.querySelector("input.cmd").focus(), true`)
		if err := chromedp.Do(b.ctx, chromedp.KeyEvent(line+"\r")); err != nil {
			t.Fatal(err)
		}
	}
	var kept string
	for range 40 {
		if kept = evalJS[string](b, `localStorage.getItem("warren-progress") || ""`); kept != "" {
			break
		}
		evalJS[bool](b, "new Promise((r) => setTimeout(() => r(true), 100))")
	}
	if !strings.Contains(kept, `"/lessons/where-a-message-lands/#Exercise: a dead entry"`) {
		t.Fatalf("after the goals were met the progress is %q", kept)
	}
	badge := func() string {
		return evalJS[string](b, `(() => { const p = document.querySelector('ol.lesson-list li[data-href="/lessons/where-a-message-lands/"] .progress'); return p ? p.textContent : "(none)"; })()`)
	}
	b.open("/lessons/")
	if got := badge(); got != one {
		t.Errorf("the lesson list says %q for the files lesson", got)
	}
	b.open("/lessons/") // a reload
	if got := badge(); got != one {
		t.Errorf("after a reload the lesson list says %q", got)
	}
	b.shot("progress-lessons")
	// Export: the file the button saves is the progress.
	evalJS[bool](b, `document.querySelector("[data-role=export]").click(), true`)
	exported := evalJS[string](b, `(async () => {
		const a = document.querySelector("[data-role=export-file]");
		return a.download + "\n" + decodeURIComponent(a.href.slice(a.href.indexOf(",") + 1));
	})()`)
	name, body, _ := strings.Cut(exported, "\n")
	if name != "warren-progress.json" || !strings.Contains(body, "Exercise: a dead entry") {
		t.Fatalf("export saved %q: %.200s", name, body)
	}
	evalJS[bool](b, `localStorage.clear(), true`)
	b.open("/lessons/")
	if got := badge(); got != strings.Replace(one, "1 of", "0 of", 1) {
		t.Errorf("with the progress cleared the list says %q", got)
	}
	load := func(name, text string) string {
		return evalJS[string](b, `new Promise((done) => {
			const input = document.querySelector("[data-role=import-file]"), dt = new DataTransfer();
			dt.items.add(new File([`+"`"+strings.ReplaceAll(text, "`", "\\`")+"`"+`], "`+name+`", {type: "application/json"}));
			input.files = dt.files;
			input.dispatchEvent(new Event("change"));
			setTimeout(() => done(document.querySelector(".progress-status").textContent), 300);
		})`)
	}
	if said := load("room.json", `{"format": "something else"}`); !strings.Contains(said, "room.json was not imported: not a warren progress file") {
		t.Errorf("a damaged file: %q", said)
	}
	if said := load("mine.json", body); said != "Imported mine.json: 1 more exercises done." {
		t.Errorf("importing the export says %q", said)
	}
	if got := badge(); got != one {
		t.Errorf("after the import the list says %q", got)
	}
	b.noErrors()
}
