package store

import (
	"errors"
	"slices"
	"strings"

	"warren/engine/store/format"

	"warren/engine/vfs"
)

// errCrashed is what every file operation returns once the injected crash
// point is reached: the process is gone.
var errCrashed = errors.New("injected crash")

// crashFS lets budget operations that change the disk run, then fails
// every operation: a crash right before the (budget+1)th one, or, when
// torn > 0, inside it if it is a write of more than torn bytes: its first
// torn bytes reach the file, the rest never does. A power loss (or a
// process killed in write(2)) leaves any prefix of a write: the kernel
// copies it page by page, and the disk writes sectors in any order, so a
// tear can fall on any byte, inside a record. A negative budget never
// crashes; count then says how many operations ran, and tears the size
// of each write that can tear.
//
// Every change also goes to mirror, an honest MemFS: after a power loss it
// holds exactly what the store's syncs promised, whatever the disk under
// fs did with them (a sync-lost fault), so a test can tell a loss the
// store allowed (it never synced) from one it did not.
type crashFS struct {
	fs     vfs.FS
	mirror *vfs.MemFS
	budget int
	torn   int // bytes of the crashing write that reach the file (0: none)
	count  int
	tears  map[int][]int // operation index of each write, where it can tear
	// tornIdx says the torn write left a v1 segment (.idx) ending inside
	// a record, which RabbitMQ 3.10.8 cannot read past either
	// (tornSegment).
	tornIdx bool
	// noSync is the store with its fsync calls taken out: Sync and SyncDir
	// succeed and do nothing, on the disk and on the mirror alike.
	noSync bool
}

// pageSize is the unit the kernel copies a write into the page cache in.
const pageSize = 4096

// tearPoints are where the crash test cuts a write of n bytes at off:
// after its first byte, at its middle, one byte short, and at its last
// page boundary.
func tearPoints(off int64, n int) []int {
	var cuts []int
	if end := off + int64(n); end-end%pageSize > off {
		cuts = append(cuts, int(end-end%pageSize-off))
	}
	cuts = append(cuts, 1, n/2, n-1)
	out := cuts[:0]
	for _, c := range cuts {
		if c > 0 && c < n && !slices.Contains(out, c) {
			out = append(out, c)
		}
	}
	return out
}

func newCrashFS(fs vfs.FS, budget int, torn int) *crashFS {
	return &crashFS{fs: fs, mirror: vfs.NewMemFS(), budget: budget, torn: torn, tears: map[int][]int{}}
}

func (c *crashFS) crashed() bool { return c.budget >= 0 && c.count >= c.budget }

func (c *crashFS) step() error {
	if c.crashed() {
		return errCrashed
	}
	c.count++
	return nil
}

func (c *crashFS) check() error {
	if c.crashed() {
		return errCrashed
	}
	return nil
}

func (c *crashFS) Create(name string) (vfs.File, error) {
	if err := c.step(); err != nil {
		return nil, err
	}
	f, err := c.fs.Create(name)
	if err != nil {
		return nil, err
	}
	m, err := c.mirror.Create(name)
	if err != nil {
		return nil, err
	}
	return &crashFile{f: f, m: m, c: c}, nil
}

func (c *crashFS) Open(name string) (vfs.File, error) {
	if err := c.check(); err != nil {
		return nil, err
	}
	f, err := c.fs.Open(name)
	if err != nil {
		return nil, err
	}
	m, err := c.mirror.Open(name)
	if err != nil {
		return nil, err
	}
	return &crashFile{f: f, m: m, c: c}, nil
}

func (c *crashFS) Remove(name string) error {
	if err := c.step(); err != nil {
		return err
	}
	if err := c.fs.Remove(name); err != nil {
		return err
	}
	return c.mirror.Remove(name)
}

func (c *crashFS) Rename(o, n string) error {
	if err := c.step(); err != nil {
		return err
	}
	if err := c.fs.Rename(o, n); err != nil {
		return err
	}
	return c.mirror.Rename(o, n)
}

func (c *crashFS) MkdirAll(dir string) error {
	if err := c.step(); err != nil {
		return err
	}
	if err := c.fs.MkdirAll(dir); err != nil {
		return err
	}
	return c.mirror.MkdirAll(dir)
}

func (c *crashFS) List(dir string) ([]string, error) {
	if err := c.check(); err != nil {
		return nil, err
	}
	return c.fs.List(dir)
}

func (c *crashFS) Stat(name string) (int64, error) {
	if err := c.check(); err != nil {
		return 0, err
	}
	return c.fs.Stat(name)
}

func (c *crashFS) SyncDir(dir string) error {
	if err := c.step(); err != nil {
		return err
	}
	if c.noSync {
		return nil
	}
	if err := c.fs.SyncDir(dir); err != nil {
		return err
	}
	return c.mirror.SyncDir(dir)
}

type crashFile struct {
	f, m vfs.File
	c    *crashFS
}

func (f *crashFile) ReadAt(p []byte, off int64) (int, error) {
	if err := f.c.check(); err != nil {
		return 0, err
	}
	return f.f.ReadAt(p, off)
}

// write runs one write of p at off on both files or, at the torn crash
// point, its first c.torn bytes, then crashes.
func (f *crashFile) write(p []byte, off int64, do func(vfs.File, []byte) (int, error)) (int, error) {
	c := f.c
	if cut := c.torn; cut > 0 && cut < len(p) && c.crashed() && c.count == c.budget {
		c.count++ // the write started: nothing after it runs
		if _, err := do(f.f, p[:cut]); err != nil {
			return 0, err
		}
		do(f.m, p[:cut])
		if strings.HasSuffix(f.f.Name(), ".idx") {
			c.tornIdx = tornSegment(f.f)
		}
		return 0, errCrashed
	}
	if err := c.step(); err != nil {
		return 0, err
	}
	if cuts := tearPoints(off, len(p)); len(cuts) > 0 {
		c.tears[c.count-1] = cuts
	}
	n, err := do(f.f, p)
	if err != nil {
		return n, err
	}
	_, err = do(f.m, p)
	return n, err
}

func (f *crashFile) WriteAt(p []byte, off int64) (int, error) {
	return f.write(p, off, func(x vfs.File, b []byte) (int, error) { return x.WriteAt(b, off) })
}

func (f *crashFile) Write(p []byte) (int, error) {
	end, err := f.f.Size()
	if err != nil {
		return 0, err
	}
	return f.write(p, end, func(x vfs.File, b []byte) (int, error) { return x.Write(b) })
}

func (f *crashFile) Size() (int64, error) {
	if err := f.c.check(); err != nil {
		return 0, err
	}
	return f.f.Size()
}

func (f *crashFile) Sync() error {
	if err := f.c.step(); err != nil {
		return err
	}
	if f.c.noSync {
		return nil
	}
	if err := f.f.Sync(); err != nil {
		return err
	}
	return f.m.Sync()
}

func (f *crashFile) Truncate(n int64) error {
	if err := f.c.step(); err != nil {
		return err
	}
	if err := f.f.Truncate(n); err != nil {
		return err
	}
	return f.m.Truncate(n)
}

func (f *crashFile) Close() error {
	f.m.Close()
	return f.f.Close()
}

func (f *crashFile) Name() string { return f.f.Name() }

// tornSegment says a v1 segment file ends inside a record. RabbitMQ
// 3.10.8 cannot read such a file: when a publish record is cut short,
// parse_segment_entries goes on parsing what is left of it as new records
// (a rel-seq-only record acks some other message), and a last byte or two
// bits 00 match no clause, so the queue index fails with function_clause
// and the queue cannot start. The crash test counts what such a tear
// costs instead of calling it a violation.
func tornSegment(f vfs.File) bool {
	n, err := f.Size()
	if err != nil {
		return false
	}
	data := make([]byte, n)
	if _, err := f.ReadAt(data, 0); err != nil && int64(len(data)) != n {
		return false
	}
	_, err = format.DecodeIdxSegment(f.Name(), data)
	return errors.Is(err, format.ErrTruncated)
}
