package browser_test

// Browser tests of the Files view: the node's files as strips of entries,
// following the timeline, and each file as annotated bytes.

import (
	"encoding/hex"
	"fmt"
	"strings"
	"testing"

	"github.com/chromedp/cdproto/emulation"
	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"

	"warren/engine"
)

// fileRow is one file as the Files view shows it.
type fileRow struct {
	Path   string `json:"path"`
	Kind   string `json:"kind"`
	Marks  string `json:"marks"`
	Counts string `json:"counts"`
	Label  string `json:"label"`
}

type filesShown struct {
	Visible bool      `json:"visible"`
	Pressed string    `json:"pressed"`
	Files   []fileRow `json:"files"`
}

func (b *browser) filesShown(widget string) filesShown {
	b.t.Helper()
	return evalJS[filesShown](b, fmt.Sprintf(`(() => {
		const r = document.querySelector(%q).shadowRoot, v = r.querySelector(".files");
		const marks = (li) => [...li.querySelectorAll(".strip .mark")].map((m) => m.dataset.mark.repeat(Number(m.dataset.n))).join("");
		return {
			visible: !v.hidden && v.offsetHeight > 0,
			pressed: r.querySelector("button.view-files").getAttribute("aria-pressed"),
			files: [...v.querySelectorAll("li.file")].map((li) => ({
				path: li.dataset.path, kind: li.dataset.kind, marks: marks(li),
				counts: (li.querySelector(".file-counts") || {}).textContent || "",
				label: li.getAttribute("aria-label"),
			})),
		};
	})()`, widget))
}

// wantFiles is what the engine's snapshot says the view must show.
func wantFiles(s *engine.Sim) map[string]engine.FileView {
	out := map[string]engine.FileView{}
	for _, f := range s.Snapshot().Files {
		out[f.Path] = f
	}
	return out
}

func checkFiles(t *testing.T, got filesShown, want map[string]engine.FileView, at string) {
	t.Helper()
	if !got.Visible || got.Pressed != "true" {
		t.Fatalf("%s: the Files view is visible=%v, its button aria-pressed=%s", at, got.Visible, got.Pressed)
	}
	if len(got.Files) != len(want) {
		t.Errorf("%s: the view lists %d files, the engine has %d", at, len(got.Files), len(want))
	}
	for _, f := range got.Files {
		w, ok := want[f.Path]
		if !ok {
			t.Errorf("%s: the view lists %s, which the engine does not have", at, f.Path)
			continue
		}
		if f.Marks != w.Marks {
			t.Errorf("%s: %s shows entries %q, the engine has %q", at, f.Path, f.Marks, w.Marks)
		}
		if w.Kind == "qi" || w.Kind == "qs" || w.Kind == "rdq" {
			if wc := fmt.Sprintf("%d/%d live", w.Live, w.Entries); f.Counts != wc {
				t.Errorf("%s: %s says %q, want %q", at, f.Path, f.Counts, wc)
			}
		}
		if !strings.HasPrefix(f.Label, f.Path+": ") {
			t.Errorf("%s: %s has the accessible name %q", at, f.Path, f.Label)
		}
	}
}

// TestFilesView: the Files view shows every file the engine has, with its
// entries live, dead and unsynced as the engine reads them from the bytes;
// the acks of the fetched messages show as dead entries; after a seek back
// the view shows the files as they were then.
func TestFilesView(t *testing.T) {
	b := newBrowser(t)
	b.open("/test-files.html")
	s := native(t, scenarioFiles)
	end := s.Furthest()
	final := wantFiles(s)

	// the scenario must give what the view is there to show
	var rdq, qi int
	dead := false
	for _, f := range final {
		switch f.Kind {
		case "rdq":
			if f.Entries > 0 {
				rdq++
			}
			dead = dead || strings.ContainsAny(f.Marks, "Dd")
		case "qi":
			qi++
		}
	}
	if rdq < 2 || qi == 0 || !dead {
		t.Fatalf("the scenario gives %d message store files with entries, %d index files, dead entries %v: %v", rdq, qi, dead, final)
	}

	evalJS[bool](b, in("warren-scenario", "button.view-files")+".click(), true")
	checkFiles(t, b.filesShown("warren-scenario"), final, "at the end")
	b.shotElement("warren-scenario", "files-view")

	// Back to before the first basic.get: nothing acked yet.
	var before int64 = -1
	for n := end; n > 0; n-- {
		if err := s.SeekEvent(n); err != nil {
			t.Fatal(err)
		}
		if q := s.Snapshot().Queues; len(q) == 1 && q[0].Ready == 10 {
			before = n
			break
		}
	}
	if before < 0 {
		t.Fatal("no event has all ten messages ready")
	}
	b.scrubTo("warren-scenario", int(before))
	then := wantFiles(s)
	for _, f := range then {
		if f.Kind == "rdq" && strings.ContainsAny(f.Marks, "Dd") {
			t.Fatalf("at event %d a stored message is already dead: %s %q", before, f.Path, f.Marks)
		}
	}
	checkFiles(t, b.filesShown("warren-scenario"), then, fmt.Sprintf("at event %d", before))
	b.shotElement("warren-scenario", "files-seek-back")

	// The table view lists the files too.
	evalJS[bool](b, in("warren-scenario", "button.view")+".click(), true")
	rows := evalJS[int](b, `(() => {
		const t = [...`+in("warren-scenario", ".tables")+`.querySelectorAll("table")].find((t) => t.caption.textContent === "Files");
		return t ? t.tBodies[0].rows.length : -1;
	})()`)
	if rows != len(then) {
		t.Errorf("the Files table has %d rows, want %d", rows, len(then))
	}
	b.noErrors()
}

// scenarioBytesV2 leaves each kind of entry in a version 2 queue's files:
// small bodies in 0.qs, large ones in the message store, two of them
// acked and flushed (a zeroed slot, a dead .qs entry, a dead .rdq entry).
const scenarioBytesV2 = `queue.declare queue=files durable x-queue-version=2
confirm.select
basic.publish key=files size=100 count=3 persistent
basic.publish key=files size=10000 count=2 persistent
basic.get queue=files on=c1.2
basic.get queue=files on=c1.2
basic.get queue=files on=c1.2
basic.get queue=files on=c1.2
basic.ack tag=1 on=c1.2
basic.ack tag=4 on=c1.2
wait ms=1500`

// scenarioBytesV1 is 3.10's default index: journal.jif, then 0.idx.
const scenarioBytesV1 = `queue.declare queue=old durable
confirm.select
basic.publish key=old size=100 count=2 persistent
basic.publish key=old size=5000 persistent
basic.get queue=old on=c1.2
basic.ack tag=1 on=c1.2
wait ms=3000
basic.publish key=old body=after persistent`

// scenarioBytesGC makes RabbitMQ 3.10 merge 1.rdq into 0.rdq.
const scenarioBytesGC = `set file-size-limit=16384
queue.declare queue=big durable x-queue-version=2
confirm.select
basic.publish key=big size=5000 count=12 persistent
basic.consume queue=big tag=w on=c2.1
basic.ack tag=1 on=c2.1
basic.ack tag=2 on=c2.1
basic.ack tag=3 on=c2.1
basic.ack tag=5 on=c2.1
basic.ack tag=6 on=c2.1
basic.ack tag=7 on=c2.1
basic.ack tag=9 on=c2.1
run ms=1000`

func init() {
	testPages["test-bytes.html"] = `<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8"><title>bytes</title>
<meta name="viewport" content="width=device-width, initial-scale=1">
<link rel="stylesheet" href="/widget.css"><script src="/widget.js" defer></script></head>
<body><warren-scenario id="v2" title="Version 2" view="files"><pre>` + scenarioBytesV2 + `</pre></warren-scenario>
<warren-scenario id="v1" title="Version 1" view="files"><pre>` + scenarioBytesV1 + `</pre></warren-scenario>
<warren-scenario id="gc" title="A merge" view="files"><pre>` + scenarioBytesGC + `</pre></warren-scenario></body></html>`
}

// bytesShown is a file opened as bytes, as the view shows it.
type bytesShown struct {
	Path    string     `json:"path"`
	Summary string     `json:"summary"`
	Entries []string   `json:"entries"` // the entry rows' text
	Fields  [][]string `json:"fields"`  // offset, size, name, value
	Cells   []struct {
		F   int    `json:"f"`
		Hex string `json:"hex"`
	} `json:"cells"`
	Starts   []int  `json:"starts"`   // the first field of each group (header, entries)
	Sel      int    `json:"sel"`      // the field whose bytes are marked
	Focus    int    `json:"focus"`    // the field row with the focus, -1 none
	Expanded string `json:"expanded"` // aria-expanded of the file's button
}

func (b *browser) openBytes(widget, path string) bytesShown {
	b.t.Helper()
	evalJS[bool](b, fmt.Sprintf(`(() => {
		const r = document.querySelector(%q).shadowRoot;
		const li = [...r.querySelectorAll("li.file")].find((li) => li.dataset.path === %q);
		li.querySelector("button.bytes-btn").click();
		return true;
	})()`, widget, path))
	return b.bytesShown(widget, path)
}

func (b *browser) bytesShown(widget, path string) bytesShown {
	b.t.Helper()
	return evalJS[bytesShown](b, fmt.Sprintf(`(() => {
		const r = document.querySelector(%q).shadowRoot, v = r.querySelector(".bytes");
		const li = [...r.querySelectorAll("li.file")].find((li) => li.dataset.path === %q);
		const sel = v.querySelector(".hex .sel");
		const focus = r.activeElement && r.activeElement.closest("tr.field");
		return {
			path: v.dataset.path, summary: v.querySelector(".bytes-summary").textContent,
			entries: [...v.querySelectorAll("tr.entry")].map((t) => t.textContent),
			fields: [...v.querySelectorAll("tr.field")].map((t) => [...t.cells].map((c) => c.textContent)),
			starts: [...v.querySelectorAll("tr.entry")].map((t) => Number(t.nextElementSibling.dataset.f)),
			cells: [...v.querySelectorAll(".hex .b[data-f]")].map((c) => ({f: Number(c.dataset.f), hex: c.textContent})),
			sel: sel ? Number(sel.dataset.f) : -1, focus: focus ? Number(focus.dataset.f) : -1,
			expanded: li ? li.querySelector("button.bytes-btn").getAttribute("aria-expanded") : "",
		};
	})()`, widget, path))
}

// checkBytes checks a file's bytes as shown against the engine's: the
// field table covers every byte once, in order; the dump shows each
// field's bytes (whole up to 64, else its first 32 and last 16); the file
// starts with the field its layout starts with; the entries read the
// states given, one letter each (L live, D dead, A acked, v delivered),
// "" for no check.
func checkBytes(t *testing.T, got bytesShown, want engine.FileBytes, states, at string) {
	t.Helper()
	if got.Path != want.Path || got.Expanded != "true" {
		t.Fatalf("%s: the bytes view shows %q (button expanded %q), want %s", at, got.Path, got.Expanded, want.Path)
	}
	seen := map[int]string{}
	for _, c := range got.Cells {
		seen[c.F] += c.Hex
	}
	var end int64
	for i, f := range got.Fields {
		var off, n int64
		if _, err := fmt.Sscanf(f[0]+" "+f[1], "%d (0x%x) %d", &off, new(int64), &n); err != nil || off != end {
			t.Fatalf("%s: %s field %d %q: starts at %d, the field before ends at %d (%v)", at, want.Path, i, f, off, end, err)
		}
		end = off + n
		b := want.Data[off:end]
		w := hex.EncodeToString(b)
		if len(b) > 64 {
			w = hex.EncodeToString(b[:32]) + hex.EncodeToString(b[len(b)-16:])
		}
		if seen[i] != w {
			t.Errorf("%s: %s field %d (%s) shows bytes %s, want %s", at, want.Path, i, f[2], seen[i], w)
		}
	}
	if end != want.Size {
		t.Errorf("%s: %s: the fields end at %d of %d bytes", at, want.Path, end, want.Size)
	}
	first := map[string]string{"qi": "magic|RCQI", "qs": "magic|RCQS", "rdq": "size|", "jif": "kind and seq id|", "idx": "kind and rel seq|"}[want.Kind]
	if name, value, _ := strings.Cut(first, "|"); len(got.Fields) == 0 || got.Fields[0][2] != name || !strings.HasPrefix(got.Fields[0][3], value) {
		t.Errorf("%s: %s starts with %q, want %s", at, want.Path, got.Fields[0], first)
	}
	if states == "" {
		return
	}
	letters := ""
	for _, e := range got.Entries {
		for _, st := range []struct{ word, letter string }{{": live", "L"}, {": dead", "D"}, {": acked", "A"}, {": delivered", "v"}} {
			if strings.Contains(e, st.word) {
				letters += st.letter
			}
		}
	}
	if letters != states {
		t.Errorf("%s: %s entries read %s (%q), want %s", at, want.Path, letters, got.Entries, states)
	}
}

// TestFilesBytes: each kind of file opens as annotated bytes that agree
// with the engine field for field, on a desktop and a phone; the .qs entry
// of an acked message reads dead once the flush zeroed its slot, and live
// before; the keyboard walks the fields and entries.
func TestFilesBytes(t *testing.T) {
	sims := map[string]*engine.Sim{"#v2": native(t, scenarioBytesV2), "#v1": native(t, scenarioBytesV1), "#gc": native(t, scenarioBytesGC)}
	pathOf := func(s *engine.Sim, suffix string) string {
		for _, f := range s.Snapshot().Files {
			if strings.HasSuffix(f.Path, suffix) {
				return f.Path
			}
		}
		t.Fatalf("no file ends in %s", suffix)
		return ""
	}
	read := func(w, suffix string) engine.FileBytes {
		fb, err := sims[w].FileBytes(pathOf(sims[w], suffix))
		if err != nil {
			t.Fatal(err)
		}
		return fb
	}
	// what the scenarios must leave for the view to show
	if qs := read("#v2", ".qs"); len(qs.Dead) != 1 || qs.Dead[0] != 64 {
		t.Fatalf("the engine's 0.qs has dead entries at %v", qs.Dead)
	}
	for _, size := range []struct {
		name          string
		width, height int64
		mobile        bool
	}{{"desktop", 1280, 800, false}, {"phone", 390, 844, true}} {
		b := newBrowser(t)
		if err := chromedp.Do(b.ctx, chromedp.EmulateViewport(size.width, size.height, chromedp.EmulateScale(map[bool]float64{false: 1, true: 2}[size.mobile]), func(p *emulation.SetDeviceMetricsOverrideParams, _ *emulation.SetTouchEmulationEnabledParams) {
			p.Mobile = size.mobile
		})); err != nil {
			t.Fatal(err)
		}
		b.open("/test-bytes.html")
		for _, c := range []struct{ widget, suffix, states string }{{"#v2", ".qi", "ALLAL"}, {"#v2", ".qs", "DLL"}, {"#v2", "persistent/0.rdq", "DL"}, {"#v1", "journal.jif", "Lv"}, {"#v1", ".idx", "LvLv"}} {
			want := read(c.widget, c.suffix)
			got := b.openBytes(c.widget, want.Path)
			checkBytes(t, got, want, c.states, size.name)
			name := strings.NewReplacer("/", "-", ".", "").Replace(c.suffix)
			if c.suffix == ".qs" || c.suffix == "journal.jif" || size.name == "desktop" {
				b.shotElement(c.widget, "bytes-"+strings.TrimPrefix(name, "-")+"-"+size.name)
			}
		}
		if overflow := evalJS[int](b, `document.documentElement.scrollWidth - document.documentElement.clientWidth`); overflow > 0 {
			t.Errorf("%s: the page scrolls sideways by %d px with the bytes open", size.name, overflow)
		}

		// the keyboard: into the fields, down one, down an entry, back
		qs := read("#v2", ".qs")
		b.openBytes("#v2", qs.Path)
		evalJS[bool](b, in("#v2", ".bytes tr.field")+".focus(), true")
		st := b.bytesShown("#v2", qs.Path).Starts // header, entry 0, entry 1, ...
		if len(st) < 3 {
			t.Fatalf("the .qs shows groups starting at %v", st)
		}
		keys := []struct {
			key  string
			want int
		}{{kb.ArrowDown, 1}, {kb.PageDown, st[1]}, {kb.PageDown, st[2]}, {kb.PageUp, st[1]}, {kb.End, -1}, {kb.Home, 0}}
		for _, k := range keys {
			if err := chromedp.Do(b.ctx, chromedp.KeyEvent(k.key)); err != nil {
				t.Fatal(err)
			}
			got := b.bytesShown("#v2", qs.Path)
			if k.want < 0 {
				k.want = len(got.Fields) - 1
			}
			if got.Sel != k.want || got.Focus != k.want {
				t.Errorf("%s: after %q the marked field is %d and the focus on %d, want %d", size.name, k.key, got.Sel, got.Focus, k.want)
			}
		}

		// before the idle flush the acked message's .qs entry still reads live
		s := sims["#v2"]
		end := s.Furthest()
		var before int64 = -1
		for n := end; n > 0 && before < 0; n-- {
			if err := s.SeekEvent(n); err != nil {
				t.Fatal(err)
			}
			if fb, err := s.FileBytes(qs.Path); err == nil && len(fb.Dead) == 0 {
				before = n
			}
		}
		if before < 0 {
			t.Fatal("no event before the flush")
		}
		b.scrubTo("#v2", int(before))
		then, _ := s.FileBytes(qs.Path)
		checkBytes(t, b.bytesShown("#v2", qs.Path), then, "LLL", fmt.Sprintf("%s at event %d", size.name, before))
		if err := s.SeekEvent(end); err != nil {
			t.Fatal(err)
		}

		// in the middle of the merge, both files say which step runs
		mid, f := mergeCopies(t, sims["#gc"])
		step := f.GC
		b.scrubTo("#gc", int(mid))
		shown := b.gcShown("#gc")
		for _, p := range []string{"msg_store_persistent/0.rdq", "msg_store_persistent/1.rdq"} {
			if !strings.HasSuffix(shown[p], step) {
				t.Errorf("%s: at event %d %s says %q, want the step %q", size.name, mid, p, shown[p], step)
			}
		}
		if len(shown) != 2 {
			t.Errorf("%s: at event %d the files under GC are %v", size.name, mid, shown)
		}
		want, err := sims["#gc"].FileBytes("msg_store_persistent/0.rdq")
		if err != nil {
			t.Fatal(err)
		}
		checkBytes(t, b.openBytes("#gc", want.Path), want, "", fmt.Sprintf("%s mid-merge", size.name))
		b.shotElement("#gc", "bytes-gc-"+size.name)
		b.noErrors()
	}
}

// scenarioAckedUnwritten leaves a version 2 queue's files written while
// it was idle, then one message acked: the ack waits in the index's
// buffer, so the .qi slot and its .qs entry still read present.
const scenarioAckedUnwritten = `queue.declare queue=q durable x-queue-version=2
basic.publish key=q body=a persistent count=3
run ms=1000
basic.consume queue=q tag=c on=c2.1
basic.ack tag=2 on=c2.1`

func init() {
	testPages["test-acked.html"] = `<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8"><title>acked</title>
<link rel="stylesheet" href="/widget.css"><script src="/widget.js" defer></script></head>
<body><warren-scenario title="Acked" view="files"><pre>` + scenarioAckedUnwritten + `</pre></warren-scenario></body></html>`
}

// TestFilesMarkAckedNotYetWritten: an acked message whose ack the queue
// has not written yet is marked so in the .qi and the .qs, with its name
// as the mark's title and in the legend, as the engine marks it; once the
// queue has gone idle and written the ack, the slot is dead.
func TestFilesMarkAckedNotYetWritten(t *testing.T) {
	b := newBrowser(t)
	b.open("/test-acked.html")
	s := native(t, scenarioAckedUnwritten)
	const w = "warren-scenario"
	shown := b.filesShown(w)
	checkFiles(t, shown, wantFiles(s), "after the ack")
	acked := 0
	for _, f := range shown.Files {
		acked += strings.Count(strings.ToUpper(f.Marks), "A")
	}
	if acked != 2 {
		t.Errorf("after the ack the view marks %d entries acked, not yet written: want 2 (the .qi slot and its .qs entry): %+v", acked, shown.Files)
	}
	words := evalJS[string](b, `(() => { const r = `+in(w, ".files")+`; const m = r.querySelector(".strip .mark.acked"); return (m ? m.title : "") + " | " + r.querySelector(".files-legend").textContent; })()`)
	if !strings.HasPrefix(words, "acked, not yet written") || !strings.Contains(words, "acked, not yet written (the queue writes its acks") {
		t.Errorf("the acked mark's title and the legend read %q", words)
	}
	b.shotElement(w, "files-acked-not-written")

	evalJS[bool](b, in(w, "input.cmd")+".focus(), true")
	if err := chromedp.Do(b.ctx, chromedp.KeyEvent("run ms=10000\r")); err != nil {
		t.Fatal(err)
	}
	s.Run("run ms=10000", engine.RunOptions{})
	checkFiles(t, b.filesShown(w), wantFiles(s), "once the queue is idle")
	b.noErrors()
}

// mergeCopies is the first event at which scenarioBytesGC's merge of
// 1.rdq into 0.rdq copies, with 1.rdq's view there (its step, GC and
// GCSaid); g is left there.
func mergeCopies(t *testing.T, g *engine.Sim) (int64, engine.FileView) {
	t.Helper()
	for n := int64(1); n <= g.Furthest(); n++ {
		if err := g.SeekEvent(n); err != nil {
			t.Fatal(err)
		}
		for _, f := range g.Snapshot().Files {
			if f.Path == "msg_store_persistent/1.rdq" && len(f.GCSaid.Args) > 1 && f.GCSaid.Args[1] == "copy" {
				return n, f
			}
		}
	}
	t.Fatal("no event of the merge copies")
	return -1, engine.FileView{}
}

// gcShown is what the Files view of widget says of each file a GC job
// works on, by path.
func (b *browser) gcShown(widget string) map[string]string {
	b.t.Helper()
	return evalJS[map[string]string](b, `(() => { const out = {};
		for (const li of `+in(widget, ".files")+`.querySelectorAll("li.file")) {
			const p = li.querySelector(".file-gc"); if (p) out[li.dataset.path] = p.textContent; }
		return out; })()`)
}
