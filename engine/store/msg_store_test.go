package store

import (
	"path"
	"strings"
	"testing"

	"warren/engine/store/format"
	"warren/engine/vfs"
)

func storeVHost(t *testing.T, p Profile) (*vfs.MemFS, *VHost, *MsgStore) {
	t.Helper()
	fsys := vfs.NewMemFS()
	v, _, err := OpenVHost(fsys, ".", p, nil)
	if err != nil {
		t.Fatal(err)
	}
	st := v.Store(true)
	st.RegisterClient("a", true)
	st.RegisterClient("b", true)
	return fsys, v, st
}

func term(t *testing.T, n, size int) []byte {
	return publishMsg(t, "q", persistentProps, body("m-", 'x', size), testID(n), true).Term
}

func fileSize(t *testing.T, fsys vfs.FS, name string) int64 {
	t.Helper()
	n, err := fsys.Stat(name)
	if err != nil {
		t.Fatal(err)
	}
	return n
}

// A message written by two queues (fan-out) is stored once and counted
// twice; it becomes garbage when both removed it.
func TestMsgStoreFanOutStoredOnce(t *testing.T) {
	fsys, _, st := storeVHost(t, Profile310())
	tm := term(t, 1, 5000)
	for _, c := range []ClientRef{"a", "b"} {
		if _, err := st.Write(c, testID(1), tm); err != nil {
			t.Fatal(err)
		}
	}
	res, err := st.Sync()
	if err != nil || len(res.Confirms) != 2 {
		t.Fatalf("sync: %v, confirms %v", err, res.Confirms)
	}
	total := int64(len(tm)) + 25
	if got := fileSize(t, fsys, st.fileName(0)); got != total {
		t.Fatalf("0.rdq is %d bytes, want one entry of %d", got, total)
	}
	if st.Refs(testID(1)) != 2 {
		t.Fatalf("refs %d, want 2", st.Refs(testID(1)))
	}
	st.Remove("a", []format.MsgID{testID(1)})
	if valid, _ := st.Totals(); valid != total || !st.Contains(testID(1)) {
		t.Fatalf("after one remove: valid %d, contains %v", valid, st.Contains(testID(1)))
	}
	st.Remove("b", []format.MsgID{testID(1)})
	if valid, size := st.Totals(); valid != 0 || size != total || st.Contains(testID(1)) {
		t.Fatalf("after both removes: valid %d size %d", valid, size)
	}
}

// A write whose remove was issued before the store handled it is skipped:
// nothing reaches the disk and the client is told it was not written.
func TestMsgStoreFlyingSkip(t *testing.T) {
	fsys, _, st := storeVHost(t, Profile310())
	st.ClientWrite("a", testID(1), term(t, 1, 5000))
	st.ClientRemove("a", []format.MsgID{testID(1)})
	res, err := st.HandleWrite("a", testID(1))
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Confirms) != 1 || res.Confirms[0].Written || res.IO.Writes != 0 {
		t.Fatalf("skipped write: confirms %+v, ops %v", res.Confirms, res.IO)
	}
	if res, err = st.HandleRemove("a", []format.MsgID{testID(1)}); err != nil || !res.IO.IsZero() {
		t.Fatalf("skipped remove: %v, %v", err, res.IO)
	}
	if _, err := st.Sync(); err != nil {
		t.Fatal(err)
	}
	if got := fileSize(t, fsys, st.fileName(0)); got != 0 || st.NeedsSync() {
		t.Fatalf("0.rdq is %d bytes after a skipped write", got)
	}
}

// Appends go through a 1 MiB buffer; 3.10 fsyncs before confirming, 3.13
// only writes; the store rolls to a new file at the size limit.
func TestMsgStoreBufferSyncRoll(t *testing.T) {
	for _, p := range []Profile{Profile310(), Profile313()} {
		p.FileSizeLimit = 3 << 20
		fsys, _, st := storeVHost(t, p)
		tm := term(t, 0, 100000)
		entry := int64(len(tm)) + 25
		n := 0
		for ; int64(n+1)*entry <= 1<<20; n++ {
			res, err := st.Write("a", testID(n), tm)
			if err != nil || res.IO.Writes != 0 {
				t.Fatalf("%s: write %d: %v, ops %v", p.Version, n, err, res.IO)
			}
		}
		res, err := st.Write("a", testID(n), tm)
		if err != nil || res.IO.Writes != 1 || res.IO.BytesWritten != int64(n+1)*entry {
			t.Fatalf("%s: the write that fills the buffer: %v, ops %v", p.Version, err, res.IO)
		}
		sres, err := st.Sync()
		if err != nil {
			t.Fatal(err)
		}
		wantSyncs := 0
		if p.Version == Version310 {
			wantSyncs = 1
		}
		if sres.IO.Syncs != wantSyncs || len(sres.Confirms) != 1 || len(sres.Confirms[0].IDs) != n+1 {
			t.Fatalf("%s: sync: ops %v, confirms %d", p.Version, sres.IO, len(sres.Confirms))
		}
		for n++; len(st.Files()) == 1; n++ {
			if _, err := st.Write("a", testID(n), tm); err != nil {
				t.Fatal(err)
			}
		}
		size := fileSize(t, fsys, st.fileName(0))
		if size < p.FileSizeLimit || size-entry >= p.FileSizeLimit {
			t.Fatalf("%s: rolled at %d bytes with a limit of %d", p.Version, size, p.FileSizeLimit)
		}
		if !st.Files()[1].Current {
			t.Fatalf("%s: files %v", p.Version, st.Files())
		}
	}
}

// The transient store is wiped at every start.
func TestTransientStoreWiped(t *testing.T) {
	fsys, v, _ := storeVHost(t, Profile310())
	tr := v.Store(false)
	tr.RegisterClient("a", false)
	for i := 0; i < 200; i++ {
		if _, err := tr.Write("a", testID(i), term(t, i, 10000)); err != nil {
			t.Fatal(err)
		}
	}
	fsys.CrashProcess()
	v2, _, err := OpenVHost(fsys, ".", Profile310(), nil)
	if err != nil {
		t.Fatal(err)
	}
	files := memFiles(t, fsys, v2.Store(false).Dir())
	if len(files) != 1 || len(files["0.rdq"]) != 0 {
		t.Fatalf("transient store after restart: %d files", len(files))
	}
}

// A clean shutdown leaves clean.dot, file_summary.ets and
// msg_store_index.ets; a start with the same clients reads and deletes
// them instead of scanning.
func TestMsgStoreCleanRestart(t *testing.T) {
	fsys, v, _ := newVHostQueue(t, 2)
	q := v.Queue("q")
	terms, _, err := v.Shutdown()
	if err != nil {
		t.Fatal(err)
	}
	dir := path.Join(v.Dir(), persistentStoreDir)
	clean, err := vfs.ReadFile(fsys, path.Join(dir, cleanFile))
	if err != nil || !strings.HasPrefix(string(clean), "{client_refs,[<<") || !strings.HasSuffix(string(clean), "{index_module,rabbit_msg_store_ets_index}.\n") {
		t.Fatalf("clean.dot: %q, %v", clean, err)
	}
	tm := terms["q"]
	v2, _, err := OpenVHost(fsys, ".", Profile310(), []QueueRef{{Name: "q", Options: q.Options(), Terms: &tm}})
	if err != nil {
		t.Fatal(err)
	}
	if !v2.Store(true).Clean() {
		t.Fatal("the store did not recover cleanly")
	}
	for _, f := range []string{cleanFile, fileSummaryFile, indexFile} {
		if _, err := fsys.Stat(path.Join(dir, f)); err == nil {
			t.Errorf("%s left after a clean start", f)
		}
	}
	_, rec, err := v2.RecoverQueue("q")
	if err != nil || !rec.Clean || len(rec.Messages) != 10 {
		t.Fatalf("recover: %v, clean %v, %d messages", err, rec.Clean, len(rec.Messages))
	}
}

// newVHostQueue publishes 10 persistent messages of 6 KB (shared store) to
// a durable queue "q" and confirms them.
func newVHostQueue(t *testing.T, version int) (*vfs.MemFS, *VHost, map[uint64][]byte) {
	t.Helper()
	fsys, v := newVHost(t)
	q := mustOpen(t, v, "q", QueueOptions{Durable: true, Version: version})
	terms := map[uint64][]byte{}
	for i := 0; i < 10; i++ {
		pm := publishMsg(t, "q", persistentProps, body("m-", 'x', 6000), testID(i), true)
		terms[uint64(i)] = pm.Term
		mustPublish(t, v, q, uint64(i), pm)
	}
	if n := syncAll(t, v, q); n != 10 {
		t.Fatalf("%d confirms", n)
	}
	return fsys, v, terms
}

// After a crash the last file is cut after its last message some queue
// references, and a file holding nothing referenced is deleted.
func TestMsgStoreDirtyRecovery(t *testing.T) {
	fsys, v, _ := newVHostQueue(t, 2)
	st := v.Store(true)
	// A torn entry at the end of the current file, and garbage.
	f, err := fsys.Open(st.fileName(0))
	if err != nil {
		t.Fatal(err)
	}
	size, _ := f.Size()
	f.Write([]byte{0, 0, 0, 0, 0, 0, 0x27, 0x10, 1, 2, 3})
	f.Close()
	fsys.CrashProcess()
	v2, _, err := OpenVHost(fsys, ".", Profile310(), []QueueRef{{Name: "q", Options: QueueOptions{Durable: true, Version: 2}}})
	if err != nil {
		t.Fatal(err)
	}
	if got := fileSize(t, fsys, st.fileName(0)); got != size {
		t.Fatalf("0.rdq is %d bytes after recovery, want %d", got, size)
	}
	_, rec, err := v2.RecoverQueue("q")
	if err != nil || rec.Clean || len(rec.Messages) != 10 {
		t.Fatalf("recover: %v, clean %v, %d messages", err, rec.Clean, len(rec.Messages))
	}
}

// A .rdt left by a crashed merge is appended to its .rdq and deleted.
func TestRecoverCrashedCompaction(t *testing.T) {
	fsys, v, terms := newVHostQueue(t, 2)
	st := v.Store(true)
	data, _ := vfs.ReadFile(fsys, st.fileName(0))
	first := int64(len(terms[0])) + 25
	// As if a merge had copied the second message to the .rdt and cut the
	// file after the first.
	vfs.WriteFile(fsys, st.tmpName(0), data[first:2*first])
	f, _ := fsys.Open(st.fileName(0))
	f.Truncate(first)
	f.Close()
	fsys.CrashProcess()
	v2, _, err := OpenVHost(fsys, ".", Profile310(), []QueueRef{{Name: "q", Options: QueueOptions{Durable: true, Version: 2}}})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := fsys.Stat(st.tmpName(0)); err == nil {
		t.Fatal(".rdt left after recovery")
	}
	_, rec, err := v2.RecoverQueue("q")
	if err != nil || len(rec.Messages) != 2 {
		t.Fatalf("recover: %v, %d messages, want the 2 left", err, len(rec.Messages))
	}
	if rec.Dropped.PersistentPerVHost != 8 {
		t.Fatalf("dropped %+v, want 8 missing from the store", rec.Dropped)
	}
}
