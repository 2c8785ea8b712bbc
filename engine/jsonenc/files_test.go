package jsonenc

import (
	"encoding/hex"
	"encoding/json"
	"strings"
	"testing"

	"warren/engine"
	"warren/engine/say"
)

// TestFileBytesJSON: the JSON of a file of the Files view parses and
// carries its bytes and its dead entries.
func TestFileBytesJSON(t *testing.T) {
	s := engine.New(engine.Options{})
	for _, l := range []string{"queue.declare queue=d durable x-queue-version=2", "confirm.select", "basic.publish key=d persistent size=5000 count=2",
		"basic.get queue=d no-ack", "wait ms=100"} {
		s.Run(l, engine.RunOptions{})
	}
	fb, err := s.FileBytes("msg_store_persistent/0.rdq")
	if err != nil {
		t.Fatal(err)
	}
	var got struct {
		Path       string  `json:"path"`
		Kind       string  `json:"kind"`
		Size       int64   `json:"size"`
		Synced     int64   `json:"synced"`
		PerSegment int     `json:"perSegment"`
		Dead       []int64 `json:"dead"`
		Data       string  `json:"data"`
	}
	if err := json.Unmarshal([]byte(FileBytes(&fb)), &got); err != nil {
		t.Fatal(err)
	}
	if got.Path != fb.Path || got.Kind != "rdq" || got.Size != fb.Size || got.Synced != fb.Synced || got.PerSegment != 2048 ||
		len(got.Dead) != 1 || got.Dead[0] != 0 || got.Data != hex.EncodeToString(fb.Data) || int64(len(fb.Data)) != fb.Size {
		t.Fatalf("%+v (dead %v)", got, fb.Dead)
	}
}

// TestSnapshotDuringGC: a snapshot whose files carry a GC step encodes as
// encoding/json encodes it, with the step as data beside its line (gcSaid,
// as Said writes a sentence), which says the line byte for byte.
func TestSnapshotDuringGC(t *testing.T) {
	s := engine.New(engine.Options{Record: true})
	for _, l := range []string{"set file-size-limit=16384", "queue.declare queue=big durable x-queue-version=2", "confirm.select",
		"basic.publish key=big size=5000 count=12 persistent", "basic.consume queue=big tag=w on=c2.1",
		"basic.ack tag=1 on=c2.1", "basic.ack tag=2 on=c2.1", "basic.ack tag=3 on=c2.1", "basic.ack tag=5 on=c2.1",
		"basic.ack tag=6 on=c2.1", "basic.ack tag=7 on=c2.1", "basic.ack tag=9 on=c2.1", "run ms=1000"} {
		s.Run(l, engine.RunOptions{})
	}
	seen := false
	for n := int64(1); n <= s.Furthest(); n++ {
		if err := s.SeekEvent(n); err != nil {
			t.Fatal(err)
		}
		snap := s.Snapshot()
		for _, f := range snap.Files {
			seen = seen || f.GC != ""
		}
		marshalled, _ := json.Marshal(snap)
		want := string(marshalled)
		done := map[string]bool{}
		for _, f := range snap.Files {
			if f.GC == "" || done[f.GC] {
				continue
			}
			done[f.GC] = true
			if f.GCSaid.String() != f.GC {
				t.Fatalf("event %d: %s's step is said %q, its line is %q", n, f.Path, f.GCSaid.String(), f.GC)
			}
			line, _ := json.Marshal(f.GC)
			said, _ := json.Marshal(saidJSON{Text: f.GC, Key: f.GCSaid.Key, Args: saidArgs(f.GCSaid)})
			want = strings.ReplaceAll(want, `"gc":`+string(line)+`}`, `"gc":`+string(line)+`,"gcSaid":`+string(said)+`}`)
		}
		if got := Snapshot(&snap); got != want {
			t.Fatalf("event %d: snapshot JSON differs:\n got %s\nwant %s", n, got, want)
		}
	}
	if !seen {
		t.Fatal("no snapshot had a file under GC")
	}
}

// saidJSON is a sentence as the widget takes it, for encoding/json; a
// sentence inside it has no text.
type saidJSON struct {
	Text string `json:"text,omitempty"`
	Key  string `json:"key"`
	Args []any  `json:"args"`
}

func saidArgs(t say.Text) []any {
	args := []any{}
	for _, a := range t.Args {
		if in, ok := a.(say.Text); ok {
			a = saidJSON{Key: in.Key, Args: saidArgs(in)}
		}
		args = append(args, a)
	}
	return args
}
