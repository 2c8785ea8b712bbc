package vfs

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"path"
)

// maxReadFile bounds ReadFile so that a corrupt size cannot exhaust memory.
const maxReadFile = 1 << 31

// ReadFile returns the whole content of the named file.
func ReadFile(fsys FS, name string) ([]byte, error) {
	f, err := fsys.Open(name)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	size, err := f.Size()
	if err != nil {
		return nil, err
	}
	if size > maxReadFile {
		return nil, fmt.Errorf("read %s: file of %d bytes is too large", name, size)
	}
	buf := make([]byte, size)
	n, err := f.ReadAt(buf, 0)
	if err != nil && !(errors.Is(err, io.EOF) && int64(n) == size) {
		return nil, err
	}
	return buf[:n], nil
}

// WriteFile creates (or truncates) the named file and writes data to it,
// without syncing.
func WriteFile(fsys FS, name string, data []byte) error {
	f, err := fsys.Create(name)
	if err != nil {
		return err
	}
	if _, err := f.Write(data); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}

// RemoveAll removes dir and everything under it; a missing dir is not an
// error.
func RemoveAll(fsys FS, dir string) error {
	names, err := fsys.List(dir)
	if errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	if errors.Is(err, ErrNotDir) {
		return fsys.Remove(dir)
	}
	if err != nil {
		return err
	}
	for _, n := range names {
		if err := RemoveAll(fsys, path.Join(dir, n)); err != nil {
			return err
		}
	}
	if clean, _ := CleanName(dir); clean == "." {
		return nil
	}
	return fsys.Remove(dir)
}

// IsDir reports whether name is an existing directory.
func IsDir(fsys FS, name string) bool {
	_, err := fsys.Stat(name)
	return errors.Is(err, ErrIsDir)
}
