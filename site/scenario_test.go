package site

import (
	"net/url"
	"strings"
	"testing"

	"warren/engine"
)

// TestBuiltInScenariosRun runs the scenarios the pages carry (playground,
// embed page, examples) on the engine: none may be refused.
func TestBuiltInScenariosRun(t *testing.T) {
	for name, script := range map[string]string{
		"starter":       starterScript,
		"embed starter": embedStarterScript,
		"example":       exampleEmbedScript,
	} {
		sim := engine.New(engine.Options{Record: true})
		for _, line := range strings.Split(script, "\n") {
			line = strings.TrimSpace(line)
			if line == "" || strings.HasPrefix(line, "#") {
				continue
			}
			for _, out := range sim.Run(line, engine.RunOptions{}).Lines {
				if strings.HasPrefix(out, "error:") {
					t.Errorf("%s: %s: %s", name, line, out)
				}
			}
		}
	}
}

func TestEmbedLink(t *testing.T) {
	script := "queue.declare queue=a&b\nbasic.publish key=a&b body=x y"
	link := embedLink(langEN, "A title", script)
	path, query, ok := strings.Cut(link, "?")
	if !ok || path != "/embed.html" {
		t.Fatalf("link %q", link)
	}
	v, err := url.ParseQuery(query)
	if err != nil {
		t.Fatal(err)
	}
	if v.Get("scenario") != script || v.Get("title") != "A title" {
		t.Errorf("link %q decodes to %v", link, v)
	}
}
