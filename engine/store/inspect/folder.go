package inspect

import (
	"bytes"
	"fmt"
	"path"
	"sort"
	"strings"

	"warren/engine/internal/order"
	"warren/engine/store/format"
	"warren/engine/vfs"
)

// MaxFolderBytes bounds the files a Folder holds in memory together.
const MaxFolderBytes = 256 << 20

// NamedFile is one file handed over by name, such as a file of a folder
// dropped on a page or a member of a tar archive.
type NamedFile struct {
	Path string // slash-separated, relative to what was dropped; a folder's ends in "/"
	Data []byte
}

// Folder is a vhost folder read from files held in memory: its report, as
// the inspect command prints it for the folder on disk, and each file's
// bytes. Nothing writes to it once it is open.
type Folder struct {
	Root    string // where the vhost folder is among the names given; "" when they are its own
	Report  *Report
	Skipped []string // names outside the vhost folder, left out
	files   []File
	fsys    vfs.FS
}

// vhostPart reports whether a name's segment at i places the vhost folder
// at the segments before it.
func vhostPart(segs []string, i int) bool {
	switch segs[i] {
	case queuesDir, PersistentStore, TransientStore:
		return i < len(segs)-1
	case format.VHostFile, format.VHostConfig:
		return i == len(segs)-1
	}
	return false
}

// folderRoot is the vhost folder a name lies in, or false.
func folderRoot(name string) (string, bool) {
	segs := strings.Split(name, "/")
	for i := range segs {
		if vhostPart(segs, i) {
			return strings.Join(segs[:i], "/"), true
		}
	}
	return "", false
}

// OpenFolder reads the files of one vhost folder (the folder that holds
// queues/ and msg_store_persistent/, or anything that holds exactly one
// such folder). It refuses names that hold no vhost folder or more than
// one, and files larger than MaxFolderBytes together.
func OpenFolder(files []NamedFile) (*Folder, error) {
	var total int64
	roots := map[string]bool{}
	clean := make([]string, len(files))
	for i, f := range files {
		total += int64(len(f.Data))
		if total > MaxFolderBytes {
			return nil, fmt.Errorf("the files hold more than %d MB; open a smaller folder", MaxFolderBytes>>20)
		}
		name := strings.Trim(path.Clean("/"+strings.ReplaceAll(f.Path, "\\", "/")), "/")
		clean[i] = name
		if r, ok := folderRoot(name); ok {
			roots[r] = true
		}
	}
	if len(roots) == 0 {
		return nil, fmt.Errorf("not a RabbitMQ vhost folder: none of the %d files is in a %s/, %s/ or %s/ folder", len(files), queuesDir, PersistentStore, TransientStore)
	}
	if len(roots) > 1 {
		list := make([]string, 0, len(roots))
		for r := range roots {
			list = append(list, "/"+r)
		}
		order.Strings(list)
		return nil, fmt.Errorf("the files hold %d vhost folders (%s): open one of them", len(list), strings.Join(list, ", "))
	}
	var root string
	for r := range roots {
		root = r
	}
	const top = "vhost"
	m := vfs.NewMemFS()
	if err := m.MkdirAll(top); err != nil {
		return nil, err
	}
	fo := &Folder{Root: root, fsys: m}
	for i, f := range files {
		rel := clean[i]
		if strings.HasSuffix(f.Path, "/") && (rel == root || strings.HasPrefix(root, rel+"/")) {
			continue // a folder the vhost folder is in, or the folder itself
		}
		if root != "" {
			var ok bool
			if rel, ok = strings.CutPrefix(rel, root+"/"); !ok {
				fo.Skipped = append(fo.Skipped, clean[i])
				continue
			}
		}
		if rel == "" || rel == "." {
			continue
		}
		full := path.Join(top, rel)
		if strings.HasSuffix(f.Path, "/") {
			if err := m.MkdirAll(full); err != nil {
				return nil, fmt.Errorf("%s: %v", rel, err)
			}
			continue
		}
		if err := m.MkdirAll(path.Dir(full)); err != nil {
			return nil, fmt.Errorf("%s: %v", rel, err)
		}
		if err := vfs.WriteFile(m, full, f.Data); err != nil {
			return nil, fmt.Errorf("%s: %v", rel, err)
		}
		fo.files = append(fo.files, File{Path: rel, Size: int64(len(f.Data))})
	}
	sort.Slice(fo.files, func(i, j int) bool { return fo.files[i].Path < fo.files[j].Path })
	order.Strings(fo.Skipped)
	r, err := Inspect(m, top)
	if err != nil {
		return nil, err
	}
	fo.Report = r
	return fo, nil
}

// Files lists the folder's files by path.
func (fo *Folder) Files() []File { return append([]File(nil), fo.files...) }

// Read returns a file's bytes.
func (fo *Folder) Read(rel string) ([]byte, error) {
	for _, f := range fo.files {
		if f.Path == rel {
			return vfs.ReadFile(fo.fsys, path.Join("vhost", rel))
		}
	}
	return nil, fmt.Errorf("no file %s in the folder", rel)
}

// Problem returns the first problem the report has with a file, or nil.
func (fo *Folder) Problem(rel string) error {
	for _, p := range fo.Report.Problems {
		if p.File == rel {
			return p.Err
		}
	}
	return nil
}

// Dead lists the offsets of a file's entries that nothing live points at:
// the entries of a message store file no live index entry references, and
// the entries of a .qs file no live slot of its queue points at.
func (fo *Folder) Dead(rel string) []int64 {
	var out []int64
	switch path.Ext(rel) {
	case format.ExtMsgStore:
		for _, s := range fo.Report.Stores {
			for _, f := range s.Files {
				if f.Path != rel {
					continue
				}
				for _, e := range f.Entries {
					if e.Valid && !e.Live() {
						out = append(out, e.Offset)
					}
				}
			}
		}
	case format.ExtQueueStore:
		dir, name := path.Split(rel)
		live := map[uint64]bool{}
		for _, q := range fo.Report.Queues {
			if q.Dir+"/" != dir {
				continue
			}
			for _, e := range q.Entries {
				if e.Where == InQueueStore && e.QSFile == name && e.State.Live() {
					live[e.QSOffset] = true
				}
			}
		}
		data, err := fo.Read(rel)
		if err != nil {
			return nil
		}
		start := int64(format.HeaderSize)
		format.ScanQueueStoreEntries(bytes.NewReader(data), int64(len(data)), func(end int64) {
			if !live[uint64(start)] {
				out = append(out, start)
			}
			start = end
		})
	}
	return out
}
