package node

import (
	"encoding/binary"
	"path"
	"strings"
)

// FileView is one file on the node's disk as the widget draws it: its
// size, how much of it a power loss would keep, and its entries.
type FileView struct {
	Path    string `json:"path"` // relative to the vhost directory
	Kind    string `json:"kind"` // qi, qs, rdq, idx, jif, other
	Size    int64  `json:"size"`
	Synced  int64  `json:"synced"`
	Entries int    `json:"entries"` // slots or records written
	Live    int    `json:"live"`    // of Entries, not acked (qi) or with the write-OK mark (rdq)
}

// FileViews describes every file under the vhost directory, with a light
// count of entries read straight from the bytes (no message is decoded).
func (n *Node) FileViews() []FileView {
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
				v.Entries, v.Live = countEntries(v.Kind, data)
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

// countEntries walks a file's entries by their fixed layouts.
func countEntries(kind string, data []byte) (entries, live int) {
	const header = 64
	switch kind {
	case "qi": // 32-byte slots after the header; status 1 = present
		for off := header; off+32 <= len(data); off += 32 {
			entries++
			if data[off] == 1 {
				live++
			}
		}
	case "qs": // u32 size, flags, crc16, pad, then the payload
		for off := header; off+8 <= len(data); {
			size := int(binary.BigEndian.Uint32(data[off:]))
			if size == 0 || off+8+size > len(data) {
				break
			}
			entries++
			live++
			off += 8 + size
		}
	case "rdq": // u64 size, then size bytes, then 0xFF
		for off := 0; off+8 <= len(data); {
			size := int(binary.BigEndian.Uint64(data[off:]))
			if size == 0 || off+8+size+1 > len(data) {
				break
			}
			entries++
			if data[off+8+size] == 0xFF {
				live++
			}
			off += 8 + size + 1
		}
	}
	return entries, live
}
