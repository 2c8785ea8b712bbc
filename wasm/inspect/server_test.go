//go:build js && wasm

package main

// These tests run under Node (GOOS=js GOARCH=wasm go test, with
// go_js_wasm_exec on PATH): what inspect.wasm answers the Files view.

import (
	"encoding/json"
	"strings"
	"syscall/js"
	"testing"

	"warren/engine"
	"warren/engine/jsonenc"
	"warren/engine/store/inspect"
	"warren/internal/fixtures"
)

// shownFile is the JSON the Files view draws.
type shownFile struct {
	Path       string `json:"path"`
	Kind       string `json:"kind"`
	Size       int64  `json:"size"`
	Synced     int64  `json:"synced"`
	Annotation struct {
		Kind   string `json:"kind"`
		Read   int64  `json:"read"`
		Fields []struct {
			Off   int64  `json:"off"`
			Len   int64  `json:"len"`
			Name  string `json:"name"`
			Value any    `json:"value"`
			Entry int    `json:"entry"`
			Head  string `json:"head"`
		} `json:"fields"`
		Entries []struct {
			Off   int64  `json:"off"`
			State string `json:"state"`
		} `json:"entries"`
		Total int `json:"total"`
		Stop  any `json:"stop"`
	} `json:"annotation"`
}

func parseShown(t *testing.T, s string) shownFile {
	t.Helper()
	var f shownFile
	if err := json.Unmarshal([]byte(s), &f); err != nil {
		t.Fatalf("%v: %.300s", err, s)
	}
	return f
}

// checkCovered checks that the fields name every byte read, in order.
func checkCovered(t *testing.T, f shownFile) {
	t.Helper()
	at := int64(0)
	for _, x := range f.Annotation.Fields {
		if x.Off != at || !strings.HasPrefix(x.Name, "files.f.") {
			t.Fatalf("%s: field %s at %d, after %d", f.Path, x.Name, x.Off, at)
		}
		at += x.Len
	}
	if at != f.Annotation.Read {
		t.Errorf("%s: the fields end at %d of %d bytes", f.Path, at, f.Annotation.Read)
	}
}

// TestAnnotateSimFile: a file of the simulated node's disk, as warren's
// fileBytes sends it, comes back read field by field, its dead entries
// marked so.
func TestAnnotateSimFile(t *testing.T) {
	s := engine.New(engine.Options{})
	for _, l := range []string{"queue.declare queue=d durable x-queue-version=2", "confirm.select", "basic.publish key=d persistent size=5000 count=2",
		"basic.publish key=d persistent size=10 count=2", "basic.get queue=d no-ack", "wait ms=100"} {
		s.Run(l, engine.RunOptions{})
	}
	for _, p := range []string{"msg_store_persistent/0.rdq"} {
		fb, err := s.FileBytes(p)
		if err != nil {
			t.Fatal(err)
		}
		out, err := annotate(sentFileBytes(t, jsonenc.FileBytes(&fb)))
		if err != nil {
			t.Fatal(err)
		}
		f := parseShown(t, out)
		if f.Path != p || f.Kind != "rdq" || f.Size != fb.Size || f.Synced != fb.Synced || f.Annotation.Kind != "rdq" || f.Annotation.Read != int64(len(fb.Data)) {
			t.Fatalf("%.300s", out)
		}
		checkCovered(t, f)
		dead := 0
		for _, e := range f.Annotation.Entries {
			if e.State == "dead" {
				dead++
				if e.Off != fb.Dead[0] {
					t.Errorf("%s: the entry at %d reads dead, the node says %v", p, e.Off, fb.Dead)
				}
			}
		}
		if len(fb.Dead) != 1 || dead != 1 || len(f.Annotation.Entries) != 2 {
			t.Errorf("%s: %d of %d entries read dead, the node says %v", p, dead, len(f.Annotation.Entries), fb.Dead)
		}
	}
	if _, err := annotate(fileBytes{Path: "0.qi", Data: "zz"}); err == nil || !strings.Contains(err.Error(), "0.qi") {
		t.Errorf("annotate of bytes that are not hex: %v", err)
	}
}

// sentFileBytes is warren's fileBytes as the worker hands it to annotate:
// parsed, then read from JavaScript's object (fileBytesArg).
func sentFileBytes(t *testing.T, answer string) fileBytes {
	t.Helper()
	var v map[string]any
	if err := json.Unmarshal([]byte(answer), &v); err != nil {
		t.Fatal(err)
	}
	f, err := fileBytesArg([]js.Value{js.ValueOf(v)})
	if err != nil {
		t.Fatal(err)
	}
	return f
}

// TestFileBytesArg: annotate's argument is read from JavaScript's object,
// and one that is not what fileBytes answers is refused, naming what is
// wrong.
func TestFileBytesArg(t *testing.T) {
	good := map[string]any{"path": "queues/X/1.idx", "kind": "idx", "size": 40, "synced": 30, "perSegment": 2048, "dead": []any{0, 12}, "data": "00ff"}
	f, err := fileBytesArg([]js.Value{js.ValueOf(good)})
	if err != nil || f.Path != "queues/X/1.idx" || f.Kind != "idx" || f.Size != 40 || f.Synced != 30 || f.PerSegment != 2048 || len(f.Dead) != 2 || f.Dead[1] != 12 || f.Data != "00ff" {
		t.Errorf("%+v, %v", f, err)
	}
	for k, want := range map[string]string{"data": "fileBytes.data", "size": "fileBytes.size", "dead": "fileBytes.dead"} {
		bad := map[string]any{}
		for kk, v := range good {
			if kk != k {
				bad[kk] = v
			}
		}
		if _, err := fileBytesArg([]js.Value{js.ValueOf(bad)}); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("without %s: %v", k, err)
		}
	}
	if _, err := fileBytesArg([]js.Value{js.ValueOf("{}")}); err == nil || !strings.HasPrefix(err.Error(), "annotate: ") {
		t.Errorf("a string: %v", err)
	}
}

// TestFolderBytes: a file of a dropped folder comes back read field by
// field; a file nothing explains is unreadable and says why.
func TestFolderBytes(t *testing.T) {
	var files []inspect.NamedFile
	for _, f := range fixtures.Dropped(t, "v2-basic/A", "A") {
		files = append(files, inspect.NamedFile(f))
	}
	s := &server{folders: map[int]*inspect.Folder{}}
	if _, err := s.openFolder(1, files); err != nil {
		t.Fatal(err)
	}
	n := 0
	for _, f := range files {
		p := strings.TrimPrefix(f.Path, "A/")
		if fileKind(p) == "other" {
			continue
		}
		out, err := s.folderBytes(1, p)
		if err != nil {
			t.Fatal(err)
		}
		shown := parseShown(t, out)
		if shown.Path != p || shown.Size != int64(len(f.Data)) || shown.Synced != shown.Size || shown.Annotation.Kind != shown.Kind {
			t.Errorf("%s: %.200s", p, out)
		}
		checkCovered(t, shown)
		if len(f.Data) > 0 && len(shown.Annotation.Entries) == 0 {
			t.Errorf("%s: no entries", p)
		}
		n++
	}
	if n < 4 {
		t.Errorf("only %d files of the folder were read", n)
	}
	if _, err := s.folderBytes(2, "x.qi"); err == nil {
		t.Error("a widget without a folder read one")
	}
}
