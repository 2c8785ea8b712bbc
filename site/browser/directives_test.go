package browser_test

import (
	"fmt"
	"slices"
	"strings"
	"testing"
)

// TestBadDirectivesSayWhereAndWhat: a widget whose script has an unknown
// directive, or a #@cut without its number, says in its console which
// line and what, in the reader's language, names the first in its
// problem banner, and runs the rest of its script as if they were not
// there; its share link keeps the script as it was given.
func TestBadDirectivesSayWhereAndWhat(t *testing.T) {
	b := newBrowser(t)
	site := siteURL(t)
	const script = "queue.declare queue=q\n#@sek 3\nbasic.publish key=q count=2\n#@cut many\nbasic.publish key=q count=1\n#@cut 100000\nbasic.publish key=q count=1"
	page := func(id, lang string) string {
		return fmt.Sprintf("<script type=\"text/warren\" id=%q lang=%q>\n%s\n</script>\n", id, lang, script)
	}
	host := hostPages(t, site, map[string]string{"/directives.html": page("en", "en") + page("zh", "zh")})
	b.open(host + "/directives.html")
	for _, c := range []struct {
		widget string
		want   map[string]string // a directive line, and the console's answer to it
	}{
		{"#en", map[string]string{
			"#@sek 3":    "error: line 2, unknown widget directive #@sek",
			"#@cut many": "error: line 4, #@cut takes a number of events, not many",
		}},
		{"#zh", map[string]string{
			"#@sek 3":    "错误：第 2 行，未知的组件指令 #@sek",
			"#@cut many": "错误：第 4 行，#@cut 需要一个事件数，而不是 many",
		}},
	} {
		entries := evalJS[[][]string](b, fmt.Sprintf(`[...%s.querySelectorAll(".entry")].map((e) => [e.querySelector(".cmdline").textContent.replace(/^› /, ""), ...[...e.querySelectorAll(".out")].map((o) => o.textContent)])`, in(c.widget, ".log")))
		for line, answer := range c.want {
			i := slices.IndexFunc(entries, func(e []string) bool { return e[0] == line })
			if i < 0 {
				t.Errorf("%s: the console has no entry for %q: %q", c.widget, line, entries)
				continue
			}
			if got := entries[i][1:]; len(got) != 1 || got[0] != answer {
				t.Errorf("%s: %q answered %q, want %q", c.widget, line, got, answer)
			}
		}
		if s := b.shown(c.widget); s.Ready["q"] != 4 {
			t.Errorf("%s: queue q shows %d ready, want 4: a refused directive changes nothing", c.widget, s.Ready["q"])
		}
		if got := evalJS[string](b, fmt.Sprintf(`document.querySelector(%q).shareScript()`, c.widget)); got != script {
			t.Errorf("%s: the share script is %q, want the script as given", c.widget, got)
		}
	}
	banner := evalJS[string](b, in("#en", ".problem")+".textContent")
	if !strings.Contains(banner, "line 2: #@sek 3") {
		t.Errorf("the problem banner says %q, want the first refused line, 2", banner)
	}
	b.noErrors()
}
