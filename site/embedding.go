package site

import (
	"strings"

	"warren/engine/script"
)

// embeddingDoc is what the embedding documentation page shows.
type embeddingDoc struct {
	// Origin is where the site is served, such as https://warren.example.org;
	// originPlaceholder when the build was not told, which embedding.js
	// replaces with the page's own origin in the reader's browser.
	Origin string
	// Lang is the language of the page.
	Lang     string
	Example  scenarioView
	Commands []commandDoc
	// Versions are the release lines the engine has a profile for.
	Versions []string
}

// commandDoc is one command of the language, for the reference table.
type commandDoc struct {
	Name  string
	Usage string
	// Engine marks simulation control, which a real broker cannot run.
	Engine bool
}

// originPlaceholder stands for the site's origin in the embedding page's
// snippets when the build was not given one (serve -origin).
const originPlaceholder = "https://HOST"

func newEmbeddingDoc(lang, origin string) embeddingDoc {
	if origin == "" {
		origin = originPlaceholder
	}
	d := embeddingDoc{
		Origin:   strings.TrimSuffix(origin, "/"),
		Lang:     lang,
		Example:  scenarioView{ID: "example", Title: tr(lang, "site.embedding.exampleTitle"), Version: defaultVersion, Script: exampleEmbedScript},
		Versions: engineVersions(),
	}
	for _, name := range script.Names() {
		if s, ok := script.Lookup(name); ok {
			d.Commands = append(d.Commands, commandDoc{Name: name, Usage: s.Usage, Engine: s.Engine})
		} else if usage, ok := prefixUsage[name]; ok {
			d.Commands = append(d.Commands, commandDoc{Name: name, Usage: tr(lang, usage), Engine: true})
		}
	}
	return d
}

// prefixUsage describes the commands that have no signature of their own
// because they wrap another command.
var prefixUsage = map[string]string{
	"submit": "site.embedding.submitUsage",
}

// scriptTagSnippet is the HTML a page adds to host widgets.
func (d embeddingDoc) scriptTagSnippet() string {
	return `<link rel="stylesheet" href="` + d.Origin + `/widget.css">
<script src="` + d.Origin + `/widget.js" defer></script>`
}

// elementSnippet is the example element, as a writer would type it.
func (d embeddingDoc) elementSnippet() string {
	lang := ""
	if d.Lang != "" && d.Lang != langEN {
		lang = ` lang="` + htmlLang(d.Lang) + `"`
	}
	return `<warren-scenario title="` + d.Example.Title + `" version="` + d.Example.Version + `"` + lang + `>
` + d.Example.Script + `
</warren-scenario>`
}

// rawSnippet is the example in the two raw forms that Markdown leaves as
// written, which widget.js turns into widgets.
func (d embeddingDoc) rawSnippet() string {
	return `<script type="text/warren" title="` + d.Example.Title + `" view="table">
` + d.Example.Script + `
</script>

<pre class="warren" title="` + d.Example.Title + `" open="start">
` + d.Example.Script + `
</pre>`
}

// fenceSnippet is the example as a fence of the writer's own Markdown,
// the element's attributes on the fence line (as the VitePress and
// Docusaurus components read them; Hugo's in braces).
func (d embeddingDoc) fenceSnippet() string {
	return "```warren title=\"" + d.Example.Title + "\" view=table open=start\n" + d.Example.Script + "\n```"
}

// iframeSnippet is the example as an iframe.
func (d embeddingDoc) iframeSnippet() string {
	src := d.Origin + embedLink(d.Lang, d.Example.Title, d.Example.Script)
	return `<iframe src="` + strings.ReplaceAll(src, "&", "&amp;") + `"
        title="warren: ` + d.Example.Title + `"
        width="100%" height="560" loading="lazy" style="border: 0"></iframe>`
}

// FillOrigin says that the snippets name originPlaceholder, for the page's
// script to replace.
func (d embeddingDoc) FillOrigin() bool { return d.Origin == originPlaceholder }

// hostHeaders is what a static host must send with every file of the site
// for pages of other origins to embed the widget, as a Netlify _headers
// file writes it (Build writes one; Cloudflare Pages reads it too), and
// how long the widget's files may be cached (cacheControl), and with each
// of pages (the site's pages, slash-separated paths of the
// files written) that is not meant to be framed: a second policy,
// frame-ancestors 'none', and X-Frame-Options for older browsers, under
// every address the page answers to. NB: each such page has its own rule,
// as neither host can take a header of /* off one page the same way
// (Cloudflare's "! NAME" is refused by Netlify), and a rule for /* would
// stop the embed page being framed.
func hostHeaders(pages []string) string {
	var b strings.Builder
	b.WriteString("/*\n" +
		"  Access-Control-Allow-Origin: *\n" +
		"  Cross-Origin-Resource-Policy: cross-origin\n" +
		"  Timing-Allow-Origin: *\n" +
		"  X-Content-Type-Options: nosniff\n" +
		"  Content-Security-Policy: " + ContentSecurityPolicy + "\n" +
		"/" + VersionPrefix + "*\n" +
		"  Cache-Control: " + ImmutableCache + "\n" +
		"/widget.js\n" +
		"  Cache-Control: " + EntryCache + "\n" +
		"/widget.css\n" +
		"  Cache-Control: " + EntryCache + "\n")
	for _, p := range pages {
		if framed(p) {
			continue
		}
		for _, addr := range pageAddresses(p) {
			b.WriteString(addr + "\n" +
				"  Content-Security-Policy: " + NoFraming + "\n" +
				"  X-Frame-Options: DENY\n")
		}
	}
	return b.String()
}

// pageAddresses are the addresses a page's file answers to on a static
// host: its path, and for index.html its folder, and for another page its
// path without .html (a host may serve it there).
func pageAddresses(file string) []string {
	out := []string{"/" + file}
	if dir, ok := strings.CutSuffix(file, "index.html"); ok && (dir == "" || strings.HasSuffix(dir, "/")) {
		return append(out, "/"+dir)
	}
	if bare, ok := strings.CutSuffix(file, ".html"); ok {
		out = append(out, "/"+bare)
	}
	return out
}

// nginxSnippet is the same for nginx, in a server block; the
// .br and .gz copies the build writes are served by brotli_static (the
// ngx_brotli module) and gzip_static.
func nginxSnippet() string {
	return `add_header Access-Control-Allow-Origin "*" always;
add_header Cross-Origin-Resource-Policy "cross-origin" always;
gzip_static on;
brotli_static on;   # with the ngx_brotli module
location ^~ /v/ {   # each build's widget files, named for their content
    add_header Cache-Control "` + ImmutableCache + `" always;
    add_header Access-Control-Allow-Origin "*" always;
    add_header Cross-Origin-Resource-Policy "cross-origin" always;
}
location ~ ^/widget\.(js|css)$ {
    add_header Cache-Control "` + EntryCache + `" always;
    add_header Access-Control-Allow-Origin "*" always;
    add_header Cross-Origin-Resource-Policy "cross-origin" always;
}`
}

// hostPolicy is what an embedding page's own Content-Security-Policy, if
// it has one, must allow for the widget: its scripts, style sheet and
// fetches from the site, the compiling of warren.wasm, the style
// attributes it sets and its worker, which starts from a blob URL and
// imports the worker module from the site (a module worker's imports are
// checked against worker-src, not script-src).
func (d embeddingDoc) hostPolicy() string {
	return "script-src " + d.Origin + " 'wasm-unsafe-eval'; style-src " + d.Origin + "; style-src-attr 'unsafe-inline'; " +
		"connect-src " + d.Origin + "; worker-src blob: " + d.Origin
}

// engineVersions lists the values `set version=` accepts: the RabbitMQ
// release lines the engine can simulate.
func engineVersions() []string {
	if set, ok := script.Lookup("set"); ok {
		for _, p := range set.Params {
			if p.Key == "version" {
				return p.Values
			}
		}
	}
	return []string{defaultVersion}
}

// otherVersions are the profiles besides the default, for the text.
func (d embeddingDoc) otherVersions() string {
	var out []string
	for _, v := range d.Versions {
		if v != defaultVersion {
			out = append(out, v)
		}
	}
	return strings.Join(out, ", ")
}
