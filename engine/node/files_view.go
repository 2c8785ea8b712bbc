package node

import (
	"encoding/binary"
	"path"
	"strconv"
	"strings"

	"warren/engine/store"
	"warren/engine/store/format"
)

// MaxMarks bounds the entries a FileView lists one by one.
const MaxMarks = 512

// FileView is one file on the node's disk as the widget draws it: its
// size, how much of it a power loss would keep, and its entries.
type FileView struct {
	Path    string `json:"path"` // relative to the vhost directory
	Kind    string `json:"kind"` // qi, qs, rdq, idx, jif, other
	Size    int64  `json:"size"`
	Synced  int64  `json:"synced"`
	Entries int    `json:"entries"` // slots or records written
	Live    int    `json:"live"`    // of Entries, not acked (qi) or still referenced (rdq)
	// Marks has one byte per entry, in file order, for the first MaxMarks
	// entries: 'L' live, 'D' dead (an acked slot, a message no queue
	// references); in lower case when the entry is not synced yet (a
	// power loss would lose it).
	Marks string `json:"marks"`
}

// FileViews describes every file under the vhost directory, with a light
// count of entries read straight from the bytes (no message is decoded).
func (n *Node) FileViews() []FileView {
	var out []FileView
	for i, m := range n.members {
		views := m.fileViews()
		if i > 0 {
			for k := range views {
				views[k].Path = m.Name + ":" + views[k].Path
			}
		}
		out = append(out, views...)
	}
	return out
}

func (n *Node) fileViews() []FileView {
	var out []FileView
	prefix := DataDir + "/msg_stores/vhosts/"
	for _, f := range n.Files() {
		rel := strings.TrimPrefix(f.Path, prefix)
		if i := strings.IndexByte(rel, '/'); i >= 0 {
			rel = rel[i+1:]
		}
		v := FileView{Path: rel, Size: f.Size, Synced: f.Synced, Kind: strings.TrimPrefix(path.Ext(rel), ".")}
		switch v.Kind {
		case "qi", "qs", "rdq":
			data, err := readAll(n, f.Path, f.Size)
			if err == nil {
				var live func(format.MsgID, int64) bool
				if v.Kind == "rdq" {
					live = n.rdqLiveness(rel)
				}
				v.Entries, v.Live, v.Marks = countEntries(v.Kind, data, f.Synced, live)
			}
		case "idx", "jif":
		default:
			v.Kind = "other"
		}
		out = append(out, v)
	}
	return out
}

func readAll(n *Node, p string, size int64) ([]byte, error) {
	f, err := n.Disk.Open(p)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	buf := make([]byte, size)
	_, err = f.ReadAt(buf, 0)
	if err != nil && int64(len(buf)) != size {
		return nil, err
	}
	return buf, nil
}

// rdqLiveness returns, for a message store file (msg_store_persistent/3.rdq),
// whether the entry for an id at an offset is live; nil when the file is
// not one of the stores' numbered files.
func (n *Node) rdqLiveness(rel string) func(id format.MsgID, off int64) bool {
	dir, file := path.Split(rel)
	num, err := strconv.ParseUint(strings.TrimSuffix(file, ".rdq"), 10, 64)
	if err != nil || n.vhost == nil {
		return nil
	}
	var st *store.MsgStore
	switch strings.TrimSuffix(dir, "/") {
	case "msg_store_persistent":
		st = n.vhost.Store(true)
	case "msg_store_transient":
		st = n.vhost.Store(false)
	}
	if st == nil {
		return nil
	}
	return func(id format.MsgID, off int64) bool { return st.Live(id, num, off) }
}

// countEntries walks a file's entries by their fixed layouts. synced is how
// much of the file a power loss keeps; live, when given, says whether a
// message store entry is still referenced.
func countEntries(kind string, data []byte, synced int64, live func(format.MsgID, int64) bool) (entries, nlive int, marks string) {
	const header = 64
	var m []byte
	mark := func(end int, ok bool) {
		entries++
		if ok {
			nlive++
		}
		if len(m) >= MaxMarks {
			return
		}
		c := byte('D')
		if ok {
			c = 'L'
		}
		if int64(end) > synced {
			c += 'a' - 'A'
		}
		m = append(m, c)
	}
	switch kind {
	case "qi": // 32-byte slots after the header; status 1 = present
		for off := header; off+32 <= len(data); off += 32 {
			mark(off+32, data[off] == 1) // acked slots are zeroes
		}
	case "qs": // u32 size, flags, crc16, pad, then the payload
		for off := header; off+8 <= len(data); {
			size := int(binary.BigEndian.Uint32(data[off:]))
			if size == 0 || off+8+size > len(data) {
				break
			}
			mark(off+8+size, true)
			off += 8 + size
		}
	case "rdq": // u64 size, then the 16-byte id and the term, then 0xFF
		for off := 0; off+8 <= len(data); {
			size := int(binary.BigEndian.Uint64(data[off:]))
			if size == 0 || off+8+size+1 > len(data) {
				break
			}
			ok := data[off+8+size] == 0xFF
			if ok && live != nil && size >= 16 {
				var id format.MsgID
				copy(id[:], data[off+8:off+24])
				ok = live(id, int64(off))
			}
			mark(off+8+size+1, ok)
			off += 8 + size + 1
		}
	}
	return entries, nlive, string(m)
}
