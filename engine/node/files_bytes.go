package node

import (
	"path"
	"strconv"
	"strings"

	"warren/engine/say"
	"warren/engine/store/format"
)

// FileBytes is one file of the node's disk as the Files view reads it
// field by field (engine/store/format.Annotate annotates the bytes): its
// bytes, and which of its entries the node says are dead
// although their bytes are whole: a message store entry no queue
// references, a .qs entry no index slot points at.
type FileBytes struct {
	Path   string // as FileView names it
	Kind   string // qi, qs, rdq, idx, jif, other
	Size   int64
	Synced int64 // bytes a power loss keeps
	// PerSegment is the v1 index segment size (.config), which turns an
	// .idx record's relative seq into a seq id.
	PerSegment int
	// Dead lists the offsets of the entries the node says are dead.
	Dead []int64
	// Data is the file's first MaxFileBytes bytes.
	Data []byte
}

// MaxFileBytes bounds the bytes FileBytes reads of a file.
const MaxFileBytes = 2 << 20

// FileBytes reads the file that FileViews names path (relative to the
// vhost directory; "name:path" on a cluster's later nodes).
func (n *Node) FileBytes(p string) (FileBytes, error) {
	m, rel := n, p
	for i, mm := range n.cluster.members {
		if i > 0 && strings.HasPrefix(p, mm.Name+":") {
			m, rel = mm, strings.TrimPrefix(p, mm.Name+":")
		}
	}
	for _, f := range m.Files() {
		if m.relPath(f.Path) != rel {
			continue
		}
		fb := FileBytes{Path: p, Kind: strings.TrimPrefix(path.Ext(rel), "."), Size: f.Size, Synced: f.Synced}
		switch fb.Kind {
		case "qi", "qs", "rdq", "idx", "jif":
		default:
			fb.Kind = "other"
		}
		if m.vhost != nil {
			fb.PerSegment = m.vhost.V1SegmentEntryCount()
		}
		fh, err := m.Disk.Open(f.Path)
		if err != nil {
			return FileBytes{}, say.Wrap("con.named", err, p)
		}
		defer fh.Close()
		fb.Data = make([]byte, min(f.Size, MaxFileBytes))
		if k, _ := fh.ReadAt(fb.Data, 0); k < len(fb.Data) {
			return FileBytes{}, say.E("con.bytesRead", p, strconv.Itoa(k), strconv.Itoa(len(fb.Data)))
		}
		switch fb.Kind {
		case "rdq":
			if live := m.rdqLiveness(rel); live != nil {
				format.ScanMsgFileEntries(fh, f.Size, func(off, end int64, id format.MsgID, ok bool) {
					if ok && end-off-format.MsgFileEntryOverhead >= 16 && !live(id, off) {
						fb.Dead = append(fb.Dead, off)
					}
				})
			}
		case "qs":
			if live := m.qsLiveness(f.Path); live != nil {
				start := int64(format.HeaderSize)
				format.ScanQueueStoreEntries(fh, f.Size, func(end int64) {
					if !live(format.MsgID{}, start) {
						fb.Dead = append(fb.Dead, start)
					}
					start = end
				})
			}
		}
		return fb, nil
	}
	return FileBytes{}, say.E("con.noFile", p)
}

// relPath is a file's path relative to its vhost directory, as FileView
// names it.
func (n *Node) relPath(full string) string {
	rel := strings.TrimPrefix(full, DataDir+"/msg_stores/vhosts/")
	if i := strings.IndexByte(rel, '/'); i >= 0 {
		rel = rel[i+1:]
	}
	return rel
}
