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
	data := &f.node.data
	if off >= data.size() {
		if len(p) == 0 {
			return 0, nil
		}
		return 0, io.EOF
	}
	n := data.readAt(p, off)
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
	off := f.node.data.size()
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
	if off+int64(len(p)) > f.node.data.size() {
		if err := f.fs.faults.check(FaultENOSPC, "write", f.name); err != nil {
			return err
		}
	}
	f.node.dirty(min(off, f.node.data.size()))
	f.node.data.writeAt(p, off)
	return nil
}

// Size returns the size of the current content.
func (f *memFile) Size() (int64, error) {
	if err := f.usable("stat"); err != nil {
		return 0, err
	}
	return f.node.data.size(), nil
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
	// the chunks wholly inside the clean start are the same in both
	n := f.node
	n.syncedData.copyOf(&n.data, int(n.clean/chunkSize))
	n.clean = n.data.size()
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
	data := &f.node.data
	if n > data.size() {
		if err := f.fs.faults.check(FaultENOSPC, "truncate", f.name); err != nil {
			return err
		}
	}
	f.node.dirty(min(n, data.size()))
	data.truncate(n)
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
