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
// with the tutorial's scenario, in the share-link form the widget reads
// (share.js: #w= the script, deflate-raw then base64url).
var tutorialLinks = func() []tutorialLink {
	var out []tutorialLink
	for _, t := range tutorials.All() {
		out = append(out, tutorialLink{Title: t.Title, Href: "/playground/#w=" + shareScript(t.Script())})
	}
	return out
}()

// shareScript packs a scenario as a share link's w= value.
func shareScript(script string) string {
	var b bytes.Buffer
	w, _ := flate.NewWriter(&b, flate.BestCompression)
	w.Write([]byte(script))
	w.Close()
	return base64.RawURLEncoding.EncodeToString(b.Bytes())
}
