package site

import (
	"bytes"
	"io/fs"
	"path"
	"strings"
	"testing"
)

// maxJSLines is the most lines a hand-written JavaScript file of the site
// may have: past it, a file holds more than one idea and is split by
// idea.
const maxJSLines = 600

// jsCatalogs are the files exempt from maxJSLines: catalogs of the
// widget's texts, data rather than code.
var jsCatalogs = []string{"static/widget/i18n-en.js", "static/widget/i18n-zh.js"}

// TestJSFilesAreShort: no JavaScript file in static/ but the catalogs is
// over maxJSLines lines.
func TestJSFilesAreShort(t *testing.T) {
	checked := 0
	err := fs.WalkDir(static, "static", func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || (path.Ext(p) != ".js" && path.Ext(p) != ".mjs") {
			return err
		}
		checked++
		for _, c := range jsCatalogs {
			if p == c {
				return nil
			}
		}
		src, err := fs.ReadFile(static, p)
		if err != nil {
			return err
		}
		if n := lineCount(src); n > maxJSLines {
			t.Errorf("%s: %d lines, over %d: split it by idea", strings.TrimPrefix(p, "static/"), n, maxJSLines)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if checked < 10 {
		t.Fatalf("only %d JavaScript files under static/", checked)
	}
	for _, c := range jsCatalogs {
		if _, err := fs.Stat(static, c); err != nil {
			t.Errorf("the catalog %s exempt by name is not there: %v", c, err)
		}
	}
}

// lineCount is the number of lines of src, as wc -l counts them and one
// more for a last line without its newline.
func lineCount(src []byte) int {
	n := bytes.Count(src, []byte("\n"))
	if len(src) > 0 && src[len(src)-1] != '\n' {
		n++
	}
	return n
}
