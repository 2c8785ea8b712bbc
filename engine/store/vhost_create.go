package store

import (
	"fmt"
	"path"

	"warren/engine/vfs"
)

// CreateVHost lays out a new vhost on a filesystem where it does not exist
// yet: what OpenVHost does on a first start, without the recovery code, so
// that a build that never restarts a node (the browser's, which has a size
// budget) does not link it.
func CreateVHost(fsys vfs.FS, root string, p Profile) (*VHost, IO, error) {
	if err := p.check(); err != nil {
		return nil, IO{}, err
	}
	d := newDisk(fsys)
	v := &VHost{d: d, root: root, dir: VHostDir(root, p.VHost), p: p, queues: map[string]*QueueFiles{}, durable: map[string]QueueRef{}}
	if d.exists(v.dir) {
		return nil, d.io, fmt.Errorf("vhost directory %s already exists: open it with OpenVHost", v.dir)
	}
	if err := v.layout(true); err != nil {
		return nil, d.io, err
	}
	var err error
	if v.transient, err = createMsgStore(d, path.Join(v.dir, transientStoreDir), p, false); err != nil {
		return nil, d.io, err
	}
	if v.persistent, err = createMsgStore(d, path.Join(v.dir, persistentStoreDir), p, true); err != nil {
		return nil, d.io, err
	}
	return v, d.io, nil
}

// createMsgStore starts an empty store: its directory and an empty 0.rdq.
func createMsgStore(d *disk, dir string, p Profile, persistent bool) (*MsgStore, error) {
	s := newMsgStore(d, dir, p, persistent)
	if err := d.mkdirAll(dir); err != nil {
		return nil, err
	}
	s.files[0] = &fileSummary{}
	s.current = 0
	f, _, err := d.openOrCreate(s.fileName(0))
	if err != nil {
		return nil, err
	}
	err = f.truncate(0)
	f.close()
	return s, err
}
