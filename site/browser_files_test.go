package site_test

// Browser tests of the Files view: the node's files as strips of entries,
// following the timeline.

import (
	"fmt"
	"strings"
	"testing"

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
		const marks = (li) => [...li.querySelectorAll(".strip .mark")].map((m) => m.dataset.mark).join("");
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
