package site

import (
	"strings"

	"warren/engine/script"
)

// embeddingDoc is what the embedding documentation page shows.
type embeddingDoc struct {
	// Origin is where the site is served, such as https://warren.example.org;
	// "https://HOST" when the build was not told.
	Origin   string
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

func newEmbeddingDoc(origin string) embeddingDoc {
	if origin == "" {
		origin = "https://HOST"
	}
	d := embeddingDoc{
		Origin:   strings.TrimSuffix(origin, "/"),
		Example:  scenarioView{ID: "example", Title: "Priority in action", Version: defaultVersion, Script: exampleEmbedScript},
		Versions: engineVersions(),
	}
	for _, name := range script.Names() {
		if s, ok := script.Lookup(name); ok {
			d.Commands = append(d.Commands, commandDoc{Name: name, Usage: s.Usage, Engine: s.Engine})
		} else if usage, ok := prefixUsage[name]; ok {
			d.Commands = append(d.Commands, commandDoc{Name: name, Usage: usage, Engine: true})
		}
	}
	return d
}

// prefixUsage describes the commands that have no signature of their own
// because they wrap another command.
var prefixUsage = map[string]string{
	"submit": "submit COMMAND [ARG ...] (send a client command's frames without running the node)",
}

// scriptTagSnippet is the HTML a page adds to host widgets.
func (d embeddingDoc) scriptTagSnippet() string {
	return `<link rel="stylesheet" href="` + d.Origin + `/widget.css">
<script src="` + d.Origin + `/widget.js" defer></script>`
}

// elementSnippet is the example element, as a writer would type it.
func (d embeddingDoc) elementSnippet() string {
	return `<warren-scenario title="` + d.Example.Title + `" version="` + d.Example.Version + `">
` + d.Example.Script + `
</warren-scenario>`
}

// iframeSnippet is the example as an iframe.
func (d embeddingDoc) iframeSnippet() string {
	src := d.Origin + embedLink(d.Example.Title, d.Example.Script)
	return `<iframe src="` + strings.ReplaceAll(src, "&", "&amp;") + `"
        title="warren: ` + d.Example.Title + `"
        width="100%" height="560" loading="lazy" style="border: 0"></iframe>`
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
