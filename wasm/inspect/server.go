//go:build js && wasm

package main

import (
	"encoding/hex"
	"encoding/json"
	"fmt"
	"path"
	"strings"

	"warren/engine/store/inspect"
)

// maxFileBytes is how much of a file folderBytes sends, as the engine's
// fileBytes does (engine/node.MaxFileBytes).
const maxFileBytes = 2 << 20

func errorf(format string, args ...any) error { return fmt.Errorf(format, args...) }

// server holds the folders dropped on each widget, by its simulation.
type server struct {
	folders map[int]*inspect.Folder
}

type problemJSON struct {
	File  string `json:"file"`
	Error string `json:"error"`
}

type fileJSON struct {
	Path  string `json:"path"`
	Kind  string `json:"kind"`
	Size  int64  `json:"size"`
	Error string `json:"error,omitempty"`
}

type folderJSON struct {
	Root     string        `json:"root"`
	Skipped  []string      `json:"skipped"`
	Report   string        `json:"report"`
	Problems []problemJSON `json:"problems"`
	Files    []fileJSON    `json:"files"`
}

// bytesJSON is a file as warren's fileBytes sends one (engine/jsonenc.FileBytes).
type bytesJSON struct {
	Path       string  `json:"path"`
	Kind       string  `json:"kind"`
	Size       int64   `json:"size"`
	Synced     int64   `json:"synced"`
	PerSegment int     `json:"perSegment"`
	Dead       []int64 `json:"dead"`
	Data       string  `json:"data"`
}

// openFolder reads a folder and keeps it for the widget of simulation id; a
// folder that cannot be opened leaves the one before.
func (s *server) openFolder(id int, files []inspect.NamedFile) (string, error) {
	fo, err := inspect.OpenFolder(files)
	if err != nil {
		return "", err
	}
	s.folders[id] = fo
	r := fo.Report
	out := folderJSON{Root: fo.Root, Skipped: append([]string{}, fo.Skipped...), Report: r.Text(), Problems: []problemJSON{}, Files: []fileJSON{}}
	for _, p := range r.Problems {
		out.Problems = append(out.Problems, problemJSON{p.File, p.Err.Error()})
	}
	for _, f := range fo.Files() {
		fj := fileJSON{Path: f.Path, Kind: fileKind(f.Path), Size: f.Size}
		if err := fo.Problem(f.Path); err != nil {
			fj.Error = err.Error()
		}
		out.Files = append(out.Files, fj)
	}
	b, err := json.Marshal(out)
	return string(b), err
}

// fileKind names a file as the Files view does: qi, qs, rdq, idx, jif or other.
func fileKind(p string) string {
	switch k := strings.TrimPrefix(path.Ext(p), "."); k {
	case "qi", "qs", "rdq", "idx", "jif":
		return k
	}
	return "other"
}

// folderBytes reads one file of the folder as the engine's fileBytes reads
// one of the simulated node's: its first 2 MiB, the v1 segment size of the
// folder's .config and the store entries nothing live points at.
func (s *server) folderBytes(id int, p string) (string, error) {
	fo := s.folders[id]
	if fo == nil {
		return "", errorf("no broker's folder is open on this widget")
	}
	data, err := fo.Read(p)
	if err != nil {
		return "", err
	}
	size := int64(len(data))
	dead := fo.Dead(p)
	if dead == nil {
		dead = []int64{}
	}
	b, err := json.Marshal(bytesJSON{Path: p, Kind: fileKind(p), Size: size, Synced: size, PerSegment: fo.Report.SegmentEntryCount, Dead: dead, Data: hex.EncodeToString(data[:min(size, maxFileBytes)])})
	return string(b), err
}

// closeFolder lets a widget's folder go.
func (s *server) closeFolder(id int) bool {
	_, had := s.folders[id]
	delete(s.folders, id)
	return had
}
