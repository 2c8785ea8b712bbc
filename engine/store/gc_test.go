package store

import (
	"bytes"
	"flag"
	"fmt"
	"os"
	"path"
	"path/filepath"
	"strings"
	"testing"

	"warren/engine/store/format"
	"warren/engine/vfs"
)

var rewrite = flag.Bool("rewrite", false, "rewrite the golden files in testdata/")

// golden compares got with testdata/name, or rewrites it with -rewrite.
func golden(t *testing.T, name, got string) {
	t.Helper()
	file := filepath.Join("testdata", name)
	if *rewrite {
		if err := os.MkdirAll("testdata", 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(file, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(file)
	if err != nil {
		t.Fatalf("%v (run with -rewrite to create it)", err)
	}
	if string(want) != got {
		t.Errorf("%s differs from the output (run with -rewrite and read the diff):\n%s", file, got)
	}
}

// gcSetup publishes 16 messages of 10 KB to a durable v2 queue of a vhost
// whose store rolls files at 32 KiB (4 messages per file), then acks all
// but keep; it returns the vhost, the queue and the live bodies by seq.
func gcSetup(t *testing.T, p Profile, keep []uint64) (*vfs.MemFS, *VHost, *QueueFiles, map[uint64][]byte) {
	t.Helper()
	p.FileSizeLimit = 32 << 10
	fsys := vfs.NewMemFS()
	v, _, err := OpenVHost(fsys, ".", p, nil)
	if err != nil {
		t.Fatal(err)
	}
	q := mustOpen(t, v, "gc", QueueOptions{Durable: true, Version: 2})
	terms := map[uint64][]byte{}
	for seq := uint64(0); seq < 16; seq++ {
		pm := publishMsg(t, "gc", persistentProps, body(fmt.Sprintf("big-%02d-", seq), 'g', 10000), testID(int(seq)), true)
		terms[seq] = pm.Term
		mustPublish(t, v, q, seq, pm)
	}
	if n := syncAll(t, v, q); n != 16 {
		t.Fatalf("%d confirms, want 16", n)
	}
	kept := map[uint64]bool{}
	for _, s := range keep {
		kept[s] = true
	}
	for seq := uint64(0); seq < 16; seq++ {
		if !kept[seq] {
			mustAck(t, v, q, seq)
			delete(terms, seq)
		}
	}
	return fsys, v, q, terms
}

// fileTable prints the store's files: number, live and total bytes, and
// the size on disk.
func fileTable(fsys vfs.FS, st *MsgStore) string {
	var parts []string
	for _, f := range st.Files() {
		disk, _ := fsys.Stat(st.fileName(f.Num))
		mark := ""
		if f.Current {
			mark = " (current)"
		}
		if f.Locked {
			mark += " (locked)"
		}
		parts = append(parts, fmt.Sprintf("%d.rdq live %d of %d, %d on disk%s", f.Num, f.Valid, f.Size, disk, mark))
	}
	tmps, _ := st.d.segmentFiles(st.dir, tmpExt)
	for _, n := range tmps {
		parts = append(parts, fmt.Sprintf("%d.rdt", n))
	}
	return "  " + strings.Join(parts, "\n  ") + "\n"
}

// runGCSteps runs the GC step by step and prints what each step did.
func runGCSteps(t *testing.T, fsys vfs.FS, st *MsgStore, out *strings.Builder) {
	t.Helper()
	for i := 0; i < 200; i++ {
		rep, err := st.GCStep()
		if err != nil {
			t.Fatalf("GC step: %v", err)
		}
		if rep.Step == "idle" {
			return
		}
		fmt.Fprintf(out, "%s: %s %s: %s\n", rep.Job, rep.Step, path.Base(rep.File), rep.Detail)
		for _, m := range rep.Moved {
			fmt.Fprintf(out, "    %s %d.rdq@%d -> %d.rdq@%d\n", strings.TrimRight(string(m.ID[:]), "\x00"), m.FromFile, m.FromOffset, m.ToFile, m.ToOffset)
		}
		if rep.Done {
			out.WriteString(fileTable(fsys, st))
		}
	}
	t.Fatal("the GC does not finish")
}

// checkLive reads every live message back and checks its bytes, then
// recovers the vhost after a clean shutdown and after a crash and checks
// again.
func checkLive(t *testing.T, fsys *vfs.MemFS, v *VHost, q *QueueFiles, terms map[uint64][]byte) {
	t.Helper()
	for seq, want := range terms {
		got, _, err := q.Read(seq)
		if err != nil || !bytes.Equal(got, want) {
			t.Fatalf("seq %d after GC: %v (%d bytes, want %d)", seq, err, len(got), len(want))
		}
	}
	p := v.Profile()
	for _, clean := range []bool{true, false} {
		ref := QueueRef{Name: q.Name(), Options: q.Options()}
		if clean {
			tm, _, err := v.Shutdown()
			if err != nil {
				t.Fatal(err)
			}
			t2 := tm[q.Name()]
			ref.Terms = &t2
		} else {
			fsys.CrashProcess()
		}
		v2, _, err := OpenVHost(fsys, ".", p, []QueueRef{ref})
		if err != nil {
			t.Fatal(err)
		}
		q2, rec, err := v2.RecoverQueue(q.Name())
		if err != nil {
			t.Fatal(err)
		}
		if rec.Clean != clean || len(rec.Messages) != len(terms) {
			t.Fatalf("recovery (clean %v): clean %v, %d messages, want %d", clean, rec.Clean, len(rec.Messages), len(terms))
		}
		for seq, want := range terms {
			if got, _, err := q2.Read(seq); err != nil || !bytes.Equal(got, want) {
				t.Fatalf("seq %d after recovery (clean %v): %v", seq, clean, err)
			}
		}
		v, q = v2, q2
	}
}

// TestGC310 shows the 3.10 store merging neighbour files: the destination
// of the first merge has a hole before its live message, so the message
// goes through a .rdt copy; the second has its live messages at the start.
func TestGC310(t *testing.T) {
	keep := []uint64{2, 4, 9, 10, 12}
	fsys, v, q, terms := gcSetup(t, Profile310(), keep)
	st := v.Store(true)
	var out strings.Builder
	fmt.Fprintf(&out, "16 messages of 10 KB, 4 per file; kept seqs %v\n", keep)
	out.WriteString(fileTable(fsys, st))
	valid, size := st.Totals()
	fmt.Fprintf(&out, "total %d bytes, %d live: more than 2 x 32 KiB and more than half garbage\n", size, valid)
	runGCSteps(t, fsys, st, &out)
	valid2, size2 := st.Totals()
	fmt.Fprintf(&out, "total %d bytes, %d live\n", size2, valid2)
	golden(t, "gc-3.10.txt", out.String())
	if valid2 != valid || size2 >= size || len(st.Files()) >= 5 {
		t.Fatalf("after GC: %d live (was %d), %d bytes (was %d), %d files", valid2, valid, size2, size, len(st.Files()))
	}
	checkLive(t, fsys, v, q, terms)
}

// TestGC313 shows the 3.13 store compacting each file in place: holes are
// zeroed, the last message moves into the first hole that fits, and the
// file is truncated.
func TestGC313(t *testing.T) {
	keep := []uint64{2, 4, 9, 15}
	fsys, v, q, terms := gcSetup(t, Profile313(), keep)
	st := v.Store(true)
	var out strings.Builder
	fmt.Fprintf(&out, "16 messages of 10 KB, 4 per file; kept seqs %v\n", keep)
	out.WriteString(fileTable(fsys, st))
	runGCSteps(t, fsys, st, &out)
	out.WriteString("compaction timer fires\n")
	st.ScheduleCompaction()
	runGCSteps(t, fsys, st, &out)
	golden(t, "gc-3.13.txt", out.String())
	for _, f := range st.Files() {
		if !f.Current && f.Valid*2 < f.Size {
			t.Errorf("file %d still less than half live: %d of %d", f.Num, f.Valid, f.Size)
		}
	}
	checkLive(t, fsys, v, q, terms)
}

// TestGCWaitsForReaders: a merge does not start while a reader holds one
// of its files, and runs once the reader is done.
func TestGCWaitsForReaders(t *testing.T) {
	_, v, _, _ := gcSetup(t, Profile310(), []uint64{2, 4, 9, 10, 12})
	st := v.Store(true)
	if len(st.jobs) == 0 || st.jobs[0].kind != gcCombine {
		t.Fatalf("no merge queued: %v", st.jobs)
	}
	// A reader of a message of the merge's source file.
	var id format.MsgID
	for mid, loc := range st.index {
		if loc.file == st.jobs[0].src && loc.refs > 0 {
			id = mid
		}
	}
	st.files[st.jobs[0].src].locked = false
	file, err := st.BeginRead(id)
	st.files[st.jobs[0].src].locked = true
	if err != nil {
		t.Fatal(err)
	}
	rep, err := st.GCStep()
	if err != nil {
		t.Fatal(err)
	}
	if rep.Job == st.jobs[0].name() {
		t.Fatalf("the merge ran with a reader on its file: %+v", rep)
	}
	if _, _, err := st.Read(id); err == nil {
		t.Fatal("a read of a locked file was not deferred")
	}
	st.EndRead(file)
	if _, err := st.RunGC(); err != nil {
		t.Fatal(err)
	}
	if st.GCPending() {
		t.Fatal("GC still pending after the reader left")
	}
	if _, _, err := st.Read(id); err != nil {
		t.Fatalf("read after the merge: %v", err)
	}
}

// TestGCDeletesEmptyFiles: a file without live messages is deleted, the
// current one never.
func TestGCDeletesEmptyFiles(t *testing.T) {
	for _, p := range []Profile{Profile310(), Profile313()} {
		fsys, v, _, _ := gcSetup(t, p, []uint64{12, 13})
		st := v.Store(true)
		if _, err := st.RunGC(); err != nil {
			t.Fatal(err)
		}
		for n := uint64(0); n < 3; n++ {
			if _, err := fsys.Stat(st.fileName(n)); err == nil {
				t.Errorf("%s: %d.rdq holds nothing live and was not deleted", p.Version, n)
			}
		}
		if !st.files[st.current].locked && fmt.Sprint(len(st.Files())) != "2" {
			t.Errorf("%s: files left %v, want 3.rdq and the current 4.rdq", p.Version, st.Files())
		}
	}
}
