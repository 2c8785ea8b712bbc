package browser_test

import (
	"strings"
	"testing"

	"warren/tutorials"
)

// TestPlaygroundTutorials: the playground lists RabbitMQ's six tutorials,
// and each link opens the playground running that tutorial's scenario to
// its end, showing what the engine shows natively. The Chinese playground
// opens the Chinese twins: the editor holds the script commented in
// Chinese.
func TestPlaygroundTutorials(t *testing.T) {
	b := newBrowser(t)
	for _, lang := range []string{"en", "zh"} {
		page := inLangPath(lang, "/playground/")
		b.open(page)
		links := evalJS[[]string](b, `[...document.querySelectorAll(".playground-tutorials a")].map(a => a.href)`)
		all := tutorials.In(lang)
		if len(links) != len(all) {
			t.Fatalf("%s lists %d tutorials, want %d", page, len(links), len(all))
		}
		for i, tu := range all {
			if !strings.Contains(links[i], page+"#w=") {
				t.Fatalf("%s: link %q is not a share link of %s", tu.Slug, links[i], page)
			}
			tab := b.tab()
			tab.open(links[i])
			got := tab.shown("warren-scenario")
			s := native(t, tu.Script())
			if got.End == 0 || got.End != s.Furthest() {
				t.Errorf("%s %s: the playground ran to event %d, the engine natively to %d", lang, tu.Slug, got.End, s.Furthest())
			}
			ready, _ := want(t, s, got.Pos)
			sameCounts(t, lang+" "+tu.Slug+" ready", got.Ready, ready)
			script := evalJS[string](tab, in("warren-scenario", "textarea.script")+".value")
			first := strings.SplitN(tu.Script(), "\n", 2)[0]
			if !strings.HasPrefix(script, first+"\n") {
				t.Errorf("%s %s: the editor holds %.120q, want the script that starts %q", lang, tu.Slug, script, first)
			}
			tab.noErrors()
		}
	}
	b.noErrors()
}

// inLangPath is path on the site of lang: /zh/playground/ for zh.
func inLangPath(lang, path string) string {
	if lang == "en" {
		return path
	}
	return "/" + lang + path
}
