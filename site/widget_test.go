package site

import (
	"bytes"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"warren/engine"
)

// widgetFiles lists the files of static/widget/, the widget's modules and
// their style sheet.
func widgetFiles(t *testing.T) []string {
	t.Helper()
	ents, err := fs.ReadDir(static, "static/widget")
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, e := range ents {
		if !e.IsDir() {
			names = append(names, e.Name())
		}
	}
	if !slices.Contains(names, "element.js") {
		t.Fatalf("static/widget has no element.js: %q", names)
	}
	return names
}

// TestBuildCopiesWidgetModules: the widget's folder arrives whole, each
// file with its .gz copy.
func TestBuildCopiesWidgetModules(t *testing.T) {
	out := buildSite(t)
	for _, name := range widgetFiles(t) {
		want, _ := fs.ReadFile(static, "static/widget/"+name)
		got, err := os.ReadFile(filepath.Join(out, "widget", name))
		if err != nil || !bytes.Equal(got, want) {
			t.Errorf("widget/%s: not copied as it is (%v)", name, err)
		}
		if _, err := os.Stat(filepath.Join(out, "widget", name+".gz")); err != nil {
			t.Errorf("widget/%s has no .gz copy", name)
		}
	}
}

// TestWidgetLoaderListsEveryModule: widget.js preloads every module of
// widget/, and every import between modules names one that is there.
func TestWidgetLoaderListsEveryModule(t *testing.T) {
	loader, err := fs.ReadFile(static, "static/widget.js")
	if err != nil {
		t.Fatal(err)
	}
	list := regexp.MustCompile(`(?s)const MODULES = \[(.*?)\];`).FindSubmatch(loader)
	if list == nil {
		t.Fatal("widget.js has no MODULES list")
	}
	var listed []string
	for _, m := range regexp.MustCompile(`"([^"]+)"`).FindAllSubmatch(list[1], -1) {
		listed = append(listed, string(m[1]))
	}
	var modules []string
	for _, name := range widgetFiles(t) {
		if strings.HasSuffix(name, ".js") {
			modules = append(modules, name)
		}
	}
	if len(listed) == 0 || listed[0] != "element.js" {
		t.Errorf("MODULES should start with element.js: %q", listed)
	}
	slices.Sort(listed)
	if !slices.Equal(listed, modules) {
		t.Errorf("widget.js preloads %q; widget/ has %q", listed, modules)
	}
	imports := regexp.MustCompile(`(?m)^import .* from "(\./[^"]+)";$|new URL\("([^"]+)", import\.meta\.url\)`)
	for _, name := range modules {
		src, _ := fs.ReadFile(static, "static/widget/"+name)
		for _, m := range imports.FindAllSubmatch(src, -1) {
			target := path.Clean(string(m[1]) + string(m[2]))
			if _, err := fs.Stat(static, "static/widget/"+target); err != nil {
				t.Errorf("widget/%s imports %s, which widget/ does not have", name, target)
			}
		}
	}
}

// TestLessonLinesRunWholeCommands: the cut the widget gives a lesson's own
// lines is the engine's budget of one command, so that the browser's time
// budget never stops one and the event budget still does; and the site
// marks its lessons' blocks, and only those, as lessons.
func TestLessonLinesRunWholeCommands(t *testing.T) {
	src, err := fs.ReadFile(static, "static/widget/running.js")
	if err != nil {
		t.Fatal(err)
	}
	m := regexp.MustCompile(`const WHOLE_COMMAND = ([\d_]+);`).FindSubmatch(src)
	if m == nil {
		t.Fatal("running.js has no WHOLE_COMMAND")
	}
	if got := strings.ReplaceAll(string(m[1]), "_", ""); got != strconv.Itoa(engine.CommandEvents) {
		t.Errorf("WHOLE_COMMAND is %s, engine.CommandEvents %d", got, engine.CommandEvents)
	}
	var lesson, other bytes.Buffer
	if err := scenarioElement(scenarioView{Script: "x", Lesson: true}).Render(t.Context(), &lesson); err != nil {
		t.Fatal(err)
	}
	if err := scenarioElement(scenarioView{Script: "x"}).Render(t.Context(), &other); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(lesson.String(), " data-lesson") || strings.Contains(other.String(), "data-lesson") {
		t.Errorf("a lesson's block should carry data-lesson, and no other:\n%s\n%s", lesson.String(), other.String())
	}
}
