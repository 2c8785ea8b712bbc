package tutorials

import (
	"regexp"
	"strings"
	"testing"

	"warren/engine/scenario"
)

// cases is what the scenario parser reads in a tutorial file: each case's
// commands and recorded output.
func cases(t *testing.T, name, file string) string {
	t.Helper()
	f, err := scenario.Parse(name+".txt", file)
	if err != nil {
		t.Fatal(err)
	}
	var b strings.Builder
	for _, c := range f.Cases {
		for _, s := range c.Steps {
			b.WriteString(s.Command + "\n")
		}
		b.WriteString("----\n" + strings.Join(c.Expected, "\n") + "\n\n")
	}
	return b.String()
}

func TestAll(t *testing.T) {
	all := All()
	if len(all) != 6 {
		t.Fatalf("%d tutorials, want 6", len(all))
	}
	for _, tu := range all {
		if tu.Title == "" {
			t.Errorf("%s has no title", tu.Slug)
		}
		f, err := scenario.Parse(tu.Slug+".txt", tu.File)
		if err != nil {
			t.Fatal(err)
		}
		if len(f.Cases) < 3 {
			t.Errorf("%s has %d cases, want a tutorial's steps", tu.Slug, len(f.Cases))
		}
		for _, c := range f.Cases {
			if c.Expected == nil {
				t.Errorf("%s.txt:%d: the case records no output from the broker", tu.Slug, c.Line)
			}
		}
		s := tu.Script()
		if strings.Contains(s, "----") || strings.Contains(s, "\nc1.1 ") || strings.Contains(s, "\nc2.1 ") {
			t.Errorf("%s: the script keeps recorded output:\n%s", tu.Slug, s)
		}
		if !strings.Contains(s, "queue.declare") {
			t.Errorf("%s: the script lost its commands", tu.Slug)
		}
	}
}

// TestChineseTwins: each tutorial has a Chinese twin with the same
// commands and recorded output line for line (so it prints the same
// trace), and every comment of the twin is Chinese but the client code it
// quotes, which is the English one's.
func TestChineseTwins(t *testing.T) {
	en, zh := In("en"), In("zh")
	if len(zh) != len(en) {
		t.Fatalf("%d Chinese twins of %d tutorials", len(zh), len(en))
	}
	han := regexp.MustCompile(`\p{Han}`)
	for i, e := range en {
		z := zh[i]
		if z.Slug != e.Slug || z.Title != e.Title {
			t.Errorf("twin %d is %s %q, want %s %q", i, z.Slug, z.Title, e.Slug, e.Title)
			continue
		}
		split := func(file string) (lines, comments []string) {
			for _, l := range strings.Split(file, "\n") {
				if strings.HasPrefix(l, "#") {
					comments = append(comments, l)
				} else {
					lines = append(lines, l)
				}
			}
			return lines, comments
		}
		el, ec := split(e.File)
		zl, zc := split(z.File)
		if strings.Join(el, "\n") != strings.Join(zl, "\n") {
			t.Errorf("%s: the twin's commands and output are not the English ones:\n%s\nwant\n%s", z.Slug, strings.Join(zl, "\n"), strings.Join(el, "\n"))
		}
		if a, b := cases(t, "zh/"+z.Slug, z.File), cases(t, e.Slug, e.File); a != b {
			t.Errorf("%s: the twin's cases are not the English ones:\n%s\nwant\n%s", z.Slug, a, b)
		}
		code := map[string]bool{}
		for _, c := range ec {
			if strings.HasPrefix(c, "#   ") {
				code[c] = true
			}
		}
		quoted := 0
		for _, c := range zc {
			switch {
			case c == "#":
			case strings.HasPrefix(c, "#   "):
				if !code[c] {
					t.Errorf("%s: the twin quotes client code the English one does not: %q", z.Slug, c)
				}
				quoted++
			case !han.MatchString(c):
				t.Errorf("%s: a comment of the twin is not Chinese: %q", z.Slug, c)
			}
		}
		if quoted != len(code) {
			t.Errorf("%s: the twin quotes %d lines of client code, the English one %d", z.Slug, quoted, len(code))
		}
		if s := z.Script(); !han.MatchString(s) || strings.Contains(s, "----") {
			t.Errorf("%s: the twin's script is not its commented commands:\n%s", z.Slug, s)
		}
	}
	if got := In("fr"); len(got) != len(en) || got[0].File != en[0].File {
		t.Errorf("a language without twins gets %d tutorials, not the English ones", len(got))
	}
}
