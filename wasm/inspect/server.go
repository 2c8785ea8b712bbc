//go:build js && wasm

package main

import (
	"encoding/hex"
	"encoding/json"
	"fmt"
	"path"
	"strings"

	"warren/engine/boot"
	"warren/engine/definitions"
	"warren/engine/store/format"
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

// fileBytes is a file of the simulated node's disk as warren.wasm's
// fileBytes sends it (engine/jsonenc.FileBytes), its data in hex.
type fileBytes struct {
	Path       string
	Kind       string
	Size       int64
	Synced     int64
	PerSegment int
	Dead       []int64
	Data       string
}

// annotated is a file read field by field, as the Files view draws it:
// {"path", "kind", "size", "synced", "annotation"} (the annotation as
// format.Annotation.AppendJSON writes it, the dead entries marked so).
func annotated(path, kind string, size, synced int64, data []byte, perSegment int, dead []int64) string {
	a := format.Annotate(path, data, perSegment)
	a.MarkDead(dead)
	head, _ := json.Marshal(struct {
		Path   string `json:"path"`
		Kind   string `json:"kind"`
		Size   int64  `json:"size"`
		Synced int64  `json:"synced"`
	}{path, kind, size, synced})
	b := append(head[:len(head)-1], `,"annotation":`...)
	return string(append(a.AppendJSON(b), '}'))
}

// annotate reads a file of the simulated node's disk field by field: what
// warren.wasm's fileBytes answered in, the file as the Files view draws
// it out.
func annotate(f fileBytes) (string, error) {
	data, err := hex.DecodeString(f.Data)
	if err != nil {
		return "", errorf("annotate: %s: its bytes are not hex: %v", f.Path, err)
	}
	return annotated(f.Path, f.Kind, f.Size, f.Synced, data, f.PerSegment, f.Dead), nil
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

// folderBytes reads one file of the folder field by field, as annotate
// reads one of the simulated node's: its first 2 MiB, by the v1 segment
// size of the folder's .config, the store entries nothing live points at
// marked dead.
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
	return annotated(p, fileKind(p), size, size, data[:min(size, maxFileBytes)], fo.Report.SegmentEntryCount, fo.Dead(p)), nil
}

// closeFolder lets a widget's folder go.
func (s *server) closeFolder(id int) bool {
	_, had := s.folders[id]
	delete(s.folders, id)
	return had
}

type recoveredJSON struct {
	VHost  string      `json:"vhost"`
	Named  string      `json:"named"`
	Queues []queueJSON `json:"queues"`
	Gone   []goneJSON  `json:"gone"`
	// Why says why every message that comes back is redelivered.
	Why string `json:"why"`
	// Script is the node as lines of the language (boot.Script).
	Script []string `json:"script"`
}

type queueJSON struct {
	Name     string        `json:"name"`
	Assumed  bool          `json:"assumed"`
	Dirs     []string      `json:"dirs"`
	Args     string        `json:"args"`
	Messages []messageJSON `json:"messages"`
	Lost     []lostJSON    `json:"lost"`
}

type messageJSON struct {
	Exchange    string `json:"exchange"`
	Key         string `json:"key"`
	Size        int    `json:"size"`
	Body        string `json:"body"` // its first 64 bytes, as text
	Priority    int    `json:"priority"`
	Persistent  bool   `json:"persistent"`
	Redelivered bool   `json:"redelivered"`
}

// lostJSON and goneJSON give why as a code the widget's catalogs word
// (folder.why.CODE), and the English sentence of engine/boot beside it.
type lostJSON struct {
	Dir  string `json:"dir"`
	Seq  uint64 `json:"seq"`
	Size uint32 `json:"size"`
	Why  string `json:"why"`
	Text string `json:"text"`
}

type goneJSON struct {
	Dir      string `json:"dir"`
	Name     string `json:"name"`
	Messages int    `json:"messages"`
	Why      string `json:"why"`
	Text     string `json:"text"`
}

// whyCodes name engine/boot's reasons for the catalogs.
var whyCodes = map[string]string{
	boot.WhyTransient:  "transient",
	boot.WhyNoBody:     "noBody",
	boot.WhyInMemory:   "inMemory",
	boot.WhyNotDurable: "notDurable",
	boot.WhyUnknown:    "unknown",
}

// recoverFolder starts the open folder of simulation id as RabbitMQ 3.10.8
// would on boot (engine/boot), with the definitions defs when they are not
// "": which queues and messages come back, which do not and why, and the
// lines of the language that start the simulated node with them.
func (s *server) recoverFolder(id int, defs string) (string, error) {
	fo := s.folders[id]
	if fo == nil {
		return "", errorf("no broker's folder is open on this widget")
	}
	var d *definitions.Defs
	if strings.TrimSpace(defs) != "" {
		var err error
		if d, err = definitions.Parse(defs); err != nil {
			return "", errorf("definitions: %v", err)
		}
	}
	n, err := boot.Recover(fo, d)
	if err != nil {
		return "", err
	}
	out := recoveredJSON{VHost: n.VHost, Named: n.Named, Queues: []queueJSON{}, Gone: []goneJSON{}, Why: boot.WhyRedelivered, Script: boot.Script(n)}
	for _, q := range n.Queues {
		qj := queueJSON{Name: q.Name, Assumed: q.Assumed, Dirs: q.Dirs, Args: q.Args.String(), Messages: []messageJSON{}, Lost: []lostJSON{}}
		for _, m := range q.Messages {
			body := m.Body[:min(len(m.Body), 64)]
			qj.Messages = append(qj.Messages, messageJSON{Exchange: m.Exchange, Key: m.Key, Size: len(m.Body), Body: string(body),
				Priority: int(m.Props.Priority), Persistent: m.Props.DeliveryMode == 2, Redelivered: m.Redelivered})
			if !m.Props.Has(format.FlagPriority) {
				qj.Messages[len(qj.Messages)-1].Priority = -1
			}
		}
		for _, l := range q.Lost {
			qj.Lost = append(qj.Lost, lostJSON{Dir: l.Dir, Seq: l.Seq, Size: l.Size, Why: whyCodes[l.Why], Text: l.Why})
		}
		out.Queues = append(out.Queues, qj)
	}
	for _, g := range n.Gone {
		out.Gone = append(out.Gone, goneJSON{Dir: g.Dir, Name: g.Name, Messages: g.Messages, Why: whyCodes[g.Why], Text: g.Why})
	}
	b, err := json.Marshal(out)
	return string(b), err
}
