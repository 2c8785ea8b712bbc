package site

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"testing/fstest"
)

// TestHandlerCachesVersionedFilesForAYear: the files under v/ are sent
// immutable for a year, with their types and compressed copies as any
// other; widget.js and widget.css, which pages name, five minutes; pages,
// other files and a missing versioned file (the 404 page) no-cache.
func TestHandlerCachesVersionedFilesForAYear(t *testing.T) {
	dir, _ := fakeSite(t)
	for name, body := range map[string]string{
		"v/0123456789ab/widget/bundle.js": "export const define = () => {};",
		"v/0123456789ab/warren.wasm":      "\x00asm\x01\x00\x00\x00",
		"widget.css":                      "warren-scenario { display: block }",
	} {
		if err := writeFile(filepath.Join(dir, filepath.FromSlash(name)), []byte(body)); err != nil {
			t.Fatal(err)
		}
	}
	h := Handler(dir)
	for target, want := range map[string]string{
		"/v/0123456789ab/widget/bundle.js": "public, max-age=31536000, immutable",
		"/v/0123456789ab/warren.wasm":      "public, max-age=31536000, immutable",
		"/widget.js":                       "public, max-age=300",
		"/widget.css":                      "public, max-age=300",
		"/":                                "no-cache",
		"/lessons/a/":                      "no-cache",
		"/widget/element.js":               "no-cache",
		"/v/0123456789ab/gone.js":          "no-cache",
		"/v/":                              "no-cache",
	} {
		res := get(t, h, "GET", target, "Accept-Encoding", "gzip")
		if got := res.Header.Get("Cache-Control"); got != want {
			t.Errorf("%s (%d): Cache-Control %q, want %q", target, res.StatusCode, got, want)
		}
	}
	if res := get(t, h, "GET", "/v/0123456789ab/warren.wasm"); res.StatusCode != 200 || res.Header.Get("Content-Type") != "application/wasm" {
		t.Errorf("versioned warren.wasm: %d %q", res.StatusCode, res.Header.Get("Content-Type"))
	} else if res.Header.Get("Timing-Allow-Origin") != "*" {
		t.Errorf("versioned warren.wasm: Timing-Allow-Origin %q, want * (a host page cannot see what it cost)", res.Header.Get("Timing-Allow-Origin"))
	}
}

// TestHostHeadersCacheVersionedFiles: the build's _headers gives a static
// host the same lifetimes as Handler: a year and immutable for /v/*, five
// minutes for widget.js and widget.css, and nothing for the rest.
func TestHostHeadersCacheVersionedFiles(t *testing.T) {
	out := buildSite(t)
	b, err := os.ReadFile(filepath.Join(out, "_headers"))
	if err != nil {
		t.Fatal(err)
	}
	rules := map[string]string{}
	var at string
	for _, line := range strings.Split(string(b), "\n") {
		if strings.HasPrefix(line, "/") {
			at = line
		} else if v, ok := strings.CutPrefix(line, "  Cache-Control: "); ok {
			if rules[at] != "" {
				t.Errorf("%s has two Cache-Control lines", at)
			}
			rules[at] = v
		}
	}
	want := map[string]string{
		"/v/*":        "public, max-age=31536000, immutable",
		"/widget.js":  "public, max-age=300",
		"/widget.css": "public, max-age=300",
	}
	if len(rules) != len(want) {
		t.Errorf("_headers sets Cache-Control for %q, want %q", rules, want)
	}
	for addr, v := range want {
		if rules[addr] != v {
			t.Errorf("_headers: %s Cache-Control %q, want %q", addr, rules[addr], v)
		}
	}
}

// TestBuildWritesVersionedWidget: the build writes the bundled modules, the
// worker and the style sheets under v/<hash>/, widget.js loads them from
// there, package.json packs that folder, and the hash is the content's: a
// second build of the same files names the same folder.
func TestBuildWritesVersionedWidget(t *testing.T) {
	out := buildSite(t)
	loader, err := os.ReadFile(filepath.Join(out, "widget.js"))
	if err != nil {
		t.Fatal(err)
	}
	m := regexp.MustCompile(`const VERSION = "(v/[0-9a-f]{12}/)";`).FindSubmatch(loader)
	if m == nil {
		t.Fatalf("the built widget.js names no versioned folder")
	}
	version := string(m[1])
	for _, name := range []string{"widget/bundle.js", "widget/engine-worker.js", "widget.css", "widget/files.css", "widget/rates.css", "widget/teach.css"} {
		if _, err := os.Stat(filepath.Join(out, filepath.FromSlash(version+name))); err != nil {
			t.Errorf("the build did not write %s%s: %v", version, name, err)
		}
	}
	pkg, err := os.ReadFile(filepath.Join(out, "package.json"))
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(pkg), `"files": ["widget.js","widget.css","`+version+`widget/*.js","`+version+`widget/*.css","`+version+`widget.css","`+version+`warren.wasm","`+version+`inspect.wasm","`+version+`wasm_exec.js"]`) {
		t.Errorf("package.json does not pack widget.js, widget.css and %s:\n%s", version, pkg)
	}
	again := t.TempDir()
	if err := Build(again, BuildOptions{SkipWasm: true}); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(again, filepath.FromSlash(version+"widget/bundle.js"))); err != nil {
		t.Errorf("a second build of the same files did not write %s: %v", version, err)
	}
}

// TestBundleKeepsModulesApart: bundle orders modules after what they
// import, each once and in a scope of its own, renames nothing, exports
// the entry's names, and refuses a cycle or a form it does not read,
// naming the file and line.
func TestBundleKeepsModulesApart(t *testing.T) {
	fsys := fstest.MapFS{
		"w/main.js":  {Data: []byte("import { h } from \"./dom.js\";\nimport en from \"./en.js\";\nconst x = 1;\nexport function define() { return h(en.hi, x); }\n")},
		"w/dom.js":   {Data: []byte("import en from \"./en.js\";\nconst x = 2;\nexport function h(a, b) { return a + b + x + en.hi; }\n")},
		"w/en.js":    {Data: []byte("export default { hi: \"hi\" };\n")},
		"c/a.js":     {Data: []byte("import { b } from \"./b.js\";\nexport const a = 1;\n")},
		"c/b.js":     {Data: []byte("import { a } from \"./a.js\";\nexport const b = 1;\n")},
		"r/main.js":  {Data: []byte("const a = 1;\n\nexport { a };\n")},
		"r/other.js": {Data: []byte("import * as all from \"./main.js\";\n")},
	}
	b, err := bundle(fsys, "w/main.js")
	if err != nil {
		t.Fatal(err)
	}
	s := string(b)
	en, dom, main := strings.Index(s, "\n// en.js\n"), strings.Index(s, "\n// dom.js\n"), strings.Index(s, "\n// main.js\n")
	if en < 0 || dom < en || main < dom || strings.Count(s, "// en.js\n") != 1 {
		t.Errorf("modules out of order or twice:\n%s", s)
	}
	for _, want := range []string{
		"const { h } = __warren[\"dom.js\"];",
		"const en = __warren[\"en.js\"].default;",
		"return { default: __default };",
		"export const { define } = __warren[\"main.js\"];",
	} {
		if !strings.Contains(s, want) {
			t.Errorf("the bundle lacks %q:\n%s", want, s)
		}
	}
	if strings.Contains(s, "\nimport ") || strings.Count(s, "\nexport ") != 1 {
		t.Errorf("the bundle keeps a module's import or export:\n%s", s)
	}
	for entry, want := range map[string]string{
		"c/a.js":     "import cycle through a.js",
		"r/main.js":  `main.js line 3: bundle cannot read "export { a };"`,
		"r/other.js": `other.js line 1: bundle cannot read "import * as all from \"./main.js\";"`,
	} {
		if _, err := bundle(fsys, entry); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("bundle(%s): %v, want %q", entry, err, want)
		}
	}
}
