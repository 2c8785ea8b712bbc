package vfs

import (
	"bytes"
	"math/rand/v2"
	"testing"

	"warren/engine/clone"
)

// fileModel is what a file holds, as plain bytes: its current content and
// what its last sync made durable.
type fileModel struct{ data, durable []byte }

// TestContentMatchesAModel runs seeded random writes (appends, overwrites
// across chunks, writes past the end), truncates, syncs, crashes and
// power losses on a file of a few chunks and, after each, compares what a
// reader sees now and what a power loss would keep with a model that
// holds both as plain bytes.
func TestContentMatchesAModel(t *testing.T) {
	for seed := uint64(1); seed <= 20; seed++ {
		rng := rand.New(rand.NewPCG(seed, 7))
		m := NewMemFS()
		f := mustCreate(t, m, "0.rdq")
		m.SyncDir(".")
		var model fileModel
		span := 5 * chunkSize
		for step := 0; step < 300; step++ {
			op := rng.IntN(10)
			switch {
			case op < 4: // a write somewhere, maybe past the end
				off := rng.IntN(span)
				p := make([]byte, 1+rng.IntN(2*chunkSize))
				for i := range p {
					p[i] = byte(1 + rng.IntN(255))
				}
				if _, err := f.WriteAt(p, int64(off)); err != nil {
					t.Fatal(err)
				}
				if end := off + len(p); end > len(model.data) {
					model.data = append(model.data, make([]byte, end-len(model.data))...)
				}
				copy(model.data[off:], p)
			case op < 6: // an append
				p := bytes.Repeat([]byte{byte(step)}, rng.IntN(chunkSize+100))
				if _, err := f.Write(p); err != nil {
					t.Fatal(err)
				}
				model.data = append(model.data, p...)
			case op < 7:
				n := rng.IntN(span)
				if err := f.Truncate(int64(n)); err != nil {
					t.Fatal(err)
				}
				if n > len(model.data) {
					model.data = append(model.data, make([]byte, n-len(model.data))...)
				}
				model.data = model.data[:n]
			case op < 9:
				if err := f.Sync(); err != nil {
					t.Fatal(err)
				}
				model.durable = bytes.Clone(model.data)
			default:
				if rng.IntN(2) == 0 {
					m.CrashProcess()
				} else {
					m.PowerLoss()
					model.data = bytes.Clone(model.durable)
				}
				f = mustOpen(t, m, "0.rdq")
			}
			if got := mustRead(t, m, "0.rdq"); got != string(model.data) {
				t.Fatalf("seed %d, step %d (op %d): the file holds %d bytes unlike the model's %d", seed, step, op, len(got), len(model.data))
			}
			if n, _ := m.DurableSize("0.rdq"); n != int64(len(model.durable)) {
				t.Fatalf("seed %d, step %d: durable size %d, want %d", seed, step, n, len(model.durable))
			}
			if step%25 == 0 {
				c := m.Clone()
				c.PowerLoss()
				if got := mustRead(t, c, "0.rdq"); got != string(model.durable) {
					t.Fatalf("seed %d, step %d: a power loss keeps %d bytes unlike the model's %d durable", seed, step, len(got), len(model.durable))
				}
			}
		}
	}
}

// TestCopySharesFileBytes: a checkpoint's copy of a filesystem holding a
// 4 MB file, written and synced, copies the chunks' headers, not the
// file's bytes; and a write to the original afterwards, at its end or in
// its middle, leaves the copy as it was, current and durable.
func TestCopySharesFileBytes(t *testing.T) {
	m := NewMemFS()
	f := mustCreate(t, m, "0.rdq")
	m.SyncDir(".")
	body := bytes.Repeat([]byte("0123456789abcdef"), 1<<16) // 1 MB
	for range 4 {
		f.Write(body)
		f.Sync()
	}
	f.Write([]byte("unsynced"))
	c, n, err := clone.Copy(m)
	if err != nil {
		t.Fatal(err)
	}
	if n > 100_000 {
		t.Errorf("the copy of a 4 MB file, current and durable, allocated %d bytes", n)
	}
	f.WriteAt([]byte("XXXX"), 1<<21)
	f.Write([]byte("more"))
	f.Sync()
	want := string(bytes.Repeat(body, 4)) + "unsynced"
	if got := mustRead(t, c, "0.rdq"); got != want {
		t.Fatal("a write to the original changed the copy")
	}
	c.PowerLoss()
	if got := mustRead(t, c, "0.rdq"); got != want[:4<<20] {
		t.Fatalf("the copy's durable content changed: %d bytes", len(got))
	}
}
