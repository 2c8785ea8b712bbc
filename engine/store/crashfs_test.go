package store

import (
	"errors"

	"warren/engine/vfs"
)

// errCrashed is what every file operation returns once the injected crash
// point is reached: the process is gone.
var errCrashed = errors.New("injected crash")

// crashFS lets budget operations that change the disk run, then fails
// every operation: a crash right before the (budget+1)th one, or, when
// torn, inside it if it is a write that spans a page boundary: its whole
// pages up to the last boundary reach the file, the rest never does (a
// process killed in write(2) leaves the pages the kernel copied; a write
// inside one page is copied whole or not at all). A negative budget never
// crashes; count then says how many operations ran, and tears which of
// them can tear.
//
// Every change also goes to mirror, an honest MemFS: after a power loss it
// holds exactly what the store's syncs promised, whatever the disk under
// fs did with them (a sync-lost fault), so a test can tell a loss the
// store allowed (it never synced) from one it did not.
type crashFS struct {
	fs     vfs.FS
	mirror *vfs.MemFS
	budget int
	torn   bool
	count  int
	tears  map[int]bool // operation indexes of the writes that can tear
	// noSync is the store with its fsync calls taken out: Sync and SyncDir
	// succeed and do nothing, on the disk and on the mirror alike.
	noSync bool
}

// pageSize is the unit the kernel copies a write into the page cache in.
const pageSize = 4096

// tearAt returns how many bytes of a write of n bytes at off are in whole
// pages when it is cut at its last page boundary (0: it cannot tear).
func tearAt(off int64, n int) int {
	end := off + int64(n)
	cut := end - end%pageSize
	if cut <= off {
		return 0
	}
	return int(cut - off)
}

func newCrashFS(fs vfs.FS, budget int, torn bool) *crashFS {
	return &crashFS{fs: fs, mirror: vfs.NewMemFS(), budget: budget, torn: torn, tears: map[int]bool{}}
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
// point, its first whole pages, then crashes.
func (f *crashFile) write(p []byte, off int64, do func(vfs.File, []byte) (int, error)) (int, error) {
	c := f.c
	cut := tearAt(off, len(p))
	if c.torn && c.crashed() && c.count == c.budget && cut > 0 {
		c.count++ // the write started: nothing after it runs
		if _, err := do(f.f, p[:cut]); err != nil {
			return 0, err
		}
		do(f.m, p[:cut])
		return 0, errCrashed
	}
	if err := c.step(); err != nil {
		return 0, err
	}
	if cut > 0 {
		c.tears[c.count-1] = true
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
