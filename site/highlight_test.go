package site

import (
	"html"
	"regexp"
	"strings"
	"testing"
)

func TestHighlightWarren(t *testing.T) {
	for src, want := range map[string]string{
		"basic.publish key=q body=<b>&x count=3 persistent": `<span class="w-cmd">basic.publish</span> ` +
			`<span class="w-key">key</span><span class="w-eq">=</span><span class="w-val">q</span> ` +
			`<span class="w-key">body</span><span class="w-eq">=</span><span class="w-val">&lt;b&gt;&amp;x</span> ` +
			`<span class="w-key">count</span><span class="w-eq">=</span><span class="w-num">3</span> ` +
			`<span class="w-flag">persistent</span>`,
		"  # a comment":     `  <span class="w-comment"># a comment</span>`,
		"#> c1.1 get-empty": `<span class="w-out">#&gt; c1.1 get-empty</span>`,
		"queue.delcare queue=q": `<span class="w-unknown">queue.delcare</span> ` +
			`<span class="w-key">queue</span><span class="w-eq">=</span><span class="w-val">q</span>`,
		"submit basic.get queue=q": `<span class="w-cmd">submit</span> <span class="w-cmd">basic.get</span> ` +
			`<span class="w-key">queue</span><span class="w-eq">=</span><span class="w-val">q</span>`,
		"queue.declare queue=q x-dead-letter-exchange=": `<span class="w-cmd">queue.declare</span> ` +
			`<span class="w-key">queue</span><span class="w-eq">=</span><span class="w-val">q</span> ` +
			`<span class="w-key">x-dead-letter-exchange</span><span class="w-eq">=</span>`,
	} {
		if got := highlightWarren(src); got != want {
			t.Errorf("highlightWarren(%q)\n got %s\nwant %s", src, got, want)
		}
	}
}

// TestHighlightKeepsText checks that the highlighted HTML reads back as
// exactly the script, whitespace included.
func TestHighlightKeepsText(t *testing.T) {
	src := "set schedulers=2\n\n\tbasic.qos  prefetch=1 on=c2.1\n# é < > & \"\nshow"
	tags := regexp.MustCompile(`<[^>]*>`)
	if got := html.UnescapeString(tags.ReplaceAllString(highlightWarren(src), "")); got != src {
		t.Errorf("text changed:\n got %q\nwant %q", got, src)
	}
	if strings.Count(highlightWarren(src), "\n") != strings.Count(src, "\n") {
		t.Errorf("line breaks changed")
	}
}
