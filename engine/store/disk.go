package store

import (
	"errors"
	"io"
	"io/fs"
	"path"
	"sort"
	"strings"

	"warren/engine/vfs"
)

// disk is the FS as the store sees it. It counts every file operation into io,
// and it models what an fsync of a file makes durable on a journalling
// filesystem (ext4, xfs): the file's content and the names in its
// directories that changed since they were last made durable.
//
// NB: RabbitMQ never fsyncs a directory. On ext4 an fsync of a new file also
// commits the transaction that created its name, so a file that RabbitMQ
// fsynced survives a power loss. vfs.MemFS makes names durable only on
// SyncDir, so disk issues the SyncDir calls that the filesystem's journal
// would do implicitly: on every file Sync, for each ancestor directory whose
// entries changed since its last sync. They appear in the trace as
// "sync-dir" lines right after the "sync" that causes them.
type disk struct {
	fs vfs.FS
	io IO
	// dirty holds the directories whose entries changed (create, remove,
	// rename, mkdir) since disk last synced them.
	dirty map[string]bool
}

func newDisk(fsys vfs.FS) *disk {
	return &disk{fs: fsys, dirty: map[string]bool{}}
}

// mark records that the entries of the directory holding name changed.
func (d *disk) mark(name string) {
	d.dirty[path.Dir(name)] = true
}

// markTree marks as changed the parent of each directory on the way to
// dir that does not exist yet: MkdirAll links each of them into its parent.
func (d *disk) markTree(dir string) {
	for dir != "." && dir != "/" && dir != "" && !vfs.IsDir(d.fs, dir) {
		d.dirty[path.Dir(dir)] = true
		dir = path.Dir(dir)
	}
}

// syncDirsOf makes durable the changed ancestor directories of name,
// deepest first.
func (d *disk) syncDirsOf(name string) error {
	var dirs []string
	for dir := path.Dir(name); ; dir = path.Dir(dir) {
		if d.dirty[dir] {
			dirs = append(dirs, dir)
		}
		if dir == "." || dir == "/" {
			break
		}
	}
	for _, dir := range dirs {
		d.io.DirSyncs++
		if err := d.fs.SyncDir(dir); err != nil {
			return err
		}
		delete(d.dirty, dir)
	}
	return nil
}

func (d *disk) create(name string) (*diskFile, error) {
	d.io.Creates++
	d.mark(name)
	f, err := d.fs.Create(name)
	if err != nil {
		return nil, err
	}
	return &diskFile{f: f, d: d}, nil
}

func (d *disk) open(name string) (*diskFile, error) {
	f, err := d.fs.Open(name)
	if err != nil {
		return nil, err
	}
	return &diskFile{f: f, d: d}, nil
}

// openOrCreate opens name, creating it empty when it does not exist, as
// Erlang's file:open with [read, write] or [append] does.
func (d *disk) openOrCreate(name string) (*diskFile, bool, error) {
	f, err := d.open(name)
	if err == nil {
		return f, false, nil
	}
	if !errors.Is(err, fs.ErrNotExist) {
		return nil, false, err
	}
	f, err = d.create(name)
	return f, true, err
}

func (d *disk) remove(name string) error {
	d.io.Removes++
	d.mark(name)
	return d.fs.Remove(name)
}

// removeIfExists removes name; a missing file is not an error.
func (d *disk) removeIfExists(name string) error {
	if _, err := d.fs.Stat(name); errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	return d.remove(name)
}

func (d *disk) rename(oldname, newname string) error {
	d.io.Renames++
	d.mark(oldname)
	d.mark(newname)
	return d.fs.Rename(oldname, newname)
}

func (d *disk) mkdirAll(dir string) error {
	if vfs.IsDir(d.fs, dir) {
		return nil
	}
	d.io.Mkdirs++
	d.markTree(dir)
	return d.fs.MkdirAll(dir)
}

// removeAll removes dir and everything under it, files before their
// directories; a missing dir is not an error.
func (d *disk) removeAll(dir string) error {
	names, err := d.fs.List(dir)
	if errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	if errors.Is(err, vfs.ErrNotDir) {
		return d.remove(dir)
	}
	if err != nil {
		return err
	}
	for _, n := range names {
		if err := d.removeAll(path.Join(dir, n)); err != nil {
			return err
		}
	}
	delete(d.dirty, dir)
	return d.remove(dir)
}

func (d *disk) list(dir string) ([]string, error) {
	names, err := d.fs.List(dir)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	return names, err
}

func (d *disk) exists(name string) bool {
	_, err := d.fs.Stat(name)
	return err == nil || errors.Is(err, vfs.ErrIsDir)
}

func (d *disk) size(name string) (int64, error) { return d.fs.Stat(name) }

// readFile returns the whole file; ok is false when it does not exist.
func (d *disk) readFile(name string) ([]byte, bool, error) {
	f, err := d.open(name)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, false, nil
	}
	if err != nil {
		return nil, false, err
	}
	defer f.close()
	size, err := f.size()
	if err != nil {
		return nil, true, err
	}
	buf := make([]byte, size)
	n, err := f.readAt(buf, 0)
	return buf[:n], true, err
}

// writeFile creates name with data, without syncing (file:write_file).
func (d *disk) writeFile(name string, data []byte) error {
	f, err := d.create(name)
	if err != nil {
		return err
	}
	defer f.close()
	if len(data) == 0 {
		return nil
	}
	_, err = f.write(data)
	return err
}

// segmentFiles returns the numbers of the files "<n><ext>" in dir, sorted.
func (d *disk) segmentFiles(dir, ext string) ([]uint64, error) {
	names, err := d.list(dir)
	if err != nil {
		return nil, err
	}
	var nums []uint64
	for _, n := range names {
		if !strings.HasSuffix(n, ext) {
			continue
		}
		num, err := parseSegmentName(n, ext)
		if err == nil {
			nums = append(nums, num)
		}
	}
	sort.Slice(nums, func(i, j int) bool { return nums[i] < nums[j] })
	return nums, nil
}

// diskFile is an open file of a disk.
type diskFile struct {
	f vfs.File
	d *disk
}

func (f *diskFile) name() string { return f.f.Name() }

func (f *diskFile) readAt(p []byte, off int64) (int, error) {
	f.d.io.Reads++
	n, err := f.f.ReadAt(p, off)
	f.d.io.BytesRead += int64(n)
	if errors.Is(err, io.EOF) && n == len(p) {
		err = nil
	}
	return n, err
}

func (f *diskFile) writeAt(p []byte, off int64) (int, error) {
	f.d.io.Writes++
	f.d.io.BytesWritten += int64(len(p))
	return f.f.WriteAt(p, off)
}

func (f *diskFile) write(p []byte) (int, error) {
	f.d.io.Writes++
	f.d.io.BytesWritten += int64(len(p))
	return f.f.Write(p)
}

func (f *diskFile) size() (int64, error) { return f.f.Size() }

func (f *diskFile) truncate(n int64) error {
	f.d.io.Truncates++
	return f.f.Truncate(n)
}

// sync fsyncs the file, then the changed directories above it (see disk).
func (f *diskFile) sync() error {
	f.d.io.Syncs++
	if err := f.f.Sync(); err != nil {
		return err
	}
	return f.d.syncDirsOf(f.f.Name())
}

func (f *diskFile) close() error { return f.f.Close() }
