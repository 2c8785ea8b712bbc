//go:build docsites

package browser_test

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// The documentation generators from npm (VitePress, Docusaurus) take
// minutes to install and build: their tests are built with -tags
// docsites, which scripts/test adds when the widget or an integration
// changed since they last passed (integrations/docsites.tested).
func needDocSites(t *testing.T) {
	t.Helper()
	if _, err := exec.LookPath("npm"); err != nil {
		t.Fatal("npm is missing: the documentation generators' tier needs Node and npm (apt-get install nodejs npm)")
	}
}

// npmPackage installs spec (name@version, space-separated) once into a folder of its own
// under $WARREN_NPM_CACHE (default: the user's cache folder), outside the
// repository, and returns that folder's node_modules.
func npmPackage(t *testing.T, dir, spec string) string {
	t.Helper()
	cache := os.Getenv("WARREN_NPM_CACHE")
	if cache == "" {
		c, err := os.UserCacheDir()
		if err != nil {
			t.Fatal(err)
		}
		cache = filepath.Join(c, "warren-npm")
	}
	folder := filepath.Join(cache, dir)
	modules := filepath.Join(folder, "node_modules")
	stamp := filepath.Join(folder, "installed")
	if got, err := os.ReadFile(stamp); err == nil && string(got) == spec {
		return modules
	}
	writeFile(t, filepath.Join(folder, "package.json"), `{"private": true}`)
	cmd := exec.Command("npm", append([]string{"install", "--no-audit", "--no-fund", "--loglevel=error"}, strings.Fields(spec)...)...)
	cmd.Dir = folder
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("npm install %s in %s: %v\n%s", spec, folder, err, out)
	}
	writeFile(t, stamp, spec)
	return modules
}

// checkClientNavigation reads a documentation site whose pages change
// without a reload: page A's two widgets, a link followed to page B's two,
// and back, each live, their scripts as written, with warren.wasm fetched
// once in all. It logs what the generator's note reports.
func (b *browser) checkClientNavigation(name, docs, pageA, linkToB string) {
	t := b.t
	t.Helper()
	wasm, all := fetches("/warren.wasm"), siteFetches()
	b.open(docs + pageA)
	b.waitFor(rawFormsDone)
	b.waitReady()
	b.firstView(name, all)
	evalJS[bool](b, `(window.warrenNoReload = true)`)
	b.checkDocPage(name+" page A", "a1", "a2")
	b.shot(name + "-a")

	evalJS[bool](b, fmt.Sprintf(`(document.querySelector(%q).click(), true)`, linkToB))
	b.waitFor(`document.querySelector("#b1") !== null && document.querySelector("#b2") !== null && ` + rawFormsDone)
	b.waitReady()
	b.checkDocPage(name+" page B", "b1", "b2")
	b.shot(name + "-b")

	evalJS[bool](b, `(history.back(), true)`)
	b.waitFor(`document.querySelector("#a1") !== null && document.querySelector("#a2") !== null && ` + rawFormsDone)
	b.waitReady()
	if s := b.shown("#a1"); s.Ready["jobs"] != 3 {
		t.Errorf("%s: back on page A, a1 shows %+v", name, s)
	}
	if s := b.shown("#a2"); s.End == 0 {
		t.Errorf("%s: back on page A, a2 shows %+v", name, s)
	}
	if n := evalJS[int](b, `document.querySelectorAll("warren-scenario").length`); n != 2 {
		t.Errorf("%s: back on page A there are %d widgets, want 2", name, n)
	}
	if !evalJS[bool](b, `window.warrenNoReload === true`) {
		t.Errorf("%s: the page reloaded on the way: the navigation was not client-side", name)
	}
	if loads := fetches("/warren.wasm") - wasm; loads != 1 {
		t.Errorf("%s: warren.wasm was fetched %d times, want once", name, loads)
	}
	t.Logf("%s: A, B and back: warren.wasm fetched %d times, %d requests to warren's files in all", name, fetches("/warren.wasm")-wasm, siteFetches()-all)
	b.noErrors()
}

// TestVitePressSite builds a VitePress 1.6 site that uses
// integrations/vitepress as its README says (page A: a fence and a raw
// <pre class="warren">, page B the same) and reads it in Chromium with its
// client-side navigation.
func TestVitePressSite(t *testing.T) {
	needDocSites(t)
	site := siteURL(t)
	modules := npmPackage(t, "vitepress", "vitepress@1.6.4")
	plugin, err := filepath.Abs(filepath.Join("..", "..", "integrations", "vitepress", "index.mjs"))
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	if err := os.Symlink(modules, filepath.Join(dir, "node_modules")); err != nil {
		t.Fatal(err)
	}
	raw := func(id, title, script string) string {
		return `<pre class="warren" id="` + id + `" title="` + title + `">` + "\n" + script + "</pre>\n"
	}
	files := map[string]string{
		"package.json": `{"type": "module"}`,
		"docs/.vitepress/config.mjs": `import { warren, warrenHead, isCustomElement } from ` + fmt.Sprintf("%q", plugin) + `;
export default {
  title: "Docs",
  head: warrenHead(` + fmt.Sprintf("%q", site) + `),
  markdown: { config: (md) => md.use(warren) },
  vue: { template: { compilerOptions: { isCustomElement } } },
};
`,
		"docs/index.md": "# Docs\n\n[Page A](./a.md)\n",
		"docs/a.md": "# Page A\n\nA fence and the raw form.\n\n" +
			"```warren id=a1 title=\"Three jobs\"\n" + docScripts["a1"] + "```\n\n" +
			"Between them, prose with \"quotes\".\n\n" +
			raw("a2", "Other", docScripts["a2"]) + "\n" +
			"[To page B](./b.md)\n",
		"docs/b.md": "# Page B\n\n" +
			"```warren {id=\"b1\" title=\"Shortcut\" view=diagram}\n" + docScripts["b1"] + "```\n\n" +
			"Between them, \"prose\".\n\n" +
			raw("b2", "Raw form", docScripts["b2"]) + "\n" +
			"[Back to page A](./a.md)\n",
	}
	for name, body := range files {
		writeFile(t, filepath.Join(dir, name), body)
	}
	cmd := exec.Command("node", filepath.Join(modules, "vitepress", "bin", "vitepress.js"), "build", "docs")
	cmd.Dir = dir
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("vitepress build: %v\n%s", err, out)
	}
	// VitePress' pages carry inline scripts of their own: served without a
	// policy, as VitePress sites are
	docs := serveDocs(t, "", filepath.Join(dir, "docs", ".vitepress", "dist"))
	b := newBrowser(t)
	b.checkClientNavigation("vitepress", docs, "/a.html", `a[href$="b.html"]`)
}

// TestDocusaurusSite builds a Docusaurus 3 site that uses
// integrations/docusaurus as its README says (in MDX, whose braces and #
// lines would otherwise be code and headings: three fences, and the raw
// form MDX cannot break, a <pre className="warren"> holding its script as
// a template literal) and reads it in Chromium with its client-side
// navigation.
func TestDocusaurusSite(t *testing.T) {
	needDocSites(t)
	site := siteURL(t)
	modules := npmPackage(t, "docusaurus", "@docusaurus/core@3.10.2 @docusaurus/preset-classic@3.10.2 react@18.3.1 react-dom@18.3.1")
	plugin, err := filepath.Abs(filepath.Join("..", "..", "integrations", "docusaurus", "index.mjs"))
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	if err := os.Symlink(modules, filepath.Join(dir, "node_modules")); err != nil {
		t.Fatal(err)
	}
	fence := func(opts, id string) string { return "```warren " + opts + "\n" + docScripts[id] + "```\n\n" }
	files := map[string]string{
		"package.json": `{"private": true}`,
		"docusaurus.config.mjs": `import { remarkWarren, warrenHead } from ` + fmt.Sprintf("%q", plugin) + `;
export default {
  title: "Docs", url: "http://localhost", baseUrl: "/", onBrokenLinks: "throw",
  presets: [["classic", { docs: { routeBasePath: "/", remarkPlugins: [remarkWarren] }, blog: false, pages: false, theme: {} }]],
  ...warrenHead(` + fmt.Sprintf("%q", site) + `),
};
`,
		"docs/index.md": "# Docs\n\n[Page A](./a.md)\n",
		"docs/a.md": "# Page A\n\nTwo fences.\n\n" + fence(`id=a1 title="Three jobs"`, "a1") +
			"Between them, prose with \"quotes\".\n\n" + fence(`id=a2 title="Other" open=start`, "a2") + "[To page B](./b.md)\n",
		"docs/b.md": "# Page B\n\n" + fence(`{id="b1" title="Shortcode"}`, "b1") +
			"Between them, \"prose\".\n\n" + mdxRaw("b2", "Raw form", docScripts["b2"]) + "\n\n[Back to page A](./a.md)\n",
	}
	for name, body := range files {
		writeFile(t, filepath.Join(dir, name), body)
	}
	cmd := exec.Command("node", filepath.Join(modules, "@docusaurus", "core", "bin", "docusaurus.mjs"), "build", "--no-minify")
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "DOCUSAURUS_NO_UPDATE_NOTIFIER=1")
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("docusaurus build: %v\n%s", err, out)
	}
	docs := serveDocs(t, "", filepath.Join(dir, "build"))
	b := newBrowser(t)
	b.checkClientNavigation("docusaurus", docs, "/a", `a[href="/b"]`)
}

// mdxRaw is the raw form a Docusaurus writer types in MDX, as
// integrations/docusaurus/README.md gives it: a <pre className="warren">
// whose one child is the script as a JavaScript template literal, which
// MDX leaves as written ({i}, # lines, blank lines, quotes).
func mdxRaw(id, title, script string) string {
	lit := strings.NewReplacer("\\", "\\\\", "`", "\\`", "${", "\\${").Replace(script)
	return `<pre className="warren" id="` + id + `" title="` + title + `">{` + "`" + lit + "`" + `}</pre>`
}
