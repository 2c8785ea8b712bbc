package vfs

import (
	"errors"
	"io"
	"io/fs"
	"reflect"
	"strings"
	"testing"
)

// runSuite checks the behaviour every FS implementation must share.
func runSuite(t *testing.T, newFS func(t *testing.T) FS) {
	tests := []struct {
		name string
		fn   func(t *testing.T, fsys FS)
	}{
		{"write-read", suiteWriteRead},
		{"append", suiteAppend},
		{"write-at-gap", suiteWriteAtGap},
		{"truncate", suiteTruncate},
		{"create-truncates", suiteCreateTruncates},
		{"open-missing", suiteOpenMissing},
		{"remove", suiteRemove},
		{"rename", suiteRename},
		{"list", suiteList},
		{"directories", suiteDirectories},
		{"bad-paths", suiteBadPaths},
		{"closed", suiteClosed},
		{"helpers", suiteHelpers},
		{"trace-wrapper", suiteTraceWrapper},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) { tc.fn(t, newFS(t)) })
	}
}

func mustCreate(t *testing.T, fsys FS, name string) File {
	t.Helper()
	f, err := fsys.Create(name)
	if err != nil {
		t.Fatalf("create %s: %v", name, err)
	}
	return f
}

func mustRead(t *testing.T, fsys FS, name string) string {
	t.Helper()
	b, err := ReadFile(fsys, name)
	if err != nil {
		t.Fatalf("read %s: %v", name, err)
	}
	return string(b)
}

func suiteWriteRead(t *testing.T, fsys FS) {
	f := mustCreate(t, fsys, "a.rdq")
	if n, err := f.WriteAt([]byte("hello"), 0); n != 5 || err != nil {
		t.Fatalf("WriteAt = %d, %v", n, err)
	}
	buf := make([]byte, 5)
	if n, err := f.ReadAt(buf, 0); n != 5 || err != nil || string(buf) != "hello" {
		t.Fatalf("ReadAt = %d, %v, %q", n, err, buf)
	}
	buf = make([]byte, 10)
	n, err := f.ReadAt(buf, 2)
	if n != 3 || err != io.EOF || string(buf[:n]) != "llo" {
		t.Fatalf("short ReadAt = %d, %v, %q; want 3, EOF", n, err, buf[:n])
	}
	if n, err := f.ReadAt(buf, 50); n != 0 || err != io.EOF {
		t.Fatalf("ReadAt past end = %d, %v", n, err)
	}
	if size, err := f.Size(); size != 5 || err != nil {
		t.Fatalf("Size = %d, %v", size, err)
	}
	if f.Name() != "a.rdq" {
		t.Fatalf("Name = %q", f.Name())
	}
	if err := f.Sync(); err != nil {
		t.Fatal(err)
	}
	if err := f.Close(); err != nil {
		t.Fatal(err)
	}
	if size, err := fsys.Stat("a.rdq"); size != 5 || err != nil {
		t.Fatalf("Stat = %d, %v", size, err)
	}
}

func suiteAppend(t *testing.T, fsys FS) {
	f := mustCreate(t, fsys, "j.jif")
	for _, s := range []string{"ab", "cd", "e"} {
		if _, err := f.Write([]byte(s)); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := f.WriteAt([]byte("X"), 0); err != nil {
		t.Fatal(err)
	}
	if _, err := f.Write([]byte("f")); err != nil {
		t.Fatal(err)
	}
	f.Close()
	if got := mustRead(t, fsys, "j.jif"); got != "Xbcdef" {
		t.Fatalf("content %q", got)
	}
	f, err := fsys.Open("j.jif")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := f.Write([]byte("g")); err != nil {
		t.Fatal(err)
	}
	f.Close()
	if got := mustRead(t, fsys, "j.jif"); got != "Xbcdefg" {
		t.Fatalf("content after reopen %q", got)
	}
}

func suiteWriteAtGap(t *testing.T, fsys FS) {
	f := mustCreate(t, fsys, "0.qi")
	if _, err := f.WriteAt([]byte{1, 2}, 4); err != nil {
		t.Fatal(err)
	}
	f.Close()
	if got := mustRead(t, fsys, "0.qi"); got != "\x00\x00\x00\x00\x01\x02" {
		t.Fatalf("gap not zero-filled: %q", got)
	}
}

func suiteTruncate(t *testing.T, fsys FS) {
	f := mustCreate(t, fsys, "t")
	f.Write([]byte("abcdef"))
	if err := f.Truncate(2); err != nil {
		t.Fatal(err)
	}
	if err := f.Truncate(4); err != nil {
		t.Fatal(err)
	}
	f.Close()
	if got := mustRead(t, fsys, "t"); got != "ab\x00\x00" {
		t.Fatalf("truncate: %q", got)
	}
}

func suiteCreateTruncates(t *testing.T, fsys FS) {
	if err := WriteFile(fsys, "c", []byte("old content")); err != nil {
		t.Fatal(err)
	}
	f := mustCreate(t, fsys, "c")
	f.Write([]byte("new"))
	f.Close()
	if got := mustRead(t, fsys, "c"); got != "new" {
		t.Fatalf("create did not truncate: %q", got)
	}
}

func suiteOpenMissing(t *testing.T, fsys FS) {
	if _, err := fsys.Open("nope"); !errors.Is(err, fs.ErrNotExist) {
		t.Fatalf("Open missing: %v", err)
	}
	if _, err := fsys.Stat("nope"); !errors.Is(err, fs.ErrNotExist) {
		t.Fatalf("Stat missing: %v", err)
	}
	if _, err := fsys.Create("no/such/dir/f"); !errors.Is(err, fs.ErrNotExist) {
		t.Fatalf("Create in missing dir: %v", err)
	}
	if _, err := fsys.List("nodir"); !errors.Is(err, fs.ErrNotExist) {
		t.Fatalf("List missing: %v", err)
	}
	if err := fsys.Remove("nope"); !errors.Is(err, fs.ErrNotExist) {
		t.Fatalf("Remove missing: %v", err)
	}
	if err := fsys.Rename("nope", "x"); !errors.Is(err, fs.ErrNotExist) {
		t.Fatalf("Rename missing: %v", err)
	}
}

func suiteRemove(t *testing.T, fsys FS) {
	if err := fsys.MkdirAll("queues/Q"); err != nil {
		t.Fatal(err)
	}
	WriteFile(fsys, "queues/Q/0.qi", []byte("x"))
	if err := fsys.Remove("queues/Q"); !errors.Is(err, ErrNotEmpty) {
		t.Fatalf("Remove non-empty dir: %v", err)
	}
	if err := fsys.Remove("queues/Q/0.qi"); err != nil {
		t.Fatal(err)
	}
	if err := fsys.Remove("queues/Q"); err != nil {
		t.Fatalf("Remove empty dir: %v", err)
	}
	if names, _ := fsys.List("queues"); len(names) != 0 {
		t.Fatalf("left %v", names)
	}
}

func suiteRename(t *testing.T, fsys FS) {
	WriteFile(fsys, "a", []byte("A"))
	WriteFile(fsys, "b", []byte("B"))
	if err := fsys.Rename("a", "b"); err != nil {
		t.Fatal(err)
	}
	if got := mustRead(t, fsys, "b"); got != "A" {
		t.Fatalf("rename did not replace: %q", got)
	}
	if _, err := fsys.Stat("a"); !errors.Is(err, fs.ErrNotExist) {
		t.Fatalf("old name still there: %v", err)
	}
	fsys.MkdirAll("d")
	if err := fsys.Rename("b", "d/c"); err != nil {
		t.Fatal(err)
	}
	if got := mustRead(t, fsys, "d/c"); got != "A" {
		t.Fatalf("rename across dirs: %q", got)
	}
}

func suiteList(t *testing.T, fsys FS) {
	for _, n := range []string{"b", "a", "c.rdq"} {
		WriteFile(fsys, n, nil)
	}
	fsys.MkdirAll("queues")
	names, err := fsys.List(".")
	if err != nil {
		t.Fatal(err)
	}
	if want := []string{"a", "b", "c.rdq", "queues"}; !reflect.DeepEqual(names, want) {
		t.Fatalf("List = %v, want %v", names, want)
	}
	if _, err := fsys.List("a"); !errors.Is(err, ErrNotDir) {
		t.Fatalf("List of a file: %v", err)
	}
}

func suiteDirectories(t *testing.T, fsys FS) {
	if err := fsys.MkdirAll("x/y/z"); err != nil {
		t.Fatal(err)
	}
	if err := fsys.MkdirAll("x/y"); err != nil {
		t.Fatalf("MkdirAll again: %v", err)
	}
	if _, err := fsys.Stat("x/y"); !errors.Is(err, ErrIsDir) {
		t.Fatalf("Stat dir: %v", err)
	}
	if _, err := fsys.Open("x/y"); !errors.Is(err, ErrIsDir) {
		t.Fatalf("Open dir: %v", err)
	}
	if !IsDir(fsys, "x") || IsDir(fsys, "nope") {
		t.Fatal("IsDir wrong")
	}
	WriteFile(fsys, "f", nil)
	if err := fsys.MkdirAll("f/g"); !errors.Is(err, ErrNotDir) {
		t.Fatalf("MkdirAll through a file: %v", err)
	}
	if err := fsys.SyncDir("x/y"); err != nil {
		t.Fatal(err)
	}
	if err := fsys.SyncDir("."); err != nil {
		t.Fatal(err)
	}
}

func suiteBadPaths(t *testing.T, fsys FS) {
	for _, p := range []string{"", "/etc/passwd", "../x", "a/../../x"} {
		if _, err := fsys.Create(p); err == nil {
			t.Errorf("Create(%q) succeeded", p)
		}
		if _, err := fsys.List(p); err == nil {
			t.Errorf("List(%q) succeeded", p)
		}
	}
	if _, err := fsys.Create("."); err == nil {
		t.Error(`Create(".") succeeded`)
	}
}

func suiteClosed(t *testing.T, fsys FS) {
	f := mustCreate(t, fsys, "c")
	f.Close()
	if _, err := f.Write([]byte("x")); !errors.Is(err, ErrClosed) {
		t.Fatalf("Write after close: %v", err)
	}
	if err := f.Sync(); !errors.Is(err, ErrClosed) {
		t.Fatalf("Sync after close: %v", err)
	}
	if err := f.Close(); !errors.Is(err, ErrClosed) {
		t.Fatalf("double Close: %v", err)
	}
}

func suiteHelpers(t *testing.T, fsys FS) {
	fsys.MkdirAll("q/a/b")
	WriteFile(fsys, "q/a/b/f1", []byte("1"))
	WriteFile(fsys, "q/a/f2", []byte("22"))
	if err := RemoveAll(fsys, "q"); err != nil {
		t.Fatal(err)
	}
	if _, err := fsys.List("q"); !errors.Is(err, fs.ErrNotExist) {
		t.Fatalf("q left: %v", err)
	}
	if err := RemoveAll(fsys, "q"); err != nil {
		t.Fatalf("RemoveAll missing: %v", err)
	}
}

func suiteTraceWrapper(t *testing.T, fsys FS) {
	var lines []string
	tfs := WithTrace(fsys, func(l string) { lines = append(lines, l) })
	tfs.MkdirAll("queues/X")
	f, _ := tfs.Create("queues/X/0.qi")
	f.WriteAt(make([]byte, 64), 0)
	f.Write(make([]byte, 32))
	f.Sync()
	f.Truncate(64)
	f.Close()
	tfs.SyncDir("queues/X")
	tfs.Rename("queues/X/0.qi", "queues/X/1.qi")
	tfs.Remove("queues/X/1.qi")
	tfs.Remove("queues/X/1.qi")
	want := []string{
		"mkdir: queues/X",
		"create: queues/X/0.qi",
		"write: queues/X/0.qi 64 bytes at 0",
		"write: queues/X/0.qi 32 bytes at 64",
		"sync: queues/X/0.qi",
		"truncate: queues/X/0.qi to 64",
		"sync-dir: queues/X",
		"rename: queues/X/0.qi -> queues/X/1.qi",
		"remove: queues/X/1.qi",
	}
	if !reflect.DeepEqual(lines[:len(want)], want) {
		t.Fatalf("trace:\n%s\nwant:\n%s", strings.Join(lines, "\n"), strings.Join(want, "\n"))
	}
	last := lines[len(lines)-1]
	if !strings.HasPrefix(last, "remove: queues/X/1.qi [error: ") {
		t.Fatalf("failed remove traced as %q", last)
	}
}
