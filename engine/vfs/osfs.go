//go:build !js

package vfs

import (
	"errors"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"syscall"

	"warren/engine/internal/order"
)

// OSFS is an FS on the real filesystem, rooted at a directory, for native
// runs and for reading a real broker's files.
type OSFS struct {
	root string
}

// NewOSFS returns an OSFS rooted at dir.
func NewOSFS(dir string) *OSFS { return &OSFS{root: dir} }

var _ FS = (*OSFS)(nil)

// Root returns the directory the OSFS is rooted at.
func (o *OSFS) Root() string { return o.root }

func (o *OSFS) path(op, name string, file bool) (string, string, error) {
	var clean string
	var err error
	if file {
		clean, err = cleanFileName(op, name)
	} else {
		clean, err = CleanName(name)
		if err != nil {
			err = &fs.PathError{Op: op, Path: name, Err: err}
		}
	}
	if err != nil {
		return "", "", err
	}
	return clean, filepath.Join(o.root, filepath.FromSlash(clean)), nil
}

// relErr rewrites an OS error to name the path relative to the root.
func relErr(op, clean string, err error) error {
	switch {
	case errors.Is(err, os.ErrClosed):
		return &fs.PathError{Op: op, Path: clean, Err: ErrClosed}
	case errors.Is(err, syscall.ENOTDIR):
		return &fs.PathError{Op: op, Path: clean, Err: ErrNotDir}
	case errors.Is(err, syscall.ENOTEMPTY):
		return &fs.PathError{Op: op, Path: clean, Err: ErrNotEmpty}
	case errors.Is(err, syscall.EISDIR):
		return &fs.PathError{Op: op, Path: clean, Err: ErrIsDir}
	}
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return &fs.PathError{Op: op, Path: clean, Err: pe.Err}
	}
	var le *os.LinkError
	if errors.As(err, &le) {
		return &fs.PathError{Op: op, Path: clean, Err: le.Err}
	}
	return &fs.PathError{Op: op, Path: clean, Err: err}
}

// Create creates or truncates the named file.
func (o *OSFS) Create(name string) (File, error) {
	clean, p, err := o.path("create", name, true)
	if err != nil {
		return nil, err
	}
	f, err := os.OpenFile(p, os.O_RDWR|os.O_CREATE|os.O_TRUNC, 0o644)
	if err != nil {
		return nil, relErr("create", clean, err)
	}
	return &osFile{f: f, name: clean}, nil
}

// Open opens an existing file for reading and writing, or read-only when the
// file may not be written (writes then fail).
func (o *OSFS) Open(name string) (File, error) {
	clean, p, err := o.path("open", name, true)
	if err != nil {
		return nil, err
	}
	if st, err := os.Stat(p); err == nil && st.IsDir() {
		return nil, &fs.PathError{Op: "open", Path: clean, Err: ErrIsDir}
	}
	f, err := os.OpenFile(p, os.O_RDWR, 0)
	if errors.Is(err, fs.ErrPermission) {
		f, err = os.OpenFile(p, os.O_RDONLY, 0)
	}
	if err != nil {
		return nil, relErr("open", clean, err)
	}
	return &osFile{f: f, name: clean}, nil
}

// Remove removes a file or an empty directory.
func (o *OSFS) Remove(name string) error {
	clean, p, err := o.path("remove", name, true)
	if err != nil {
		return err
	}
	if err := os.Remove(p); err != nil {
		if errors.Is(err, syscall.EEXIST) {
			return &fs.PathError{Op: "remove", Path: clean, Err: ErrNotEmpty}
		}
		return relErr("remove", clean, err)
	}
	return nil
}

// Rename moves oldname to newname.
func (o *OSFS) Rename(oldname, newname string) error {
	oldClean, op, err := o.path("rename", oldname, true)
	if err != nil {
		return err
	}
	_, np, err := o.path("rename", newname, true)
	if err != nil {
		return err
	}
	if err := os.Rename(op, np); err != nil {
		return relErr("rename", oldClean, err)
	}
	return nil
}

// MkdirAll creates dir and any missing parents.
func (o *OSFS) MkdirAll(dir string) error {
	clean, p, err := o.path("mkdir", dir, false)
	if err != nil {
		return err
	}
	if err := os.MkdirAll(p, 0o755); err != nil {
		return relErr("mkdir", clean, err)
	}
	return nil
}

// List returns the sorted names of the entries of dir.
func (o *OSFS) List(dir string) ([]string, error) {
	clean, p, err := o.path("list", dir, false)
	if err != nil {
		return nil, err
	}
	if st, err := os.Stat(p); err == nil && !st.IsDir() {
		return nil, &fs.PathError{Op: "list", Path: clean, Err: ErrNotDir}
	}
	entries, err := os.ReadDir(p)
	if err != nil {
		return nil, relErr("list", clean, err)
	}
	names := make([]string, 0, len(entries))
	for _, e := range entries {
		names = append(names, e.Name())
	}
	order.Strings(names)
	return names, nil
}

// Stat returns the size of the named file.
func (o *OSFS) Stat(name string) (int64, error) {
	clean, p, err := o.path("stat", name, false)
	if err != nil {
		return 0, err
	}
	st, err := os.Stat(p)
	if err != nil {
		return 0, relErr("stat", clean, err)
	}
	if st.IsDir() {
		return 0, &fs.PathError{Op: "stat", Path: clean, Err: ErrIsDir}
	}
	return st.Size(), nil
}

// SyncDir fsyncs the directory so that its entries are durable.
func (o *OSFS) SyncDir(dir string) error {
	clean, p, err := o.path("sync-dir", dir, false)
	if err != nil {
		return err
	}
	d, err := os.Open(p)
	if err != nil {
		return relErr("sync-dir", clean, err)
	}
	defer d.Close()
	if st, err := d.Stat(); err == nil && !st.IsDir() {
		return &fs.PathError{Op: "sync-dir", Path: clean, Err: ErrNotDir}
	}
	if err := d.Sync(); err != nil {
		return relErr("sync-dir", clean, err)
	}
	return nil
}

// osFile is an open OS file.
type osFile struct {
	f    *os.File
	name string
}

func (f *osFile) Name() string { return f.name }

func (f *osFile) ReadAt(p []byte, off int64) (int, error) {
	n, err := f.f.ReadAt(p, off)
	if err != nil && err != io.EOF {
		return n, relErr("read", f.name, err)
	}
	return n, err
}

func (f *osFile) WriteAt(p []byte, off int64) (int, error) {
	n, err := f.f.WriteAt(p, off)
	if err != nil {
		return n, relErr("write", f.name, err)
	}
	return n, nil
}

func (f *osFile) Write(p []byte) (int, error) {
	st, err := f.f.Stat()
	if err != nil {
		return 0, relErr("write", f.name, err)
	}
	return f.WriteAt(p, st.Size())
}

func (f *osFile) Size() (int64, error) {
	st, err := f.f.Stat()
	if err != nil {
		return 0, relErr("stat", f.name, err)
	}
	return st.Size(), nil
}

func (f *osFile) Sync() error {
	if err := f.f.Sync(); err != nil {
		return relErr("sync", f.name, err)
	}
	return nil
}

func (f *osFile) Truncate(n int64) error {
	if err := f.f.Truncate(n); err != nil {
		return relErr("truncate", f.name, err)
	}
	return nil
}

func (f *osFile) Close() error {
	if err := f.f.Close(); err != nil {
		return relErr("close", f.name, err)
	}
	return nil
}
