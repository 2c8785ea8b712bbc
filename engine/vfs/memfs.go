package vfs

import (
	"fmt"
	"io/fs"
	"path"
	"strings"

	"warren/engine/internal/order"
)

// MemFS is a deterministic in-memory FS that keeps what reached the page
// cache apart from what reached the disk.
//
// Every write changes a file's current content at once; Sync copies the
// current content to the file's durable content. Every create, remove and
// rename changes a directory's current entries at once; SyncDir copies them to
// the directory's durable entries. CrashProcess keeps the current state (the
// kernel survives a process crash); PowerLoss rolls every file and directory
// back to its durable state.
//
// NB: a MemFS is not safe for concurrent use; the engine drives it from one
// event loop.
type MemFS struct {
	root   *memNode
	gen    uint64 // bumped by a crash: older handles stop working
	faults faultSet
	trace  []string
	quiet  bool // no trace is kept
	recent *Recent
}

// memNode is one inode: a directory or a regular file.
type memNode struct {
	dir bool

	// Directory entries: current, and as of the last SyncDir.
	children map[string]*memNode
	synced   map[string]*memNode

	// File content: current, and as of the last Sync, sharing their
	// chunks. clean is how much of data is known to equal syncedData's
	// start, so that a sync copies only the chunks' headers that changed
	// since the last one (appending to a large file and syncing after each
	// append stays linear).
	data       content
	syncedData content
	clean      int64
}

// dirty records that data changed from off on.
func (n *memNode) dirty(off int64) {
	if off < n.clean {
		n.clean = off
	}
}

func newDirNode() *memNode {
	return &memNode{dir: true, children: map[string]*memNode{}, synced: map[string]*memNode{}}
}

// NewMemFS returns an empty MemFS; its root directory always exists.
func NewMemFS() *MemFS {
	return &MemFS{root: newDirNode()}
}

var _ FS = (*MemFS)(nil)

func (m *MemFS) record(line string, err error) {
	if !m.quiet {
		m.trace = append(m.trace, withOutcome(line, err))
	}
}

// KeepRecent keeps the last RecentChanges file operations (or, off, none),
// whether or not the trace is on.
func (m *MemFS) KeepRecent(on bool) {
	m.recent = nil
	if on {
		m.recent = &Recent{}
	}
}

// Recent returns the last file operations kept, oldest first.
func (m *MemFS) Recent() []Change {
	if m.recent == nil {
		return nil
	}
	return m.recent.Changes()
}

// note keeps an operation in the recent ring, if there is one.
func (m *MemFS) note(kind ChangeKind, name string, n int, off int64, err error) {
	if m.recent != nil {
		m.recent.add(Change{Kind: kind, Path: name, Len: n, Off: off, Err: err})
	}
}

// SetTracing turns the trace on (as a new MemFS has it) or off: a
// long-running simulation that never reads its trace need not keep it.
func (m *MemFS) SetTracing(on bool) {
	m.quiet = !on
	if !on {
		m.trace = nil
	}
}

// Trace returns the trace lines recorded since the last ResetTrace.
func (m *MemFS) Trace() []string {
	return append([]string(nil), m.trace...)
}

// ResetTrace forgets the recorded trace lines.
func (m *MemFS) ResetTrace() { m.trace = nil }

// SetFault injects a fault of kind (sync-fail, write-fail, enospc) on every
// path whose full name or base name matches the glob pattern.
func (m *MemFS) SetFault(kind, pattern string) error {
	return m.faults.set(kind, pattern)
}

// ClearFaults removes every injected fault.
func (m *MemFS) ClearFaults() { m.faults = faultSet{} }

// Faults returns the active faults, sorted.
func (m *MemFS) Faults() []Fault { return m.faults.list() }

// lookup walks to the node for a cleaned name; nil if it does not exist.
func (m *MemFS) lookup(clean string) (*memNode, error) {
	if clean == "." {
		return m.root, nil
	}
	n := m.root
	for _, part := range strings.Split(clean, "/") {
		if !n.dir {
			return nil, ErrNotDir
		}
		c, ok := n.children[part]
		if !ok {
			return nil, fs.ErrNotExist
		}
		n = c
	}
	return n, nil
}

// parent returns the directory holding a cleaned name and the base name.
func (m *MemFS) parent(clean string) (*memNode, string, error) {
	dir, base := path.Split(clean)
	if dir == "" {
		return m.root, base, nil
	}
	d, err := m.lookup(strings.TrimSuffix(dir, "/"))
	if err != nil {
		return nil, "", err
	}
	if !d.dir {
		return nil, "", ErrNotDir
	}
	return d, base, nil
}

// Create creates or truncates the named file.
func (m *MemFS) Create(name string) (File, error) {
	f, err := m.create(name)
	m.record(traceCreate(name), err)
	m.note(ChangeCreate, name, 0, 0, err)
	return f, err
}

func (m *MemFS) create(name string) (File, error) {
	clean, err := cleanFileName("create", name)
	if err != nil {
		return nil, err
	}
	d, base, err := m.parent(clean)
	if err != nil {
		return nil, &fs.PathError{Op: "create", Path: clean, Err: err}
	}
	n, ok := d.children[base]
	switch {
	case ok && n.dir:
		return nil, &fs.PathError{Op: "create", Path: clean, Err: ErrIsDir}
	case ok:
		n.data.reset()
		n.clean = 0
	default:
		n = &memNode{}
		d.children[base] = n
	}
	return &memFile{fs: m, node: n, name: clean, gen: m.gen}, nil
}

// Open opens an existing file for reading and writing.
func (m *MemFS) Open(name string) (File, error) {
	clean, err := cleanFileName("open", name)
	if err != nil {
		return nil, err
	}
	n, err := m.lookup(clean)
	if err != nil {
		return nil, &fs.PathError{Op: "open", Path: clean, Err: err}
	}
	if n.dir {
		return nil, &fs.PathError{Op: "open", Path: clean, Err: ErrIsDir}
	}
	return &memFile{fs: m, node: n, name: clean, gen: m.gen}, nil
}

// Remove removes a file or an empty directory.
func (m *MemFS) Remove(name string) error {
	err := m.remove(name)
	m.record(traceRemove(name), err)
	m.note(ChangeRemove, name, 0, 0, err)
	return err
}

func (m *MemFS) remove(name string) error {
	clean, err := cleanFileName("remove", name)
	if err != nil {
		return err
	}
	d, base, err := m.parent(clean)
	if err != nil {
		return &fs.PathError{Op: "remove", Path: clean, Err: err}
	}
	n, ok := d.children[base]
	if !ok {
		return &fs.PathError{Op: "remove", Path: clean, Err: fs.ErrNotExist}
	}
	if n.dir && len(n.children) > 0 {
		return &fs.PathError{Op: "remove", Path: clean, Err: ErrNotEmpty}
	}
	delete(d.children, base)
	return nil
}

// Rename moves oldname to newname, replacing a file at newname.
func (m *MemFS) Rename(oldname, newname string) error {
	err := m.rename(oldname, newname)
	m.record(traceRename(oldname, newname), err)
	if m.recent != nil {
		m.recent.add(Change{Kind: ChangeRename, Path: oldname, To: newname, Err: err})
	}
	return err
}

func (m *MemFS) rename(oldname, newname string) error {
	oldClean, err := cleanFileName("rename", oldname)
	if err != nil {
		return err
	}
	newClean, err := cleanFileName("rename", newname)
	if err != nil {
		return err
	}
	od, obase, err := m.parent(oldClean)
	if err != nil {
		return &fs.PathError{Op: "rename", Path: oldClean, Err: err}
	}
	n, ok := od.children[obase]
	if !ok {
		return &fs.PathError{Op: "rename", Path: oldClean, Err: fs.ErrNotExist}
	}
	nd, nbase, err := m.parent(newClean)
	if err != nil {
		return &fs.PathError{Op: "rename", Path: newClean, Err: err}
	}
	if oldClean == newClean {
		return nil
	}
	if n.dir && strings.HasPrefix(newClean, oldClean+"/") {
		return &fs.PathError{Op: "rename", Path: newClean, Err: fs.ErrInvalid}
	}
	if target, ok := nd.children[nbase]; ok {
		if target.dir != n.dir || (target.dir && len(target.children) > 0) {
			return &fs.PathError{Op: "rename", Path: newClean, Err: fs.ErrExist}
		}
	}
	delete(od.children, obase)
	nd.children[nbase] = n
	return nil
}

// MkdirAll creates dir and any missing parents; each new directory is an
// entry of its parent like a file, durable only after SyncDir of the parent.
func (m *MemFS) MkdirAll(dir string) error {
	clean, err := CleanName(dir)
	if err != nil {
		err = &fs.PathError{Op: "mkdir", Path: dir, Err: err}
		m.record(traceMkdir(dir), err)
		return err
	}
	if clean == "." {
		return nil
	}
	n := m.root
	parts := strings.Split(clean, "/")
	for i, part := range parts {
		c, ok := n.children[part]
		if !ok {
			c = newDirNode()
			n.children[part] = c
			m.record(traceMkdir(strings.Join(parts[:i+1], "/")), nil)
		} else if !c.dir {
			err := &fs.PathError{Op: "mkdir", Path: strings.Join(parts[:i+1], "/"), Err: ErrNotDir}
			m.record(traceMkdir(clean), err)
			return err
		}
		n = c
	}
	return nil
}

// List returns the sorted names of the entries of dir.
func (m *MemFS) List(dir string) ([]string, error) {
	clean, err := CleanName(dir)
	if err != nil {
		return nil, &fs.PathError{Op: "list", Path: dir, Err: err}
	}
	n, err := m.lookup(clean)
	if err != nil {
		return nil, &fs.PathError{Op: "list", Path: clean, Err: err}
	}
	if !n.dir {
		return nil, &fs.PathError{Op: "list", Path: clean, Err: ErrNotDir}
	}
	names := make([]string, 0, len(n.children))
	for name := range n.children {
		names = append(names, name)
	}
	order.Strings(names)
	return names, nil
}

// Stat returns the current size of the named file.
func (m *MemFS) Stat(name string) (int64, error) {
	clean, err := CleanName(name)
	if err != nil {
		return 0, &fs.PathError{Op: "stat", Path: name, Err: err}
	}
	n, err := m.lookup(clean)
	if err != nil {
		return 0, &fs.PathError{Op: "stat", Path: clean, Err: err}
	}
	if n.dir {
		return 0, &fs.PathError{Op: "stat", Path: clean, Err: ErrIsDir}
	}
	return n.data.size(), nil
}

// SyncDir makes the current entries of dir durable.
func (m *MemFS) SyncDir(dir string) error {
	err := m.syncDir(dir)
	m.record(traceSyncDir(dir), err)
	m.note(ChangeSyncDir, dir, 0, 0, err)
	return err
}

func (m *MemFS) syncDir(dir string) error {
	clean, err := CleanName(dir)
	if err != nil {
		return &fs.PathError{Op: "sync-dir", Path: dir, Err: err}
	}
	n, err := m.lookup(clean)
	if err != nil {
		return &fs.PathError{Op: "sync-dir", Path: clean, Err: err}
	}
	if !n.dir {
		return &fs.PathError{Op: "sync-dir", Path: clean, Err: ErrNotDir}
	}
	if err := m.faults.check(FaultSyncFail, "sync-dir", clean); err != nil {
		return err
	}
	if _, lost := m.faults.match(FaultSyncLost, clean); lost {
		return nil
	}
	n.synced = make(map[string]*memNode, len(n.children))
	for k, v := range n.children {
		n.synced[k] = v
	}
	return nil
}

// DurableSize returns the size of the named file's durable content, for
// tests and views that show what a power loss would keep.
func (m *MemFS) DurableSize(name string) (int64, error) {
	clean, err := cleanFileName("stat", name)
	if err != nil {
		return 0, err
	}
	n, err := m.lookup(clean)
	if err != nil {
		return 0, &fs.PathError{Op: "stat", Path: clean, Err: err}
	}
	if n.dir {
		return 0, &fs.PathError{Op: "stat", Path: clean, Err: ErrIsDir}
	}
	return n.syncedData.size(), nil
}

// String summarises the filesystem for debugging: one line per file with its
// current and durable sizes.
func (m *MemFS) String() string {
	var b strings.Builder
	var walk func(prefix string, n *memNode)
	walk = func(prefix string, n *memNode) {
		names := make([]string, 0, len(n.children))
		for k := range n.children {
			names = append(names, k)
		}
		order.Strings(names)
		for _, k := range names {
			c := n.children[k]
			p := path.Join(prefix, k)
			if c.dir {
				fmt.Fprintf(&b, "%s/\n", p)
				walk(p, c)
				continue
			}
			fmt.Fprintf(&b, "%s %d bytes (%d durable)\n", p, c.data.size(), c.syncedData.size())
		}
	}
	walk("", m.root)
	return b.String()
}

// Bytes is how many bytes the files hold, current and durable content
// together (a file written since its last sync holds both): what the
// filesystem takes in the computer's memory, about (at most: the two
// share the chunks they have in common). It visits every file.
func (m *MemFS) Bytes() int64 {
	seen := map[*memNode]bool{}
	var total int64
	var walk func(n *memNode)
	walk = func(n *memNode) {
		if seen[n] {
			return
		}
		seen[n] = true
		total += n.data.size() + n.syncedData.size()
		for _, c := range n.children {
			walk(c)
		}
		for _, c := range n.synced {
			walk(c)
		}
	}
	walk(m.root)
	return total
}
