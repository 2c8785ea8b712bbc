package vfs

import (
	"errors"
	"io/fs"
	"reflect"
	"strings"
	"testing"
)

func TestMemFSSuite(t *testing.T) {
	runSuite(t, func(t *testing.T) FS { return NewMemFS() })
}

// durableSetup writes a file, syncs part of it, and syncs its directory.
func durableSetup(t *testing.T) *MemFS {
	m := NewMemFS()
	m.MkdirAll("msg_store_persistent")
	m.SyncDir(".")
	f := mustCreate(t, m, "msg_store_persistent/0.rdq")
	m.SyncDir("msg_store_persistent")
	f.Write([]byte("synced;"))
	f.Sync()
	f.Write([]byte("unsynced"))
	return m
}

func TestCrashProcessKeepsPageCache(t *testing.T) {
	m := durableSetup(t)
	m.CrashProcess()
	if got := mustRead(t, m, "msg_store_persistent/0.rdq"); got != "synced;unsynced" {
		t.Fatalf("after process crash: %q", got)
	}
	// What was unsynced stays unsynced: a later power loss still drops it.
	m.PowerLoss()
	if got := mustRead(t, m, "msg_store_persistent/0.rdq"); got != "synced;" {
		t.Fatalf("after power loss: %q", got)
	}
}

func TestPowerLossKeepsSyncedData(t *testing.T) {
	m := durableSetup(t)
	m.PowerLoss()
	if got := mustRead(t, m, "msg_store_persistent/0.rdq"); got != "synced;" {
		t.Fatalf("after power loss: %q", got)
	}
}

func TestPowerLossDirectoryEntries(t *testing.T) {
	m := NewMemFS()
	m.MkdirAll("queues/Q")
	m.SyncDir(".")
	m.SyncDir("queues")
	m.SyncDir("queues/Q")

	// Created and synced, but the directory never synced: gone.
	f := mustCreate(t, m, "queues/Q/0.qi")
	f.Write([]byte("entry"))
	f.Sync()
	// Created, directory synced, content never synced: empty.
	g := mustCreate(t, m, "queues/Q/0.qs")
	g.Write([]byte("data"))
	m.SyncDir("queues/Q")
	// Now remove 0.qs without syncing the directory: it comes back.
	m.Remove("queues/Q/0.qs")
	// A directory created but not synced in its parent: gone.
	m.MkdirAll("queues/R")
	WriteFile(m, "queues/R/x", []byte("x"))

	m.PowerLoss()

	names, _ := m.List("queues/Q")
	if want := []string{"0.qi", "0.qs"}; !reflect.DeepEqual(names, want) {
		// 0.qi was created before the SyncDir of queues/Q, so it is durable.
		t.Fatalf("queues/Q after power loss = %v, want %v", names, want)
	}
	if got := mustRead(t, m, "queues/Q/0.qi"); got != "entry" {
		t.Fatalf("0.qi = %q", got)
	}
	if got := mustRead(t, m, "queues/Q/0.qs"); got != "" {
		t.Fatalf("unsynced 0.qs content survived: %q", got)
	}
	if names, _ := m.List("queues"); !reflect.DeepEqual(names, []string{"Q"}) {
		t.Fatalf("queues = %v, want [Q]", names)
	}
}

func TestPowerLossCreateWithoutDirSync(t *testing.T) {
	m := NewMemFS()
	f := mustCreate(t, m, "0.rdq")
	f.Write([]byte("body"))
	f.Sync()
	m.PowerLoss()
	if _, err := m.Stat("0.rdq"); !errors.Is(err, fs.ErrNotExist) {
		t.Fatalf("file whose directory was never synced survived: %v", err)
	}
}

func TestPowerLossRename(t *testing.T) {
	m := NewMemFS()
	WriteFile(m, "a.rdt", []byte("compacted"))
	f, _ := m.Open("a.rdt")
	f.Sync()
	m.SyncDir(".")
	m.Rename("a.rdt", "a.rdq")
	m.PowerLoss()
	names, _ := m.List(".")
	if !reflect.DeepEqual(names, []string{"a.rdt"}) {
		t.Fatalf("unsynced rename: %v", names)
	}
	m.Rename("a.rdt", "a.rdq")
	m.SyncDir(".")
	m.PowerLoss()
	names, _ = m.List(".")
	if !reflect.DeepEqual(names, []string{"a.rdq"}) {
		t.Fatalf("synced rename: %v", names)
	}
	if got := mustRead(t, m, "a.rdq"); got != "compacted" {
		t.Fatalf("content after rename: %q", got)
	}
}

func TestPowerLossTruncateNotSynced(t *testing.T) {
	m := NewMemFS()
	WriteFile(m, "journal.jif", []byte("records"))
	f, _ := m.Open("journal.jif")
	f.Sync()
	m.SyncDir(".")
	f.Truncate(0)
	m.PowerLoss()
	if got := mustRead(t, m, "journal.jif"); got != "records" {
		t.Fatalf("unsynced truncate survived power loss: %q", got)
	}
}

func TestCrashInvalidatesHandles(t *testing.T) {
	for _, crash := range []func(*MemFS){(*MemFS).CrashProcess, (*MemFS).PowerLoss} {
		m := NewMemFS()
		f := mustCreate(t, m, "f")
		crash(m)
		if _, err := f.Write([]byte("x")); !errors.Is(err, ErrClosed) {
			t.Fatalf("write through a pre-crash handle: %v", err)
		}
	}
}

func TestClone(t *testing.T) {
	m := durableSetup(t)
	m.SetFault(FaultSyncFail, "*.qi")
	c := m.Clone()
	f, _ := m.Open("msg_store_persistent/0.rdq")
	f.Write([]byte("-more"))
	if got := mustRead(t, c, "msg_store_persistent/0.rdq"); got != "synced;unsynced" {
		t.Fatalf("clone shares data: %q", got)
	}
	c.PowerLoss()
	if got := mustRead(t, c, "msg_store_persistent/0.rdq"); got != "synced;" {
		t.Fatalf("clone lost durable state: %q", got)
	}
	if got := mustRead(t, m, "msg_store_persistent/0.rdq"); got != "synced;unsynced-more" {
		t.Fatalf("power loss of clone touched original: %q", got)
	}
	if !reflect.DeepEqual(c.Faults(), m.Faults()) {
		t.Fatalf("faults not cloned: %v", c.Faults())
	}
	if !reflect.DeepEqual(c.Trace()[:len(m.Trace())-1], m.Trace()[:len(m.Trace())-1]) {
		t.Fatal("trace not cloned")
	}
}

// TestFaultSyncLost: a sync that the disk loses succeeds, keeps what a
// process crash keeps, and makes nothing durable for a power loss.
func TestFaultSyncLost(t *testing.T) {
	m := NewMemFS()
	m.MkdirAll("q")
	f := mustCreate(t, m, "q/0.qi")
	f.Write([]byte("before;"))
	if err := f.Sync(); err != nil {
		t.Fatal(err)
	}
	if err := m.SyncDir("q"); err != nil {
		t.Fatal(err)
	}
	m.SyncDir(".")
	if err := m.SetFault(FaultSyncLost, "*"); err != nil {
		t.Fatal(err)
	}
	f.Write([]byte("after"))
	if err := f.Sync(); err != nil {
		t.Fatalf("a lost sync reports success: %v", err)
	}
	g := mustCreate(t, m, "q/1.qi")
	g.Write([]byte("new"))
	if err := g.Sync(); err != nil {
		t.Fatal(err)
	}
	m.SyncDir("q")
	if n, _ := m.DurableSize("q/0.qi"); n != int64(len("before;")) {
		t.Fatalf("durable size %d after a lost sync, want %d", n, len("before;"))
	}
	m.PowerLoss()
	if got, err := ReadFile(m, "q/0.qi"); err != nil || string(got) != "before;" {
		t.Fatalf("after the power loss: %q, %v", got, err)
	}
	if _, err := m.Stat("q/1.qi"); err == nil {
		t.Fatal("a file whose directory sync was lost survived the power loss")
	}
}

func TestFaultSyncFail(t *testing.T) {
	m := NewMemFS()
	if err := m.SetFault("sync-fail", "*.rdq"); err != nil {
		t.Fatal(err)
	}
	m.MkdirAll("msg_store_persistent")
	f := mustCreate(t, m, "msg_store_persistent/0.rdq")
	f.Write([]byte("x"))
	err := f.Sync()
	var fe *FaultError
	if !errors.As(err, &fe) || fe.Fault.Kind != FaultSyncFail {
		t.Fatalf("Sync: %v", err)
	}
	want := "sync msg_store_persistent/0.rdq: injected fault sync-fail (pattern *.rdq)"
	if err.Error() != want {
		t.Fatalf("error %q, want %q", err, want)
	}
	if n, _ := m.DurableSize("msg_store_persistent/0.rdq"); n != 0 {
		t.Fatalf("failed sync made %d bytes durable", n)
	}
	g := mustCreate(t, m, "msg_store_persistent/0.qi")
	if err := g.Sync(); err != nil {
		t.Fatalf("unmatched file: %v", err)
	}
	m.ClearFaults()
	if err := f.Sync(); err != nil {
		t.Fatalf("after ClearFaults: %v", err)
	}
}

func TestFaultSyncDir(t *testing.T) {
	m := NewMemFS()
	m.MkdirAll("queues/Q")
	m.SetFault(FaultSyncFail, "queues/*")
	if err := m.SyncDir("queues/Q"); err == nil || !strings.Contains(err.Error(), "sync-dir queues/Q") {
		t.Fatalf("SyncDir: %v", err)
	}
	if err := m.SyncDir("."); err != nil {
		t.Fatalf("SyncDir of unmatched dir: %v", err)
	}
}

func TestFaultWriteFail(t *testing.T) {
	m := NewMemFS()
	m.MkdirAll("queues/X")
	m.SetFault(FaultWriteFail, "queues/*/0.qi")
	f := mustCreate(t, m, "queues/X/0.qi")
	if _, err := f.WriteAt([]byte("x"), 0); err == nil || !strings.Contains(err.Error(), "write queues/X/0.qi: injected fault write-fail") {
		t.Fatalf("WriteAt: %v", err)
	}
	if _, err := f.Write([]byte("x")); err == nil {
		t.Fatal("Write succeeded")
	}
	if err := f.Truncate(10); err == nil {
		t.Fatal("Truncate succeeded")
	}
	if size, _ := f.Size(); size != 0 {
		t.Fatalf("failed writes changed the file: %d bytes", size)
	}
	g := mustCreate(t, m, "queues/X/0.qs")
	if _, err := g.Write([]byte("x")); err != nil {
		t.Fatalf("unmatched file: %v", err)
	}
}

func TestFaultENOSPC(t *testing.T) {
	m := NewMemFS()
	f := mustCreate(t, m, "0.rdq")
	f.Write([]byte("abcd"))
	m.SetFault(FaultENOSPC, "*")
	if _, err := f.WriteAt([]byte("XY"), 1); err != nil {
		t.Fatalf("overwrite inside the file: %v", err)
	}
	if _, err := f.Write([]byte("e")); err == nil || !strings.Contains(err.Error(), "enospc") {
		t.Fatalf("growing write: %v", err)
	}
	if _, err := f.WriteAt([]byte("XY"), 3); err == nil {
		t.Fatal("write across the end succeeded")
	}
	if err := f.Truncate(2); err != nil {
		t.Fatalf("shrinking truncate: %v", err)
	}
	if got := mustRead(t, m, "0.rdq"); got != "aX" {
		t.Fatalf("content %q", got)
	}
}

func TestSetFaultErrors(t *testing.T) {
	m := NewMemFS()
	err := m.SetFault("fsync-lies", "*")
	if err == nil || !strings.Contains(err.Error(), "valid: enospc, sync-fail, sync-lost, write-fail") {
		t.Fatalf("unknown kind: %v", err)
	}
	if err := m.SetFault(FaultSyncFail, "[bad"); err == nil {
		t.Fatal("bad pattern accepted")
	}
	if err := m.SetFault(FaultSyncFail, ""); err == nil {
		t.Fatal("empty pattern accepted")
	}
	m.SetFault(FaultSyncFail, "*.rdq")
	m.SetFault(FaultSyncFail, "*.rdq")
	m.SetFault(FaultENOSPC, "*.qs")
	want := []Fault{{FaultENOSPC, "*.qs"}, {FaultSyncFail, "*.rdq"}}
	if got := m.Faults(); !reflect.DeepEqual(got, want) {
		t.Fatalf("Faults = %v", got)
	}
	if s := want[1].String(); s != "sync-fail path=*.rdq" {
		t.Fatalf("String = %q", s)
	}
}

func TestMemFSTrace(t *testing.T) {
	m := NewMemFS()
	m.MkdirAll("queues/X")
	f, _ := m.Create("queues/X/0.qi")
	f.WriteAt(make([]byte, 64), 0)
	f.Write(make([]byte, 32))
	f.Sync()
	m.SyncDir("queues/X")
	f.Truncate(64)
	m.SetFault(FaultSyncFail, "0.qi")
	f.Sync()
	m.Rename("queues/X/0.qi", "queues/X/1.qi")
	m.Remove("queues/X/1.qi")
	m.CrashProcess()
	m.PowerLoss()
	want := []string{
		"mkdir: queues",
		"mkdir: queues/X",
		"create: queues/X/0.qi",
		"write: queues/X/0.qi 64 bytes at 0",
		"write: queues/X/0.qi 32 bytes at 64",
		"sync: queues/X/0.qi",
		"sync-dir: queues/X",
		"truncate: queues/X/0.qi to 64",
		"sync: queues/X/0.qi [fault sync-fail]",
		"rename: queues/X/0.qi -> queues/X/1.qi",
		"remove: queues/X/1.qi",
		"crash: process",
		"crash: power-loss",
	}
	if got := m.Trace(); !reflect.DeepEqual(got, want) {
		t.Fatalf("trace:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	m.ResetTrace()
	if len(m.Trace()) != 0 {
		t.Fatal("ResetTrace kept lines")
	}
}

func TestMemFSString(t *testing.T) {
	m := durableSetup(t)
	want := "msg_store_persistent/\nmsg_store_persistent/0.rdq 15 bytes (7 durable)\n"
	if got := m.String(); got != want {
		t.Fatalf("String:\n%s\nwant:\n%s", got, want)
	}
}

// TestSyncAfterChangesInPlace: a sync copies only what changed since the
// last one, so every kind of change after a sync must reach the next one:
// an overwrite inside the synced part, a truncate below it, a regrowth
// with zeros, and a rewrite after a power loss.
func TestSyncAfterChangesInPlace(t *testing.T) {
	m := NewMemFS()
	f := mustCreate(t, m, "0.qi")
	m.SyncDir(".")
	step := func(do func(), want string) {
		t.Helper()
		do()
		if err := f.Sync(); err != nil {
			t.Fatal(err)
		}
		c := m.Clone()
		c.PowerLoss()
		if got := mustRead(t, c, "0.qi"); got != want {
			t.Fatalf("durable content %q, want %q", got, want)
		}
	}
	step(func() { f.Write([]byte("abcdef")) }, "abcdef")
	step(func() { f.WriteAt([]byte("XY"), 1) }, "aXYdef")
	step(func() { f.Truncate(2) }, "aX")
	step(func() { f.Truncate(4); f.Write([]byte("!")) }, "aX\x00\x00!")
	step(func() { f.WriteAt([]byte("Z"), 0); f.Write([]byte("tail")) }, "ZX\x00\x00!tail")
	// changes lost to a power loss leave the durable copy as it was
	f.WriteAt([]byte("lost"), 0)
	m.PowerLoss()
	f = mustOpen(t, m, "0.qi")
	step(func() { f.WriteAt([]byte("Q"), 8) }, "ZX\x00\x00!taiQ")
}

func mustOpen(t *testing.T, fsys FS, name string) File {
	t.Helper()
	f, err := fsys.Open(name)
	if err != nil {
		t.Fatalf("open %s: %v", name, err)
	}
	return f
}

func TestSetTracingOff(t *testing.T) {
	m := NewMemFS()
	WriteFile(m, "a", []byte("x"))
	m.SetTracing(false)
	WriteFile(m, "b", []byte("y"))
	m.PowerLoss()
	if got := m.Trace(); len(got) != 0 {
		t.Fatalf("trace kept while off: %q", got)
	}
	m.SetTracing(true)
	WriteFile(m, "c", []byte("z"))
	if got := m.Trace(); len(got) == 0 || got[0] != "create: c" {
		t.Fatalf("trace after turning it on: %q", got)
	}
}
