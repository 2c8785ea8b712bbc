package browser_test

// Browser tests of a broker's folder in the Files view: the repository's
// RabbitMQ 3.10.8 fixtures dropped as .tar files, each read by
// inspect.wasm as scripts/inspect reads it natively, every file opened as
// annotated bytes.

import (
	"archive/tar"
	"archive/zip"
	"bytes"
	"context"
	"encoding/base64"
	"fmt"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/dom"
	"github.com/chromedp/cdproto/runtime"
	"github.com/chromedp/chromedp"

	"warren/internal/fixtures"
)

// tarOf packs a fixture snapshot as `tar -C <case> -cf - <snapshot>` does,
// with change applied to each file's bytes.
func tarOf(t *testing.T, dir string, change func(rel string, data []byte) []byte) []byte {
	t.Helper()
	var buf bytes.Buffer
	tw := tar.NewWriter(&buf)
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(filepath.Dir(dir), p)
		rel = filepath.ToSlash(rel)
		if d.IsDir() {
			return tw.WriteHeader(&tar.Header{Typeflag: tar.TypeDir, Name: rel + "/", Mode: 0o755})
		}
		data, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		if change != nil {
			data = change(rel, data)
		}
		if err := tw.WriteHeader(&tar.Header{Typeflag: tar.TypeReg, Name: rel, Mode: 0o644, Size: int64(len(data))}); err != nil {
			return err
		}
		_, err = tw.Write(data)
		return err
	})
	if err == nil {
		err = tw.Close()
	}
	if err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

// zipOf packs a fixture snapshot as `zip -r` does, its files deflated.
func zipOf(t *testing.T, dir string) []byte {
	t.Helper()
	var buf bytes.Buffer
	zw := zip.NewWriter(&buf)
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(filepath.Dir(dir), p)
		rel = filepath.ToSlash(rel)
		if d.IsDir() {
			_, err := zw.Create(rel + "/")
			return err
		}
		data, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		w, err := zw.CreateHeader(&zip.FileHeader{Name: rel, Method: zip.Deflate})
		if err != nil {
			return err
		}
		_, err = w.Write(data)
		return err
	})
	if err == nil {
		err = zw.Close()
	}
	if err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

// folderShown is what the Files view shows of a dropped folder.
type folderShown struct {
	State    string   `json:"state"`
	Status   string   `json:"status"`
	Report   string   `json:"report"`
	Skipped  string   `json:"skipped"`
	Problems []string `json:"problems"`
	Files    []struct {
		Path  string `json:"path"`
		Size  int    `json:"size"`
		Error string `json:"error"`
	} `json:"files"`
}

// dropTar drops a .tar or .zip on the widget's Files view as a reader drags it
// from their file manager, and waits for the folder to be read.
func (b *browser) dropTar(name string, data []byte) folderShown {
	b.t.Helper()
	return evalJS[folderShown](b, fmt.Sprintf(`(async () => {
		const r = document.querySelector("warren-scenario").shadowRoot, v = r.querySelector(".files");
		const bin = atob(%q), bytes = new Uint8Array(bin.length);
		for (let i = 0; i < bin.length; i++) bytes[i] = bin.charCodeAt(i);
		const dt = new DataTransfer();
		dt.items.add(new File([bytes], %q, { type: "application/x-tar" }));
		const over = new DragEvent("dragover", { dataTransfer: dt, bubbles: true, cancelable: true });
		v.dispatchEvent(over);
		if (!over.defaultPrevented) return { state: "dragover not taken" };
		v.dispatchEvent(new DragEvent("drop", { dataTransfer: dt, bubbles: true, cancelable: true }));
		const f = r.querySelector(".folder");
		for (let i = 0; i < 600 && !f.dataset.state; i++) await new Promise((ok) => setTimeout(ok, 50));
		const state = f.dataset.state;
		delete f.dataset.state;
		return {
			state: state || "",
			status: f.querySelector(".folder-status").textContent,
			report: (f.querySelector(".folder-text") || {}).textContent || "",
			skipped: (f.querySelector(".folder-skipped") || {}).textContent || "",
			problems: [...f.querySelectorAll(".folder-problems li")].map((li) => li.textContent),
			files: [...f.querySelectorAll("li.file")].map((li) => ({ path: li.dataset.path, size: Number(li.dataset.size), error: li.dataset.error || "" })),
		};
	})()`, base64.StdEncoding.EncodeToString(data), name))
}

// folderBytesShown is a file of the dropped folder opened as annotated bytes.
type folderBytesShown struct {
	Path    string `json:"path"`
	Summary string `json:"summary"`
	Fields  int    `json:"fields"`
}

// folderBytes opens a file of the dropped folder as annotated bytes.
func (b *browser) folderBytes(path string) folderBytesShown {
	b.t.Helper()
	return evalJS[folderBytesShown](b, fmt.Sprintf(`(async () => {
		const f = document.querySelector("warren-scenario").shadowRoot.querySelector(".folder");
		const li = [...f.querySelectorAll("li.file")].find((li) => li.dataset.path === %q);
		li.querySelector("button.bytes-btn").click();
		for (let i = 0; i < 200; i++) {
			const v = li.querySelector(".bytes");
			if (v && v.dataset.path === %[1]q && v.querySelector("tr.field")) break;
			await new Promise((ok) => setTimeout(ok, 50));
		}
		const v = li.querySelector(".bytes");
		return {
			path: v ? v.dataset.path : "",
			summary: v ? v.querySelector(".bytes-summary").textContent : "",
			fields: v ? v.querySelectorAll("tr.field").length : 0,
		};
	})()`, path))
}

// countLine finds what scripts/inspect says of one file: "file 0.qi: 128
// bytes, seq 0..4095, 2 slots" gives 2, "file 0.rdq: 50955 bytes, 5
// entries (…)" 5, "file 0.idx: 6220 bytes, seq 0..2047, 50 records" 50.
var countLine = regexp.MustCompile(`, (\d+) (?:slots?|entries|entry|records?)\b`)

// inspectCounts reads a golden report: each file's path and count.
func inspectCounts(report string) map[string]int {
	out := map[string]int{}
	var dir string
	for _, l := range strings.Split(report, "\n") {
		switch {
		case strings.HasPrefix(l, "queue "):
			if i := strings.Index(l, " in queues/"); i >= 0 {
				dir = strings.Fields(l[i+4:])[0]
			}
		case strings.HasPrefix(l, "store "):
			dir = strings.TrimPrefix(l, "store ")
		case strings.HasPrefix(l, "  file "):
			name, rest, _ := strings.Cut(strings.TrimPrefix(l, "  file "), ": ")
			if m := countLine.FindStringSubmatch(rest); m != nil {
				n, _ := strconv.Atoi(m[1])
				out[dir+"/"+name] = n
			}
		}
	}
	return out
}

// TestBrokerFolder drops every RabbitMQ 3.10.8 fixture snapshot on the
// Files view, as a .tar or a .zip: the report is the one scripts/inspect prints for it (its
// golden file), and every file opens as annotated bytes with as many
// entries as the report counts for it; and Recover, given the case's
// definitions, lists the queues and messages that RabbitMQ 3.10.8
// recovered when it booted on those files, as the case's notes record.
// inspect.wasm is downloaded once a folder is dropped, and not before.
func TestBrokerFolder(t *testing.T) {
	before := fetches("/inspect.wasm")
	b := newBrowser(t)
	b.open("/test-files.html")
	evalJS[bool](b, in("warren-scenario", "button.view-files")+".click(), true")
	if n := fetches("/inspect.wasm") - before; n != 0 {
		t.Errorf("the page fetched inspect.wasm %d times before a folder was dropped", n)
	}
	defer func() {
		if n := fetches("/inspect.wasm") - before; n != 1 {
			t.Errorf("the page fetched inspect.wasm %d times for 13 folders, want once", n)
		}
	}()
	golden := filepath.Join("..", "..", "scripts", "inspect", "testdata")
	snaps := fixtures.Snapshots(t)
	opened := 0
	if len(snaps) != 13 {
		t.Fatalf("%d fixture snapshots, want 13", len(snaps))
	}
	for i, snap := range snaps {
		want, err := os.ReadFile(filepath.Join(golden, strings.ReplaceAll(snap, "/", "_")+".golden"))
		if err != nil {
			t.Fatal(err)
		}
		// half of them as .zip files
		dir := filepath.Join(fixtures.RabbitMQ(t), filepath.FromSlash(snap))
		var got folderShown
		if i%2 == 1 {
			got = b.dropTar(filepath.Base(snap)+".zip", zipOf(t, dir))
		} else {
			got = b.dropTar(filepath.Base(snap)+".tar", tarOf(t, dir, nil))
		}
		if got.State != "open" {
			t.Fatalf("%s: the folder is %q: %s", snap, got.State, got.Status)
		}
		if got.Report != string(want) {
			t.Errorf("%s: the page's report differs from scripts/inspect's:\n%s", snap, got.Report)
		}
		if len(got.Problems) != 0 || !strings.HasPrefix(got.Status, "Folder "+filepath.Base(snap)+": ") || got.Skipped != "" {
			t.Errorf("%s: status %q, left out %q, problems %v", snap, got.Status, got.Skipped, got.Problems)
		}
		counts := inspectCounts(string(want))
		for _, f := range got.Files {
			n, ok := counts[f.Path]
			if !ok || f.Size == 0 {
				continue // .queue_name, .vhost, .config, empty files
			}
			bv := b.folderBytes(f.Path)
			opened++
			if bv.Path != f.Path || bv.Fields == 0 {
				t.Errorf("%s: %s opens as %q with %d fields", snap, f.Path, bv.Path, bv.Fields)
				continue
			}
			if !strings.HasPrefix(bv.Summary, fmt.Sprintf("%s: ", f.Path)) || !regexp.MustCompile(fmt.Sprintf(`, %d (entry|entries)\b`, n)).MatchString(bv.Summary) {
				t.Errorf("%s: %s: the bytes say %q; scripts/inspect counts %d", snap, f.Path, bv.Summary, n)
			}
			if strings.Contains(bv.Summary, "stopped") {
				t.Errorf("%s: %s: %q", snap, f.Path, bv.Summary)
			}
		}
		// Recover, with the case's definitions, brings back what the
		// real node did when it booted on these files
		rec := b.recover(fixtures.Definitions[path.Dir(snap)])
		if got, want := recoveredLines(rec), observedRestart(t, snap); got != want {
			t.Errorf("%s: Recover shows\n%s\nwhere RabbitMQ 3.10.8 recovered (CASE.md)\n%s", snap, got, want)
		}
	}
	t.Logf("%d files opened as bytes", opened)
	if opened < 20 {
		t.Errorf("%d files opened as bytes in all, want 20 or more", opened)
	}
}

// recoveredLines is what Recover lists: a line a queue that comes back,
// with the first 8 characters of each message's body, in order.
func recoveredLines(r recoveredShown) string {
	if r.State != "done" {
		return "Recover " + r.State + ": " + r.Summary
	}
	var out strings.Builder
	for _, q := range r.Queues {
		fmt.Fprintf(&out, "%s: %s\n", q.Name, strings.Join(q.Messages, " "))
	}
	return out.String()
}

// observedRestart is what snap's CASE.md says RabbitMQ 3.10.8 recovered
// when it booted on the snapshot's files ("After a restart (observed)"),
// as recoveredLines says it.
func observedRestart(t *testing.T, snap string) string {
	t.Helper()
	notes, err := os.ReadFile(filepath.Join(fixtures.RabbitMQ(t), filepath.FromSlash(path.Dir(snap)), "CASE.md"))
	if err != nil {
		t.Fatal(err)
	}
	_, section, ok := strings.Cut(string(notes), "## After a restart (observed)")
	if !ok {
		t.Fatalf("%s: CASE.md has no observed restart", snap)
	}
	line := regexp.MustCompile("(?m)^- `" + regexp.QuoteMeta(path.Base(snap)) + "/`: (.*)$").FindStringSubmatch(section)
	if line == nil {
		t.Fatalf("%s: CASE.md's observed restart has no line for it", snap)
	}
	if strings.Contains(line[1], "shows no queue") {
		return ""
	}
	m := regexp.MustCompile("^`([^`]+)` durable=true messages=(\\d+)\\. basic\\.get gives, in order: (.*?); every one with redelivered=true").FindStringSubmatch(line[1])
	if m == nil {
		t.Fatalf("%s: cannot read CASE.md's observed restart: %s", snap, line[1])
	}
	var bodies []string
	for _, b := range regexp.MustCompile("`([^`]+)…`").FindAllStringSubmatch(m[3], -1) {
		bodies = append(bodies, b[1][:min(8, len(b[1]))])
	}
	if n, _ := strconv.Atoi(m[2]); n != len(bodies) {
		t.Fatalf("%s: CASE.md says %d messages and lists %d", snap, n, len(bodies))
	}
	return m[1] + ": " + strings.Join(bodies, " ") + "\n"
}

// TestBrokerFolderDamaged drops a folder whose index segment is cut, and
// one that is no vhost folder: the first names the file and the offset,
// the second says what it is not, and the folder before stays.
func TestBrokerFolderDamaged(t *testing.T) {
	b := newBrowser(t)
	b.open("/test-files.html")
	evalJS[bool](b, in("warren-scenario", "button.view-files")+".click(), true")
	dir := filepath.Join(fixtures.RabbitMQ(t), "v2-basic", "A")
	cut := tarOf(t, dir, func(rel string, data []byte) []byte {
		if strings.HasSuffix(rel, "/0.qi") {
			return append(append([]byte(nil), data[:len(data)-7]...), 0xff)
		}
		return data
	})
	got := b.dropTar("A.tar", cut)
	if got.State != "open" {
		t.Fatalf("the folder is %q: %s", got.State, got.Status)
	}
	if len(got.Problems) != 1 || !regexp.MustCompile(`queues/\w+/0\.qi: offset \d+: `).MatchString(got.Problems[0]) {
		t.Errorf("problems %q, want one naming 0.qi and its offset", got.Problems)
	}
	marked := false
	for _, f := range got.Files {
		if strings.HasSuffix(f.Path, "/0.qi") {
			marked = strings.Contains(f.Error, "offset ")
		}
	}
	if !marked {
		t.Errorf("the file list does not mark 0.qi with its error: %+v", got.Files)
	}
	b.folderBytes(got.Files[len(got.Files)-1].Path)
	evalJS[bool](b, in("warren-scenario", ".folder")+".scrollIntoView(), true")
	b.shot("broker-folder")
	bad := b.dropTar("notes.tar", tarOf(t, filepath.Join(fixtures.RabbitMQ(t), "v2-basic", "CASE.md"), nil))
	if bad.State != "failed" || !strings.Contains(bad.Status, "not a RabbitMQ vhost folder") {
		t.Errorf("a tar of no vhost folder: %q, %q", bad.State, bad.Status)
	}
	if len(bad.Files) != len(got.Files) {
		t.Errorf("the refused drop changed the folder shown: %d files, had %d", len(bad.Files), len(got.Files))
	}
}

// TestBrokerFolderPicked opens a fixture snapshot's folder itself with the
// view's "Open a broker's folder" button, as a reader picks it in the
// browser's dialog: the files come with their paths in the folder, and the
// report is scripts/inspect's.
func TestBrokerFolderPicked(t *testing.T) {
	b := newBrowser(t)
	b.open("/test-files.html")
	evalJS[bool](b, in("warren-scenario", "button.view-files")+".click(), true")
	snap := "v2-priority/A"
	want, err := os.ReadFile(filepath.Join("..", "..", "scripts", "inspect", "testdata", "v2-priority_A.golden"))
	if err != nil {
		t.Fatal(err)
	}
	dir, err := filepath.Abs(filepath.Join(fixtures.RabbitMQ(t), filepath.FromSlash(snap)))
	if err != nil {
		t.Fatal(err)
	}
	// the reader picks while the widget is still busy with what was asked
	// before, so that the folder is read after the change event is over
	evalJS[bool](b, `document.querySelector("warren-scenario").act(() => new Promise((ok) => setTimeout(ok, 300))), true`)
	_, err = chromedp.Run(b.ctx, chromedp.Action[chromedp.Void](func(ctx context.Context, tg *chromedp.Target) (chromedp.Void, error) {
		r, err := cdp.Call(ctx, tg, runtime.Evaluate, runtime.EvaluateParams{Expression: in("warren-scenario", ".folder input[webkitdirectory]")})
		if err != nil {
			return chromedp.Void{}, err
		}
		if r.ExceptionDetails != nil || r.Result == nil || r.Result.ObjectID == "" {
			return chromedp.Void{}, fmt.Errorf("no folder input: %v", r.ExceptionDetails)
		}
		_, err = cdp.Call(ctx, tg, dom.SetFileInputFiles, dom.SetFileInputFilesParams{Files: []string{dir}, ObjectID: r.Result.ObjectID})
		return chromedp.Void{}, err
	}))
	if err != nil {
		t.Fatal(err)
	}
	got := evalJS[folderShown](b, `(async () => {
		const f = document.querySelector("warren-scenario").shadowRoot.querySelector(".folder");
		for (let i = 0; i < 600 && !f.dataset.state; i++) await new Promise((ok) => setTimeout(ok, 50));
		return {
			state: f.dataset.state || "",
			status: f.querySelector(".folder-status").textContent,
			report: (f.querySelector(".folder-text") || {}).textContent || "",
			problems: [], files: [],
		};
	})()`)
	if got.State != "open" {
		t.Fatalf("the folder is %q: %s", got.State, got.Status)
	}
	if got.Report != string(want) {
		t.Errorf("the page's report differs from scripts/inspect's:\n%s", got.Report)
	}
	if !strings.Contains(got.Status, "Folder A: ") {
		t.Errorf("status %q, want it to name the folder A", got.Status)
	}
}
