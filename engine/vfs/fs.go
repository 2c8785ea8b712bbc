package vfs

import (
	"errors"
	"fmt"
	"io/fs"
	"path"
	"strings"
)

// FS is a filesystem rooted at one directory. Names are slash-separated
// paths relative to that root ("queues/X/0.qi"); "." is the root itself.
type FS interface {
	// Create creates the named file, or truncates it if it exists, and opens
	// it for reading and writing.
	Create(name string) (File, error)
	// Open opens an existing file for reading and writing.
	Open(name string) (File, error)
	// Remove removes a file or an empty directory.
	Remove(name string) error
	// Rename moves oldname to newname, replacing a file already at newname.
	Rename(oldname, newname string) error
	// MkdirAll creates dir and any missing parents.
	MkdirAll(dir string) error
	// List returns the names of the entries of dir, sorted.
	List(dir string) ([]string, error)
	// Stat returns the size in bytes of the named file. For a directory it
	// returns an error wrapping ErrIsDir.
	Stat(name string) (int64, error)
	// SyncDir makes the entries of dir (creates, removes, renames) durable.
	SyncDir(dir string) error
}

// File is an open file of an FS.
type File interface {
	// ReadAt reads len(p) bytes at off; it returns io.EOF when fewer bytes
	// were available.
	ReadAt(p []byte, off int64) (int, error)
	// WriteAt writes p at off, extending the file (with zeros) as needed.
	WriteAt(p []byte, off int64) (int, error)
	// Write appends p at the current end of the file.
	Write(p []byte) (int, error)
	// Size returns the current size of the file.
	Size() (int64, error)
	// Sync makes the file's current content durable.
	Sync() error
	// Truncate changes the size of the file to n bytes.
	Truncate(n int64) error
	// Close releases the handle.
	Close() error
	// Name returns the name the file was opened with.
	Name() string
}

// ErrIsDir is returned (wrapped) when a file operation names a directory.
var ErrIsDir = errors.New("is a directory")

// ErrNotDir is returned (wrapped) when a directory operation names a file.
var ErrNotDir = errors.New("not a directory")

// ErrNotEmpty is returned (wrapped) when removing a directory that has entries.
var ErrNotEmpty = errors.New("directory not empty")

// ErrClosed is returned (wrapped) by operations on a closed file, or on a
// handle opened before a simulated crash.
var ErrClosed = errors.New("file already closed")

// CleanName checks that name is a relative slash path that stays inside the
// root and returns it in canonical form ("." for the root).
func CleanName(name string) (string, error) {
	if name == "" {
		return "", fmt.Errorf("empty path: %w", fs.ErrInvalid)
	}
	if strings.HasPrefix(name, "/") {
		return "", fmt.Errorf("path %q is absolute: %w", name, fs.ErrInvalid)
	}
	clean := path.Clean(name)
	if clean == ".." || strings.HasPrefix(clean, "../") {
		return "", fmt.Errorf("path %q leaves the root: %w", name, fs.ErrInvalid)
	}
	return clean, nil
}

// cleanFileName is CleanName for operations that need a file, not the root.
func cleanFileName(op, name string) (string, error) {
	clean, err := CleanName(name)
	if err != nil {
		return "", &fs.PathError{Op: op, Path: name, Err: err}
	}
	if clean == "." {
		return "", &fs.PathError{Op: op, Path: name, Err: ErrIsDir}
	}
	return clean, nil
}
