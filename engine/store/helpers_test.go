package store

import (
	"bytes"
	"fmt"
	"os"
	"path"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"warren/engine/store/format"
	"warren/engine/store/inspect"
	"warren/engine/vfs"
)

// snapshotFiles reads every file of a fixture snapshot, by slash path.
func snapshotFiles(t *testing.T, dir string) map[string][]byte {
	t.Helper()
	out := map[string][]byte{}
	err := filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		rel, _ := filepath.Rel(dir, p)
		data, err := os.ReadFile(p)
		out[filepath.ToSlash(rel)] = data
		return err
	})
	if err != nil {
		t.Fatalf("reading fixture %s: %v", dir, err)
	}
	return out
}

// memFiles returns every file under dir of fsys, by path relative to dir.
func memFiles(t *testing.T, fsys vfs.FS, dir string) map[string][]byte {
	t.Helper()
	out := map[string][]byte{}
	var walk func(rel string)
	walk = func(rel string) {
		full := path.Join(dir, rel)
		if !vfs.IsDir(fsys, full) {
			data, err := vfs.ReadFile(fsys, full)
			if err != nil {
				t.Fatalf("read %s: %v", full, err)
			}
			out[rel] = data
			return
		}
		names, err := fsys.List(full)
		if err != nil {
			t.Fatalf("list %s: %v", full, err)
		}
		for _, n := range names {
			walk(path.Join(rel, n))
		}
	}
	names, err := fsys.List(dir)
	if err != nil {
		t.Fatalf("list %s: %v", dir, err)
	}
	for _, n := range names {
		walk(n)
	}
	return out
}

// compareFiles reports every difference between the files we wrote and the
// fixture's, byte for byte.
func compareFiles(t *testing.T, label string, got, want map[string][]byte) {
	t.Helper()
	var names []string
	seen := map[string]bool{}
	for n := range got {
		names, seen[n] = append(names, n), true
	}
	for n := range want {
		if !seen[n] {
			names = append(names, n)
		}
	}
	sort.Strings(names)
	for _, n := range names {
		g, gok := got[n]
		w, wok := want[n]
		switch {
		case !gok:
			t.Errorf("%s: %s (%d bytes) missing", label, n, len(w))
		case !wok:
			t.Errorf("%s: %s (%d bytes) written, not in the fixture", label, n, len(g))
		case !bytes.Equal(g, w):
			at := 0
			for at < len(g) && at < len(w) && g[at] == w[at] {
				at++
			}
			t.Errorf("%s: %s differs at offset %d: %d bytes written, fixture has %d", label, n, at, len(g), len(w))
		}
	}
}

// loadMemFS copies a fixture snapshot into a MemFS under dir.
func loadMemFS(t *testing.T, files map[string][]byte, dir string) *vfs.MemFS {
	t.Helper()
	fsys := vfs.NewMemFS()
	for n, data := range files {
		p := path.Join(dir, n)
		if err := fsys.MkdirAll(path.Dir(p)); err != nil {
			t.Fatal(err)
		}
		if err := vfs.WriteFile(fsys, p, data); err != nil {
			t.Fatal(err)
		}
	}
	return fsys
}

// fixtureIDs returns, by queue name and seq, the message ids a fixture
// snapshot holds (read with the inspect package).
func fixtureIDs(t *testing.T, files map[string][]byte) map[string]map[uint64]format.MsgID {
	t.Helper()
	fsys := loadMemFS(t, files, "v")
	rep, err := inspect.Inspect(fsys, "v")
	if err != nil {
		t.Fatalf("inspect: %v", err)
	}
	out := map[string]map[uint64]format.MsgID{}
	for _, q := range rep.Queues {
		m := map[uint64]format.MsgID{}
		for _, e := range q.Entries {
			if e.HasMsgID {
				m[e.SeqID] = e.MsgID
			}
		}
		out[q.Name] = m
	}
	return out
}

// body returns a fixture body: prefix padded with pad to size bytes.
func body(prefix string, pad byte, size int) []byte {
	return []byte(prefix + strings.Repeat(string(pad), size-len(prefix)))
}

// publishMsg builds a PublishedMsg for the default exchange.
func publishMsg(t testing.TB, queue string, props format.Properties, b []byte, id format.MsgID, confirm bool) PublishedMsg {
	t.Helper()
	m := format.NewMessage("", queue, props, b, id, props.Persistent())
	pm, err := NewPublishedMsg(m, 0, confirm)
	if err != nil {
		t.Fatal(err)
	}
	return pm
}

// deliver runs store calls and returns the confirms routed to queues.
func deliver(t testing.TB, v *VHost, calls []StoreCall) map[string][]format.MsgID {
	t.Helper()
	out, _, err := v.Deliver(calls)
	if err != nil {
		t.Fatalf("deliver: %v", err)
	}
	return out
}

// syncAll runs queue and store syncs until nothing waits, as the timers
// do; it returns the number of confirms.
func syncAll(t testing.TB, v *VHost, qs ...*QueueFiles) int {
	t.Helper()
	n := 0
	for round := 0; round < 4; round++ {
		for _, q := range qs {
			res, err := q.Sync()
			if err != nil {
				t.Fatalf("sync %s: %v", q.Name(), err)
			}
			n += len(res.Confirmed)
		}
		confirms, _, err := v.SyncStores()
		if err != nil {
			t.Fatalf("store sync: %v", err)
		}
		for _, ids := range confirms {
			n += len(ids)
		}
	}
	return n
}

func mustID(t testing.TB, ids map[uint64]format.MsgID, seq uint64) format.MsgID {
	t.Helper()
	id, ok := ids[seq]
	if !ok {
		t.Fatalf("fixture has no id for seq %d", seq)
	}
	return id
}

// testID returns a deterministic message id.
func testID(n int) format.MsgID {
	var id format.MsgID
	copy(id[:], fmt.Sprintf("id-%012d", n))
	return id
}

// readAll reads a whole file of fsys.
func readAll(fsys vfs.FS, name string) ([]byte, error) { return vfs.ReadFile(fsys, name) }

// durableQueue opens a vhost on a fresh MemFS, tracing off as the node
// runs it, and in it a durable queue with index version version.
func durableQueue(tb testing.TB, name string, version int) (*VHost, *QueueFiles) {
	tb.Helper()
	fsys := vfs.NewMemFS()
	fsys.SetTracing(false)
	v, _, err := OpenVHost(fsys, ".", Profile310(), nil)
	if err != nil {
		tb.Fatal(err)
	}
	q, _, err := v.OpenQueue(name, QueueOptions{Durable: true, Version: version})
	if err != nil {
		tb.Fatal(err)
	}
	return v, q
}
