package site

import (
	"bytes"
	"compress/flate"
	"encoding/base64"

	"warren/tutorials"
)

// tutorialLink is one of RabbitMQ's tutorials as a playground link.
type tutorialLink struct {
	Title string
	Href  string
}

// tutorialLinks are the six tutorials as links that open the playground
// of lang with the tutorial's scenario (its twin in lang, commented in
// that language, where there is one), in the share-link form the widget
// reads (share.js: #w= the script, deflate-raw then base64url). A title
// the catalog of lang has (site.tutorial.SLUG) is shown in its words.
func tutorialLinks(lang string) []tutorialLink {
	var out []tutorialLink
	for _, t := range tutorials.In(lang) {
		title := t.Title
		if key := "site.tutorial." + t.Slug; tr(lang, key) != key {
			title = tr(lang, key)
		}
		out = append(out, tutorialLink{Title: title, Href: inLang(lang, "/playground/") + "#w=" + shareScript(t.Script())})
	}
	return out
}

// shareScript packs a scenario as a share link's w= value.
func shareScript(script string) string {
	var b bytes.Buffer
	w, _ := flate.NewWriter(&b, flate.BestCompression)
	w.Write([]byte(script))
	w.Close()
	return base64.RawURLEncoding.EncodeToString(b.Bytes())
}
