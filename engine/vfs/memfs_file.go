package vfs

import (
	"fmt"
	"io"
	"io/fs"
)

// memFile is an open handle on a MemFS file.
type memFile struct {
	fs     *MemFS
	node   *memNode
	name   string
	gen    uint64
	closed bool
}

var _ File = (*memFile)(nil)

func (f *memFile) usable(op string) error {
	if f.closed || f.gen != f.fs.gen {
		return &fs.PathError{Op: op, Path: f.name, Err: ErrClosed}
	}
	return nil
}

// Name returns the cleaned name the file was opened with.
func (f *memFile) Name() string { return f.name }

// ReadAt reads from the current content.
func (f *memFile) ReadAt(p []byte, off int64) (int, error) {
	if err := f.usable("read"); err != nil {
		return 0, err
	}
	if off < 0 {
		return 0, &fs.PathError{Op: "read", Path: f.name, Err: fs.ErrInvalid}
	}
	data := f.node.data
	if off >= int64(len(data)) {
		if len(p) == 0 {
			return 0, nil
		}
		return 0, io.EOF
	}
	n := copy(p, data[off:])
	if n < len(p) {
		return n, io.EOF
	}
	return n, nil
}

// WriteAt writes p at off in the current content.
func (f *memFile) WriteAt(p []byte, off int64) (int, error) {
	err := f.writeAt(p, off)
	if !f.fs.quiet {
		f.fs.record(traceWrite(f.name, len(p), off), err)
	}
	f.fs.note(ChangeWrite, f.name, len(p), off, err)
	if err != nil {
		return 0, err
	}
	return len(p), nil
}

// Write appends p to the current content.
func (f *memFile) Write(p []byte) (int, error) {
	off := int64(len(f.node.data))
	err := f.writeAt(p, off)
	if !f.fs.quiet {
		f.fs.record(traceWrite(f.name, len(p), off), err)
	}
	f.fs.note(ChangeWrite, f.name, len(p), off, err)
	if err != nil {
		return 0, err
	}
	return len(p), nil
}

// maxFileSize bounds a MemFS file so that a bad offset cannot exhaust memory.
const maxFileSize = 1 << 40

func (f *memFile) writeAt(p []byte, off int64) error {
	if err := f.usable("write"); err != nil {
		return err
	}
	if off < 0 || off > maxFileSize || int64(len(p)) > maxFileSize-off {
		return &fs.PathError{Op: "write", Path: f.name, Err: fmt.Errorf("offset %d out of range: %w", off, fs.ErrInvalid)}
	}
	if err := f.fs.faults.check(FaultWriteFail, "write", f.name); err != nil {
		return err
	}
	end := off + int64(len(p))
	if end > int64(len(f.node.data)) {
		if err := f.fs.faults.check(FaultENOSPC, "write", f.name); err != nil {
			return err
		}
		f.node.data = grow(f.node.data, end)
	}
	copy(f.node.data[off:], p)
	f.node.dirty(off)
	return nil
}

// grow extends data with zeros to n bytes.
func grow(data []byte, n int64) []byte {
	if n <= int64(cap(data)) {
		old := len(data)
		data = data[:n]
		clear(data[old:])
		return data
	}
	c := 2 * int64(cap(data))
	if c < n {
		c = n
	}
	out := make([]byte, n, c)
	copy(out, data)
	return out
}

// Size returns the size of the current content.
func (f *memFile) Size() (int64, error) {
	if err := f.usable("stat"); err != nil {
		return 0, err
	}
	return int64(len(f.node.data)), nil
}

// Sync makes the current content durable.
func (f *memFile) Sync() error {
	err := f.sync()
	f.fs.record(traceSync(f.name), err)
	f.fs.note(ChangeSync, f.name, 0, 0, err)
	return err
}

func (f *memFile) sync() error {
	if err := f.usable("sync"); err != nil {
		return err
	}
	if err := f.fs.faults.check(FaultSyncFail, "sync", f.name); err != nil {
		return err
	}
	if _, lost := f.fs.faults.match(FaultSyncLost, f.name); lost {
		return nil
	}
	// syncedData has its own array, never shared with data or another
	// node: keep its clean start and copy the rest
	n := f.node
	n.syncedData = append(n.syncedData[:n.clean], n.data[n.clean:]...)
	n.clean = len(n.data)
	return nil
}

// Truncate sets the size of the current content.
func (f *memFile) Truncate(n int64) error {
	err := f.truncate(n)
	if !f.fs.quiet {
		f.fs.record(traceTruncate(f.name, n), err)
	}
	f.fs.note(ChangeTruncate, f.name, int(n), 0, err)
	return err
}

func (f *memFile) truncate(n int64) error {
	if err := f.usable("truncate"); err != nil {
		return err
	}
	if n < 0 || n > maxFileSize {
		return &fs.PathError{Op: "truncate", Path: f.name, Err: fs.ErrInvalid}
	}
	if err := f.fs.faults.check(FaultWriteFail, "truncate", f.name); err != nil {
		return err
	}
	if n > int64(len(f.node.data)) {
		if err := f.fs.faults.check(FaultENOSPC, "truncate", f.name); err != nil {
			return err
		}
		f.node.data = grow(f.node.data, n)
		f.node.dirty(n) // grow zeroed what follows the old end
		return nil
	}
	f.node.data = f.node.data[:n]
	f.node.dirty(n)
	return nil
}

// Close releases the handle; later operations on it fail.
func (f *memFile) Close() error {
	if f.closed {
		return &fs.PathError{Op: "close", Path: f.name, Err: ErrClosed}
	}
	f.closed = true
	return nil
}
