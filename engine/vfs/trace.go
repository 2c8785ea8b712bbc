package vfs

import (
	"errors"
	"fmt"
	"strconv"
)

// Trace lines name each operation that changes the disk, one per line:
//
//	create: msg_store_persistent/0.rdq
//	mkdir: queues/X
//	write: queues/X/0.qi 64 bytes at 0
//	truncate: queues/X/journal.jif to 0
//	sync: msg_store_persistent/0.rdq
//	sync-dir: queues/X
//	remove: queues/X/0.qi
//	rename: a -> b
//
// A failed operation carries its reason: " [fault sync-fail]" for an injected
// fault, " [error: ...]" otherwise. Reads, lists and stats are not traced.

func traceCreate(name string) string { return "create: " + name }
func traceMkdir(dir string) string   { return "mkdir: " + dir }
func traceRemove(name string) string { return "remove: " + name }
func traceSync(name string) string   { return "sync: " + name }
func traceSyncDir(dir string) string { return "sync-dir: " + dir }
func traceRename(o, n string) string { return "rename: " + o + " -> " + n }
func traceTruncate(name string, n int64) string {
	return fmt.Sprintf("truncate: %s to %d", name, n)
}
func traceWrite(name string, n int, off int64) string {
	return fmt.Sprintf("write: %s %d bytes at %d", name, n, off)
}

// withOutcome appends the reason an operation failed, if it did.
func withOutcome(line string, err error) string {
	if err == nil {
		return line
	}
	var fe *FaultError
	if errors.As(err, &fe) {
		return line + " [fault " + fe.Fault.Kind + "]"
	}
	return line + " [error: " + err.Error() + "]"
}

// WithTrace wraps fs so that every operation that changes the disk is
// reported to out as one trace line, after it ran.
func WithTrace(fs FS, out func(line string)) FS {
	return &traceFS{fs: fs, out: out}
}

type traceFS struct {
	fs  FS
	out func(string)
}

func (t *traceFS) Create(name string) (File, error) {
	f, err := t.fs.Create(name)
	t.out(withOutcome(traceCreate(name), err))
	if err != nil {
		return nil, err
	}
	return &traceFile{f: f, out: t.out}, nil
}

func (t *traceFS) Open(name string) (File, error) {
	f, err := t.fs.Open(name)
	if err != nil {
		return nil, err
	}
	return &traceFile{f: f, out: t.out}, nil
}

func (t *traceFS) Remove(name string) error {
	err := t.fs.Remove(name)
	t.out(withOutcome(traceRemove(name), err))
	return err
}

func (t *traceFS) Rename(oldname, newname string) error {
	err := t.fs.Rename(oldname, newname)
	t.out(withOutcome(traceRename(oldname, newname), err))
	return err
}

func (t *traceFS) MkdirAll(dir string) error {
	err := t.fs.MkdirAll(dir)
	t.out(withOutcome(traceMkdir(dir), err))
	return err
}

func (t *traceFS) List(dir string) ([]string, error) { return t.fs.List(dir) }

func (t *traceFS) Stat(name string) (int64, error) { return t.fs.Stat(name) }

func (t *traceFS) SyncDir(dir string) error {
	err := t.fs.SyncDir(dir)
	t.out(withOutcome(traceSyncDir(dir), err))
	return err
}

type traceFile struct {
	f   File
	out func(string)
}

func (t *traceFile) ReadAt(p []byte, off int64) (int, error) { return t.f.ReadAt(p, off) }

func (t *traceFile) WriteAt(p []byte, off int64) (int, error) {
	n, err := t.f.WriteAt(p, off)
	t.out(withOutcome(traceWrite(t.f.Name(), len(p), off), err))
	return n, err
}

func (t *traceFile) Write(p []byte) (int, error) {
	off, serr := t.f.Size()
	n, err := t.f.Write(p)
	line := traceWrite(t.f.Name(), len(p), off)
	if serr != nil {
		line = fmt.Sprintf("write: %s %d bytes at end", t.f.Name(), len(p))
	}
	t.out(withOutcome(line, err))
	return n, err
}

func (t *traceFile) Size() (int64, error) { return t.f.Size() }

func (t *traceFile) Sync() error {
	err := t.f.Sync()
	t.out(withOutcome(traceSync(t.f.Name()), err))
	return err
}

func (t *traceFile) Truncate(n int64) error {
	err := t.f.Truncate(n)
	t.out(withOutcome(traceTruncate(t.f.Name(), n), err))
	return err
}

func (t *traceFile) Close() error { return t.f.Close() }

func (t *traceFile) Name() string { return t.f.Name() }

// RecentChanges is how many file operations a Recent ring keeps.
const RecentChanges = 16

// ChangeKind is the kind of a file operation.
type ChangeKind uint8

// The file operations a Recent ring keeps.
const (
	ChangeWrite ChangeKind = iota + 1
	ChangeSync
	ChangeTruncate
	ChangeCreate
	ChangeRemove
	ChangeRename
	ChangeSyncDir
)

var changeNames = [...]string{ChangeWrite: "write", ChangeSync: "fsync", ChangeTruncate: "truncate", ChangeCreate: "create",
	ChangeRemove: "remove", ChangeRename: "rename", ChangeSyncDir: "fsync-dir"}

// Change is one file operation that changed (or tried to change) the disk.
type Change struct {
	Kind ChangeKind
	Path string
	Len  int    // write: bytes; truncate: the new size
	Off  int64  // write: where
	To   string // rename: the new name
	Err  error  // why it failed, nil when it did not
}

// String prints the operation as show disk does: `write queues/X/0.qs
// 4096@8192`, `fsync msg_store_persistent/0.rdq`, and `failed: eio` (or
// enospc) after one an injected fault failed.
func (o Change) String() string { return o.Format(o.Path, o.To) }

// Format prints the operation with its paths given as shown (relative to
// a data directory, say).
func (o Change) Format(path, to string) string {
	var line string
	switch o.Kind {
	case ChangeWrite:
		line = "write " + path + " " + strconv.Itoa(o.Len) + "@" + strconv.FormatInt(o.Off, 10)
	case ChangeTruncate:
		line = "truncate " + path + " " + strconv.Itoa(o.Len)
	case ChangeRename:
		line = "rename " + path + " " + to
	default:
		line = changeNames[o.Kind] + " " + path
	}
	if o.Err != nil {
		var fe *FaultError
		if errors.As(o.Err, &fe) {
			return line + " failed: " + faultErrno(fe.Fault.Kind)
		}
		return line + " failed: " + o.Err.Error()
	}
	return line
}

// faultErrno is the POSIX error an injected fault stands for.
func faultErrno(kind string) string {
	if kind == FaultENOSPC {
		return "enospc"
	}
	return "eio"
}

// Recent keeps the last RecentChanges file operations in a ring: what show
// disk prints. NB: it stores, never formats, so that keeping it costs a
// disk-heavy run nothing it would notice.
type Recent struct {
	changes [RecentChanges]Change
	next    int
	n       int
}

func (r *Recent) add(o Change) {
	r.changes[r.next] = o
	r.next = (r.next + 1) % RecentChanges
	if r.n < RecentChanges {
		r.n++
	}
}

// Changes returns the file operations kept, oldest first.
func (r *Recent) Changes() []Change {
	out := make([]Change, 0, r.n)
	for i := r.n; i > 0; i-- {
		out = append(out, r.changes[(r.next-i+RecentChanges)%RecentChanges])
	}
	return out
}
