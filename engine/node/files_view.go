package node

import (
	"encoding/binary"
	"io"
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
			if fh, err := n.Disk.Open(f.Path); err == nil {
				var live func(format.MsgID, int64) bool
				if v.Kind == "rdq" {
					live = n.rdqLiveness(rel)
				}
				v.Entries, v.Live, v.Marks = countEntries(v.Kind, fh, f.Size, f.Synced, live)
				fh.Close()
			}
		case "idx", "jif":
		default:
			v.Kind = "other"
		}
		out = append(out, v)
	}
	return out
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

// countEntries walks a file's entries by their fixed layouts, reading
// their headers only: a view of a large message store file costs a few
// bytes an entry, not a copy of the file. size is the file's size and
// synced how much of it a power loss keeps; live, when given, says whether
// a message store entry is still referenced.
func countEntries(kind string, f io.ReaderAt, size, synced int64, live func(format.MsgID, int64) bool) (entries, nlive int, marks string) {
	const header = 64
	var m []byte
	mark := func(end int64, ok bool) {
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
		if end > synced {
			c += 'a' - 'A'
		}
		m = append(m, c)
	}
	// at reads n bytes at off, or nothing past the end of the file
	var buf [24]byte
	at := func(off int64, n int) []byte {
		if off+int64(n) > size {
			return nil
		}
		if k, _ := f.ReadAt(buf[:n], off); k < n {
			return nil
		}
		return buf[:n]
	}
	switch kind {
	case "qi": // 32-byte slots after the header; status 1 = present
		slots := make([]byte, max(size-header, 0))
		if k, _ := f.ReadAt(slots, header); k < len(slots) {
			slots = slots[:k]
		}
		for off := 0; off+32 <= len(slots); off += 32 {
			mark(int64(header+off+32), slots[off] == 1) // acked slots are zeroes
		}
	case "qs": // u32 size, flags, crc16, pad, then the payload
		for off := int64(header); ; {
			h := at(off, 8)
			if h == nil {
				break
			}
			n := int64(binary.BigEndian.Uint32(h))
			if n == 0 || off+8+n > size {
				break
			}
			mark(off+8+n, true)
			off += 8 + n
		}
	case "rdq": // u64 size, then the 16-byte id and the term, then 0xFF
		for off := int64(0); ; {
			h := at(off, 8)
			if h == nil {
				break
			}
			n := binary.BigEndian.Uint64(h)
			if n == 0 || n > uint64(size) || off+8+int64(n)+1 > size {
				break
			}
			end := off + 8 + int64(n) + 1
			t := at(end-1, 1)
			ok := t != nil && t[0] == 0xFF
			if ok && live != nil && n >= 16 {
				var id format.MsgID
				if h := at(off+8, 16); h != nil {
					copy(id[:], h)
					ok = live(id, off)
				}
			}
			mark(end, ok)
			off = end
		}
	}
	return entries, nlive, string(m)
}
