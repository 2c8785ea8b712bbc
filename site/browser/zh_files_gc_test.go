package browser_test

import (
	"encoding/json"
	"os"
	"strings"
	"testing"

	"warren/engine/say"
)

func init() {
	testPages["test-files-gc-zh.html"] = `<!DOCTYPE html>
<html lang="zh-CN"><head><meta charset="utf-8"><title>gc</title>
<meta name="viewport" content="width=device-width, initial-scale=1">
<link rel="stylesheet" href="/widget.css"><script src="/widget.js" defer></script></head>
<body><warren-scenario id="gc" title="合并" view="files"><pre>` + scenarioBytesGC + `</pre></warren-scenario></body></html>`
}

// zhCatalog is the widget's Chinese catalog (static/widget/i18n-zh.js,
// JSON after export default).
func zhCatalog(t *testing.T) map[string]string {
	t.Helper()
	src, err := os.ReadFile("../static/widget/i18n-zh.js")
	if err != nil {
		t.Fatal(err)
	}
	_, body, _ := strings.Cut(string(src), "export default ")
	body = strings.TrimSuffix(strings.TrimSpace(body), ";")
	var cat map[string]string
	if err := json.Unmarshal([]byte(body), &cat); err != nil {
		t.Fatal(err)
	}
	return cat
}

// sayIn says a sentence of the engine's from a catalog, as i18n.js
// engineSays does.
func sayIn(t say.Text, cat map[string]string) string {
	var args []string
	for _, a := range t.Args {
		switch a := a.(type) {
		case string:
			args = append(args, a)
		case say.Text:
			args = append(args, sayIn(a, cat))
		}
	}
	if t.Key == "" {
		return strings.Join(args, ", ")
	}
	out := cat[t.Key]
	for i, a := range args {
		out = strings.ReplaceAll(out, "{"+string(rune('a'+i))+"}", a)
	}
	return out
}

// TestChineseFilesViewSaysTheGCStep scrubs a Chinese page's Files view to
// the middle of 3.10's merge of 1.rdq into 0.rdq: both files say the
// merge's step in Chinese, from the step the engine gives as data, with
// the operation and the files' names kept.
func TestChineseFilesViewSaysTheGCStep(t *testing.T) {
	cat := zhCatalog(t)
	mid, f := mergeCopies(t, native(t, scenarioBytesGC))
	step := f.GCSaid
	want := strings.ReplaceAll(cat["files.gcStep"], "{step}", sayIn(step, cat))
	if !strings.HasPrefix(want, "垃圾回收进行中：把 1 合并进 0：copy msg_store_persistent/") || !hasCJK.MatchString(sayIn(step.Args[3].(say.Text), cat)) {
		t.Fatalf("the step %q is said %q", step.String(), want)
	}
	b := newBrowser(t)
	b.open("/test-files-gc-zh.html")
	b.scrubTo("#gc", int(mid))
	shown := b.gcShown("#gc")
	for _, p := range []string{"msg_store_persistent/0.rdq", "msg_store_persistent/1.rdq"} {
		if shown[p] != want {
			t.Errorf("at event %d %s says %q, want %q (%s)", mid, p, shown[p], want, step.String())
		}
		if w := englishWords(shown[p]); w != "" {
			t.Errorf("%s says English %q: %s", p, w, shown[p])
		}
	}
	if len(shown) != 2 {
		t.Errorf("at event %d the files under GC are %v", mid, shown)
	}
	b.noErrors()
}
