package browser_test

import (
	"bytes"
	"compress/flate"
	"encoding/base64"
	"fmt"
	"strings"
	"testing"
)

func init() {
	testPages["test-limits.html"] = `<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8"><title>limits</title>
<link rel="stylesheet" href="/widget.css"><script src="/widget.js" defer></script></head>
<body><warren-scenario id="w" share-to="javascript:alert(document.domain)">queue.declare queue=q</warren-scenario>
<warren-scenario id="other">queue.declare queue=jobs</warren-scenario></body></html>`
}

// bombLink is a share link whose script is 300 MB of newlines: about 290
// kB of deflate, as a stranger could post it.
func bombLink(t *testing.T) string {
	t.Helper()
	var buf bytes.Buffer
	zw, err := flate.NewWriter(&buf, flate.BestCompression)
	if err != nil {
		t.Fatal(err)
	}
	mb := bytes.Repeat([]byte{'\n'}, 1<<20)
	for written := 0; written < 300_000_000; written += len(mb) {
		if _, err := zw.Write(mb); err != nil {
			t.Fatal(err)
		}
	}
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
	return "#w=" + base64.RawURLEncoding.EncodeToString(buf.Bytes()) + "&e=1"
}

// TestShareLinkBomb opens a 300 MB-of-newlines link in the playground: the
// widget says the link carries too much, and the page goes on working.
func TestShareLinkBomb(t *testing.T) {
	b := newBrowser(t)
	hash := bombLink(t)
	t.Logf("the link's hash is %d characters", len(hash))
	b.open("/playground/" + hash)
	msg := evalJS[string](b, in("warren-scenario", ".problem")+".textContent")
	if !strings.HasPrefix(msg, "This link is damaged: ") || !strings.Contains(msg, "unpacks to more than 1,048,576 bytes, the most a link may carry") {
		t.Errorf("the playground shows %q", msg)
	}
	// The tab still answers, and the widget still runs what is typed.
	b.console("warren-scenario", "queue.declare queue=after")
	if out := b.lastOutput("warren-scenario"); len(out) != 1 || !strings.Contains(out[0], "declare-ok queue=after") {
		t.Errorf("after the refused link, queue.declare printed %q", out)
	}
	b.shot("share-link-bomb")
	b.noErrors()
}

// TestConsoleBounds prints more than the console keeps: a 5,000-character
// line is clipped, a command's output past 200 lines is counted, not
// shown, and the log keeps at most 4,000 output lines; share-to with a
// javascript: address makes no link. The other widget is untouched.
func TestConsoleBounds(t *testing.T) {
	b := newBrowser(t)
	b.open("/test-limits.html")
	// A line as long as a 5,000-byte name, straight into a console.
	long := evalJS[[]int](b, `(async () => {
		const { Console } = await import("/widget/console.js");
		const c = new Console("t", {});
		const name = "n".repeat(5000);
		c.add({ cmd: "queue.declare queue=" + name, lines: ["c1.1 declare-ok queue=" + name + " messages=0 consumers=0"], at: 0 });
		const out = c.log.querySelector(".out").textContent, cmd = c.log.querySelector(".cmdline").textContent;
		return [out.length, out.endsWith("… (3,045 more characters)") ? 1 : 0, cmd.length];
	})()`)
	if long[0] > 2100 || long[1] != 1 || long[2] > 2100 {
		t.Errorf("a 5,000-character line: shown as %d characters (clipped with a count: %v), its command as %d", long[0], long[1] == 1, long[2])
	}
	b.console("#w", "basic.consume queue=q tag=c no-ack on=c2.1")
	for i := range 25 {
		b.console("#w", fmt.Sprintf("basic.publish key=q body=m%d count=300", i))
	}
	out := b.lastOutput("#w")
	if len(out) != 201 || out[200] != "… 100 more lines" {
		t.Errorf("300 deliveries printed %d lines, the last %q", len(out), out[len(out)-1])
	}
	lines := evalJS[int](b, in("#w", ".log")+".querySelectorAll(\".out\").length")
	if lines > 4000+25 || lines < 3000 {
		t.Errorf("the console holds %d output lines, want at most 4,000 (and the more lines notes)", lines)
	}
	note := evalJS[string](b, `(async () => {
		const w = document.querySelector("#w");
		await w.share();
		return w.shadowRoot.querySelector(".share-note").textContent;
	})()`)
	if !strings.Contains(note, `Cannot make a link: share-to="javascript:alert(document.domain)" is not an http or https address`) {
		t.Errorf("share with share-to=javascript: says %q", note)
	}
	if got := b.shown("#other"); len(got.Ready) != 1 || got.Ready["jobs"] != 0 {
		t.Errorf("the other widget shows %+v", got)
	}
	b.shot("console-bounds")
	b.noErrors()
}

// console types a line into a widget's console and waits for its entry.
func (b *browser) console(widget, line string) {
	b.t.Helper()
	if !evalJS[bool](b, fmt.Sprintf(`(async () => {
		const r = document.querySelector(%q).shadowRoot, log = r.querySelector(".log");
		const before = log.lastElementChild;
		r.querySelector("input.cmd").value = %q;
		r.querySelector("form.prompt").requestSubmit();
		for (let i = 0; i < 600 && log.lastElementChild === before; i++) {
			await new Promise((done) => setTimeout(done, 50));
		}
		return log.lastElementChild !== before;
	})()`, widget, line)) {
		b.t.Fatalf("%s: %q made no console entry in 30 s", widget, line)
	}
}

// lastOutput is the output lines of a widget's last console entry.
func (b *browser) lastOutput(widget string) []string {
	b.t.Helper()
	return evalJS[[]string](b, fmt.Sprintf(`[...document.querySelector(%q).shadowRoot.querySelectorAll(".log .entry:last-child .out")].map((o) => o.textContent)`, widget))
}
