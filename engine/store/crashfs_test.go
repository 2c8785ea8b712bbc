package store

import (
	"errors"

	"warren/engine/vfs"
)

// errCrashed is what every file operation returns once the injected crash
// point is reached: the process is gone.
var errCrashed = errors.New("injected crash")

// crashFS lets budget operations that change the disk run, then fails
// every operation: a crash right before the (budget+1)th one. A negative
// budget never crashes; count then says how many operations ran.
type crashFS struct {
	fs     vfs.FS
	budget int
	count  int
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
	return &crashFile{f: f, c: c}, nil
}

func (c *crashFS) Open(name string) (vfs.File, error) {
	if err := c.check(); err != nil {
		return nil, err
	}
	f, err := c.fs.Open(name)
	if err != nil {
		return nil, err
	}
	return &crashFile{f: f, c: c}, nil
}

func (c *crashFS) Remove(name string) error {
	if err := c.step(); err != nil {
		return err
	}
	return c.fs.Remove(name)
}

func (c *crashFS) Rename(o, n string) error {
	if err := c.step(); err != nil {
		return err
	}
	return c.fs.Rename(o, n)
}

func (c *crashFS) MkdirAll(dir string) error {
	if err := c.step(); err != nil {
		return err
	}
	return c.fs.MkdirAll(dir)
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
	return c.fs.SyncDir(dir)
}

type crashFile struct {
	f vfs.File
	c *crashFS
}

func (f *crashFile) ReadAt(p []byte, off int64) (int, error) {
	if err := f.c.check(); err != nil {
		return 0, err
	}
	return f.f.ReadAt(p, off)
}

func (f *crashFile) WriteAt(p []byte, off int64) (int, error) {
	if err := f.c.step(); err != nil {
		return 0, err
	}
	return f.f.WriteAt(p, off)
}

func (f *crashFile) Write(p []byte) (int, error) {
	if err := f.c.step(); err != nil {
		return 0, err
	}
	return f.f.Write(p)
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
	return f.f.Sync()
}

func (f *crashFile) Truncate(n int64) error {
	if err := f.c.step(); err != nil {
		return err
	}
	return f.f.Truncate(n)
}

func (f *crashFile) Close() error { return f.f.Close() }

func (f *crashFile) Name() string { return f.f.Name() }
