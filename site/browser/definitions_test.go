package browser_test

import (
	"encoding/json"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"warren/engine/definitions"
)

// TestEditorTakesDefinitions pastes, then drops, a RabbitMQ 3.10.8
// definitions file on the playground's scenario editor: each becomes the
// lines the engine writes for it at the top of the script, which then
// runs from the top and lists the file's queues. The lines are
// definitions.js's, which TestDefinitionsScriptIsTheEngines checks against
// the engine's.
func TestEditorTakesDefinitions(t *testing.T) {
	read := func(name string) string {
		b, err := os.ReadFile("../../engine/definitions/testdata/" + name)
		if err != nil {
			t.Fatal(err)
		}
		return string(b)
	}
	linesOf := func(src string) []string {
		d, err := definitions.Parse(src)
		if err != nil {
			t.Fatal(err)
		}
		return definitions.Script(d)
	}
	b := newBrowser(t)
	b.open("/playground/")
	area := in("warren-scenario", "textarea.script")
	state := in("warren-scenario", ".editor-state")
	// an empty editor, so that the node holds only what the files define
	evalJS[bool](b, area+`.value = "", `+area+`.dispatchEvent(new Event("input")), true`)
	before := ""

	exported := read("broker-export.json")
	quoted, _ := json.Marshal(exported)
	evalJS[bool](b, `(() => {
		const dt = new DataTransfer();
		dt.setData("text/plain", `+string(quoted)+`);
		`+area+`.dispatchEvent(new ClipboardEvent("paste", {clipboardData: dt, bubbles: true, cancelable: true}));
		return true;
	})()`)
	want := strings.Join(linesOf(exported), "\n") + "\n"
	got := waitFor(b, area+".value", func(v string) bool { return v != before })
	if got != want {
		t.Fatalf("after the paste the editor holds\n%s\nand says %q; want the definitions' lines\n%s", got, evalJS[string](b, state+".textContent"), want)
	}
	if s := evalJS[string](b, state+".textContent"); !strings.Contains(s, "9 commands") {
		t.Errorf("the editor says %q, want how many commands it added (9)", s)
	}

	topology := read("broker-export-topology.json")
	quoted, _ = json.Marshal(topology)
	evalJS[bool](b, `(() => {
		const dt = new DataTransfer();
		dt.items.add(new File([`+string(quoted)+`], "definitions.json", {type: "application/json"}));
		`+area+`.dispatchEvent(new DragEvent("drop", {dataTransfer: dt, bubbles: true, cancelable: true}));
		return true;
	})()`)
	dropped := strings.Join(linesOf(topology), "\n") + "\n"
	got = waitFor(b, area+".value", func(v string) bool { return strings.HasPrefix(v, dropped) })
	if !strings.HasPrefix(got, dropped+want) {
		t.Fatalf("after the drop the editor holds\n%s\nwant the dropped file's lines before the pasted ones", got)
	}

	evalJS[bool](b, in("warren-scenario", "button.run-script")+".click(), true")
	evalJS[bool](b, in("warren-scenario", "input.cmd")+".focus(), true")
	if err := chromedp.Do(b.ctx, chromedp.KeyEvent("list_queues name durable arguments\r")); err != nil {
		t.Fatal(err)
	}
	out := evalJS[[]string](b, `[...`+in("warren-scenario", ".log .entry:last-child")+`.querySelectorAll(".out")].map((o) => o.textContent)`)
	wantOut := []string{
		"queue name=q.a durable=false arguments=[]",
		`queue name=q.b durable=true arguments=[{"x-dead-letter-exchange","dlx"},{"x-max-length",10},{"x-queue-mode","lazy"}]`,
	}
	if strings.Join(out, "\n") != strings.Join(wantOut, "\n") {
		t.Errorf("list_queues after running the script printed\n%s\nwant\n%s", strings.Join(out, "\n"), strings.Join(wantOut, "\n"))
	}

	evalJS[bool](b, `(() => {
		const dt = new DataTransfer();
		dt.setData("text/plain", '{"queues":[{"name":}]}');
		`+area+`.dispatchEvent(new ClipboardEvent("paste", {clipboardData: dt, bubbles: true, cancelable: true}));
		return true;
	})()`)
	if s := waitFor(b, state+".textContent", func(v string) bool { return strings.Contains(v, "cannot be read") }); !strings.Contains(s, "not JSON") {
		t.Errorf("a broken file says %q, want that it is not JSON", s)
	}
	b.noErrors()
}

// waitFor evaluates expr until ok holds of it, for a few seconds, and
// returns its last value.
func waitFor(b *browser, expr string, ok func(string) bool) string {
	b.t.Helper()
	var v string
	for i := 0; i < 50; i++ {
		if v = evalJS[string](b, expr); ok(v) {
			return v
		}
		time.Sleep(100 * time.Millisecond)
	}
	return v
}
