//go:build !js

package format

import (
	"encoding/json"
	"os"
	"strings"
	"sync"
	"testing"
)

// The annotation gives its words as keys of the widget's catalogs; these
// tests say them from the widget's own catalogs (site/static/widget/
// i18n-LANG.js), as the Files view does.

var catalogs sync.Map // lang -> map[string]string

// catalog reads a catalog of the widget's (i18n-LANG.js: a JSON object
// after `export default`).
func catalog(t testing.TB, lang string) map[string]string {
	t.Helper()
	if c, ok := catalogs.Load(lang); ok {
		return c.(map[string]string)
	}
	b, err := os.ReadFile("../../../site/static/widget/i18n-" + lang + ".js")
	if err != nil {
		t.Fatal(err)
	}
	s := string(b)
	i, j := strings.Index(s, "export default"), strings.LastIndexByte(s, '}')
	if i < 0 || j < i {
		t.Fatalf("i18n-%s.js: no export default {...}", lang)
	}
	var m map[string]string
	if err := json.Unmarshal([]byte(s[i+len("export default"):j+1]), &m); err != nil {
		t.Fatalf("i18n-%s.js: %v", lang, err)
	}
	catalogs.Store(lang, m)
	return m
}

// inLang says w from the catalog c: a key's text with {a}, {b}, ... filled
// in by its arguments, said in turn; a key c does not have as itself.
func inLang(c map[string]string, w Words) string {
	if w.Key == "" {
		return w.Word
	}
	text, ok := c[w.Key]
	if !ok {
		return w.Key
	}
	for i, a := range w.Args {
		text = strings.ReplaceAll(text, "{"+string(rune('a'+i))+"}", inLang(c, a))
	}
	return text
}

// inEnglish says w in English. A key the English catalog does not have
// fails the test.
func inEnglish(t testing.TB, w Words) string {
	t.Helper()
	c := catalog(t, "en")
	if _, ok := c[w.Key]; w.Key != "" && !ok {
		t.Fatalf("%s is not a key of i18n-en.js", w.Key)
	}
	return inLang(c, w)
}
