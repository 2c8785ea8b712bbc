package site

// The site speaks English at / and Chinese at /zh/: every page has a twin
// at the same path under /zh/. Its own words come from the widget's
// message catalogs (static/widget/i18n-LANG.js), which the widget reads in
// the browser and the generator reads here, so a word lives in one place
// per language. A catalog is an ES module whose default export is a JSON
// object of key -> text.

import (
	"encoding/json"
	"fmt"
	"io/fs"
	"regexp"
	"strconv"
	"strings"

	"github.com/a-h/templ"

	"warren/lessons"
)

// Languages the site speaks, by their short name.
const (
	langEN = "en"
	langZH = "zh"
)

// siteLangs lists them, English (the default, at the root) first.
var siteLangs = []string{langEN, langZH}

// htmlLang is the <html lang> of a language's pages.
func htmlLang(lang string) string {
	if lang == langZH {
		return "zh-CN"
	}
	return "en"
}

// langName is a language's name in itself, for the language switch.
func langName(lang string) string {
	if lang == langZH {
		return "中文"
	}
	return "English"
}

// langPrefix is the folder of a language's pages: "" or "/zh".
func langPrefix(lang string) string {
	if lang == langEN {
		return ""
	}
	return "/" + lang
}

// inLang is the address of page path (as English has it: "/", "/lessons/x/")
// in lang.
func inLang(lang, path string) string { return langPrefix(lang) + path }

// catalogs maps a language to its key -> text.
var catalogs = func() map[string]map[string]string {
	out := map[string]map[string]string{}
	for _, lang := range siteLangs {
		cat, err := loadCatalog(static, lang)
		if err != nil {
			panic(err)
		}
		out[lang] = cat
	}
	return out
}()

var exportDefault = regexp.MustCompile(`(?m)^export default (\{[\s\S]*\});\s*$`)

// loadCatalog reads static/widget/i18n-LANG.js from fsys.
func loadCatalog(fsys fs.FS, lang string) (map[string]string, error) {
	name := "static/widget/i18n-" + lang + ".js"
	src, err := fs.ReadFile(fsys, name)
	if err != nil {
		return nil, fmt.Errorf("site: the %s catalog: %w", lang, err)
	}
	m := exportDefault.FindSubmatch(src)
	if m == nil {
		return nil, fmt.Errorf("site: %s: no `export default {...};`", name)
	}
	cat := map[string]string{}
	if err := json.Unmarshal(m[1], &cat); err != nil {
		return nil, fmt.Errorf("site: %s: the catalog is not plain JSON: %w", name, err)
	}
	return cat, nil
}

// tr is the text of key in lang, with {name} filled from pairs of name and
// value in args; a value "n" that is an int picks the plural form ("K.one"
// or "K.other") where the language has one. A key missing in lang falls
// back to English, and one missing there too shows as itself: the tests
// catch both (TestPagesAskOnlyForKnownKeys, widgettest/i18n.test.mjs).
func tr(lang, key string, args ...any) string {
	params := map[string]string{}
	n, plural := 0, false
	for i := 0; i+1 < len(args); i += 2 {
		name := fmt.Sprint(args[i])
		params[name] = fmt.Sprint(args[i+1])
		if v, ok := args[i+1].(int); ok && name == "n" {
			n, plural = v, true
		}
	}
	text, ok := lookup(lang, key, n, plural)
	if !ok {
		text, ok = lookup(langEN, key, n, plural)
	}
	if !ok {
		return key
	}
	return placeholder.ReplaceAllStringFunc(text, func(p string) string {
		if v, ok := params[p[1:len(p)-1]]; ok {
			return v
		}
		return p
	})
}

var placeholder = regexp.MustCompile(`\{\w+\}`)

func lookup(lang, key string, n int, plural bool) (string, bool) {
	cat := catalogs[lang]
	if plural {
		form := key + ".other"
		if n == 1 {
			form = key + ".one"
		}
		if s, ok := cat[form]; ok {
			return s, true
		}
	}
	s, ok := cat[key]
	return s, ok
}

// trHTML is tr for a text that holds markup of the site's own (<code>,
// <a href>, <em>): the catalogs are the site's, never a reader's.
func trHTML(lang, key string, args ...any) templ.Component {
	return templ.Raw(tr(lang, key, args...))
}

// trURL is tr for an address, such as a page's own path in lang.
func trURL(lang, path string) templ.SafeURL { return templ.SafeURL(inLang(lang, path)) }

// itoa is strconv.Itoa, for templates.
func itoa(n int) string { return strconv.Itoa(n) }

// lessonLang is the language a lesson is written in: that of its folder
// (zh/SLUG.md), English at the top of lessons/.
func lessonLang(l lessons.Lesson) string {
	if dir, _, ok := strings.Cut(l.File, "/"); ok {
		for _, lang := range siteLangs {
			if dir == lang {
				return lang
			}
		}
	}
	return langEN
}

// stripLang splits an address into its language and its English path:
// "/zh/lessons/x/" is zh and "/lessons/x/".
func stripLang(p string) (lang, path string) {
	for _, l := range siteLangs[1:] {
		pre := langPrefix(l)
		if p == pre || strings.HasPrefix(p, pre+"/") {
			rest := strings.TrimPrefix(p, pre)
			if rest == "" {
				rest = "/"
			}
			return l, rest
		}
	}
	return langEN, p
}
