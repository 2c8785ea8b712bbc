package site

import (
	"context"
	"embed"
	"encoding/json"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/a-h/templ"

	"warren/lessons"
)

// static holds the assets copied as they are to the root of the site:
// site.css and embed.js, and the widget: widget.js (the script pages
// include), widget.css, and the modules widget.js loads from widget/.
// Folders are copied whole, and compressAll compresses what is in them too.
//
//go:embed static
var static embed.FS

// BuildOptions change how Build works; the zero value builds everything.
type BuildOptions struct {
	// SkipWasm leaves out warren.wasm and wasm_exec.js, for tests and for
	// working on the pages alone.
	SkipWasm bool
	// ModuleRoot is the directory of warren's go.mod, from which ./wasm is
	// built. Empty means the module of the working directory.
	ModuleRoot string
	// Go is the go command. Empty means $GOROOT/bin/go when GOROOT is
	// set, else go from PATH.
	Go string
	// Origin is where the site will be served (https://warren.example.org),
	// used in the snippets of the embedding page. Empty shows a placeholder.
	Origin string
	// Compression is how hard the copies beside each file are
	// compressed: CompressFast (the zero value) for a site served here,
	// CompressBest for a deployment.
	Compression Compression
	// Log, when not nil, receives a line for each step.
	Log io.Writer
}

// Build writes the whole site into outDir, which it creates if needed:
// the pages, the static assets, warren.wasm and wasm_exec.js (unless
// opts.SkipWasm), the widget's files again in their versioned folder
// (writeVersioned), and a .gz copy and a .br copy (when the brotli tool is
// installed), as hard as opts.Compression says, next to every .html,
// .css, .js, .wasm, .svg and .json file. Files already in outDir that the site does not produce
// are left alone.
func Build(outDir string, opts BuildOptions) error {
	logf := func(format string, args ...any) {
		if opts.Log != nil {
			fmt.Fprintf(opts.Log, format+"\n", args...)
		}
	}
	if err := os.MkdirAll(outDir, 0o755); err != nil {
		return fmt.Errorf("site: %w", err)
	}
	if err := copyStatic(outDir); err != nil {
		return fmt.Errorf("site: copying static assets: %w", err)
	}
	written, err := writePages(outDir, opts)
	if err != nil {
		return fmt.Errorf("site: %w", err)
	}
	logf("site: wrote %d pages to %s", len(written), outDir)
	if !opts.SkipWasm {
		if err := buildWasm(outDir, opts, logf); err != nil {
			return fmt.Errorf("site: %w", err)
		}
	}
	version, err := writeVersioned(outDir, !opts.SkipWasm)
	if err != nil {
		return fmt.Errorf("site: %w", err)
	}
	logf("site: wrote the widget's files to %s", version)
	// The headers a static host that reads _headers (Netlify, Cloudflare
	// Pages) sends with every file; Handler sends the same.
	if err := writeFile(filepath.Join(outDir, "_headers"), []byte(hostHeaders(written))); err != nil {
		return fmt.Errorf("site: %w", err)
	}
	// npm pack of the folder packs the widget's files alone
	if err := writeFile(filepath.Join(outDir, "package.json"), []byte(packageJSON(version))); err != nil {
		return fmt.Errorf("site: %w", err)
	}
	logf("site: compressing (%s)", opts.Compression)
	c, err := compressAll(outDir, opts.Compression)
	if err != nil {
		return fmt.Errorf("site: compressing: %w", err)
	}
	if c.NoBrotli {
		logf("site: wrote %d .gz files; brotli is not installed, so no .br copies (apt-get install brotli)", c.Gzip)
	} else {
		logf("site: wrote %d .gz and %d .br files", c.Gzip, c.Brotli)
	}
	return nil
}

// WidgetFiles are the files a host serves to run widgets from its own
// origin (self-hosting), for the build whose versioned folder is version
// (v/<hash>/, see writeVersioned): widget.js and widget.css, the
// addresses pages name, and in the folder the widget's modules in one file, its
// worker, its style sheets, warren.wasm, inspect.wasm (the
// folder decoder, loaded when a folder is dropped) and Go's wasm_exec.js. The build's
// package.json lists them, so that npm pack packs them and nothing else.
func WidgetFiles(version string) []string {
	files := []string{"widget.js", "widget.css"}
	for _, f := range []string{"widget/*.js", "widget/*.css", "widget.css", "warren.wasm", "inspect.wasm", "wasm_exec.js"} {
		files = append(files, version+f)
	}
	return files
}

// packageJSON is the built site's package.json.
func packageJSON(version string) string {
	files, _ := json.Marshal(WidgetFiles(version))
	return `{
  "name": "warren-widget",
  "version": "0.1.0",
  "description": "<warren-scenario>: a live simulation of a RabbitMQ 3.10.8 node for any page, with its engine (warren.wasm) in a Web Worker",
  "browser": "widget.js",
  "files": ` + string(files) + `
}
`
}

// copyStatic copies every file under static/ to the same path under out.
func copyStatic(out string) error {
	sub, err := fs.Sub(static, "static")
	if err != nil {
		return err
	}
	return fs.WalkDir(sub, ".", func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		b, err := fs.ReadFile(sub, p)
		if err != nil {
			return err
		}
		return writeFile(filepath.Join(out, filepath.FromSlash(p)), b)
	})
}

// page is one generated page: where it goes and what renders it.
type page struct {
	path string // slash-separated, relative to the site root
	comp templ.Component
}

// writePages renders every page into out, in every language of the site
// (English at the root, the others under their folder: zh/), and returns
// how many it wrote.
func writePages(out string, opts BuildOptions) ([]string, error) {
	all, err := lessons.All()
	if err != nil {
		return nil, err
	}
	// translated[lang][slug] is a lesson in lang; English has them all.
	translated := map[string]map[string]lessons.Lesson{}
	for _, lang := range siteLangs {
		translated[lang] = map[string]lessons.Lesson{}
		if lang == langEN {
			for _, l := range all {
				translated[lang][l.Slug] = l
			}
			continue
		}
		tl, err := lessons.In(lang)
		if err != nil {
			return nil, err
		}
		for _, l := range tl {
			translated[lang][l.Slug] = l
		}
	}
	var pages []page
	for _, lang := range siteLangs {
		lp, err := langPages(lang, all, translated, opts)
		if err != nil {
			return nil, err
		}
		pages = append(pages, lp...)
	}
	var written []string
	for _, p := range pages {
		if err := writePage(filepath.Join(out, filepath.FromSlash(p.path)), p.comp); err != nil {
			return nil, fmt.Errorf("%s: %w", p.path, err)
		}
		written = append(written, p.path)
	}
	return written, nil
}

// langPages are the pages of one language. A lesson not translated into
// lang yet has no page in it: the lesson list of lang links to the
// English page and says so, and the English page names no twin in lang.
func langPages(lang string, all []lessons.Lesson, translated map[string]map[string]lessons.Lesson, opts BuildOptions) ([]page, error) {
	dir := strings.TrimPrefix(langPrefix(lang)+"/", "/")
	shown := make([]lessons.Lesson, len(all))
	links := make([]lessonLink, len(all))
	for i, l := range all {
		shown[i] = l
		links[i].Lang = langEN
		if t, ok := translated[lang][l.Slug]; ok {
			shown[i] = t
			links[i].Lang = lang
		}
		lang := links[i].Lang
		links[i] = linkTo(shown[i])
		links[i].Lang = lang
		links[i].Href = inLang(lang, links[i].Href)
	}
	requires := map[string][]string{}
	titles := map[string]string{}
	for i, l := range all {
		requires[l.Slug] = l.Requires
		titles[l.Slug] = shown[i].Title
	}
	pages := []page{
		{dir + "index.html", homePage(lang, links)},
		{dir + "lessons/index.html", lessonsIndexPage(lang, links)},
		{dir + "course/index.html", coursePage(lang, courseItems(links, requires))},
		{dir + "glossary/index.html", glossaryPage(lang, sortedGlossary(), titles)},
		{dir + "playground/index.html", playgroundPage(lang)},
		{dir + "embedding/index.html", embeddingPage(lang, newEmbeddingDoc(lang, opts.Origin))},
		{dir + "embed.html", embedPage(lang)},
		{dir + "404.html", notFoundPage(lang)},
	}
	for i, l := range shown {
		if links[i].Lang != lang {
			continue
		}
		body, err := renderLesson(l)
		if err != nil {
			return nil, err
		}
		p := lessonPage{Lesson: l, Body: body, Lang: lang}
		for _, other := range siteLangs {
			if _, ok := translated[other][l.Slug]; ok {
				p.Langs = append(p.Langs, other)
			}
		}
		for _, r := range l.Requires {
			for j := range all {
				if all[j].Slug == r {
					p.Requires = append(p.Requires, links[j])
				}
			}
		}
		if i > 0 {
			p.Prev = &links[i-1]
		}
		if i+1 < len(all) {
			p.Next = &links[i+1]
		}
		pages = append(pages, page{dir + "lessons/" + l.Slug + "/index.html", lessonView(p)})
	}
	return pages, nil
}

func writePage(path string, c templ.Component) error {
	f, err := createFile(path)
	if err != nil {
		return err
	}
	if err := c.Render(context.Background(), f); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}

func createFile(path string) (*os.File, error) {
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return nil, err
	}
	return os.Create(path)
}

func writeFile(path string, b []byte) error {
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return err
	}
	return os.WriteFile(path, b, 0o644)
}
