package site

import (
	"context"
	"embed"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"

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
	// Log, when not nil, receives a line for each step.
	Log io.Writer
}

// Build writes the whole site into outDir, which it creates if needed:
// the pages, the static assets, warren.wasm and wasm_exec.js (unless
// opts.SkipWasm), and a .gz copy (gzip, best compression; zopfli for
// warren.wasm when it is installed) and a .br copy (brotli -q 11, when the
// brotli tool is installed) next to every .html, .css, .js, .wasm, .svg
// and .json file. Files already in outDir that the site does not produce
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
	n, err := writePages(outDir, opts)
	if err != nil {
		return fmt.Errorf("site: %w", err)
	}
	logf("site: wrote %d pages to %s", n, outDir)
	// The headers a static host that reads _headers (Netlify, Cloudflare
	// Pages) sends with every file; Handler sends the same.
	if err := writeFile(filepath.Join(outDir, "_headers"), []byte(hostHeaders())); err != nil {
		return fmt.Errorf("site: %w", err)
	}
	if !opts.SkipWasm {
		if err := buildWasm(outDir, opts, logf); err != nil {
			return fmt.Errorf("site: %w", err)
		}
	}
	c, err := compressAll(outDir)
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

// writePages renders every page into out and returns how many it wrote.
func writePages(out string, opts BuildOptions) (int, error) {
	all, err := lessons.All()
	if err != nil {
		return 0, err
	}
	links := make([]lessonLink, len(all))
	requires := map[string][]string{}
	titles := map[string]string{}
	for i, l := range all {
		links[i] = linkTo(l)
		requires[links[i].Href] = l.Requires
		titles[l.Slug] = l.Title
	}
	pages := []page{
		{"index.html", homePage(links)},
		{"lessons/index.html", lessonsIndexPage(links)},
		{"course/index.html", coursePage(courseItems(links, requires))},
		{"glossary/index.html", glossaryPage(sortedGlossary(), titles)},
		{"playground/index.html", playgroundPage()},
		{"embedding/index.html", embeddingPage(newEmbeddingDoc(opts.Origin))},
		{"embed.html", embedPage()},
		{"404.html", notFoundPage()},
	}
	for i, l := range all {
		body, err := renderLesson(l)
		if err != nil {
			return 0, err
		}
		p := lessonPage{Lesson: l, Body: body}
		if i > 0 {
			p.Prev = &links[i-1]
		}
		if i+1 < len(all) {
			p.Next = &links[i+1]
		}
		pages = append(pages, page{"lessons/" + l.Slug + "/index.html", lessonView(p)})
	}
	for _, p := range pages {
		if err := writePage(filepath.Join(out, filepath.FromSlash(p.path)), p.comp); err != nil {
			return 0, fmt.Errorf("%s: %w", p.path, err)
		}
	}
	return len(pages), nil
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
