package node

import (
	"encoding/binary"
	"io"
	"path"
	"strconv"
	"strings"

	"warren/engine/say"
	"warren/engine/store"
	"warren/engine/store/format"
	"warren/engine/vfs"
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
	// references), 'A' live in the file but acked by the queue, which has
	// not written the ack yet (a v2 index's .qi slot and the .qs entry it
	// points at, until the index flushes its acks); in lower case when the
	// entry is not synced yet (a power loss would lose it).
	Marks string `json:"marks"`
	// GC is, for a message store file a GC job works on now, the job's
	// latest step ("combine 1 into 0: copy msg_store_persistent/0.rdt
	// (...)"); empty otherwise.
	GC string `json:"gc,omitempty"`
	// GCSaid is GC as data (con.gc.step, con.gc.stepBare).
	GCSaid say.Text `json:"-"`
}

// FileViews describes every file under the vhost directory, with a light
// count of entries read straight from the bytes (no message is decoded).
func (n *Node) FileViews() []FileView {
	var out []FileView
	for i, m := range n.cluster.members {
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
	var work map[string]say.Text
	for _, f := range n.Files() {
		rel := n.relPath(f.Path)
		v := FileView{Path: rel, Size: f.Size, Synced: f.Synced, Kind: strings.TrimPrefix(path.Ext(rel), ".")}
		switch v.Kind {
		case "qi", "qs", "rdq":
			if fh, err := n.Disk.Open(f.Path); err == nil {
				var live func(format.MsgID, int64) bool
				var acked func(slot int, off int64) bool
				switch v.Kind {
				case "rdq":
					live = n.rdqLiveness(rel)
					if work == nil {
						work = n.gcWork()
					}
					if step, ok := work[rel]; ok {
						v.GC, v.GCSaid = step.String(), step
					}
				case "qs":
					live = n.qsLiveness(f.Path)
					acked = n.ackedUnwritten(f.Path)
				case "qi":
					acked = n.ackedUnwritten(f.Path)
				}
				v.Entries, v.Live, v.Marks = countEntries(v.Kind, fh, f.Size, f.Synced, live, acked)
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

// qsLiveness returns, for a queue's .qs file (full path), whether the
// entry at an offset is live: pointed at by a present slot of the .qi of
// the same segment as it is on disk, or by a message the queue has not
// acked whose slot is not written yet. An ack makes the entry dead when
// the flush zeroes its slot, as it does the slot. The id is not used.
func (n *Node) qsLiveness(full string) func(id format.MsgID, off int64) bool {
	dir, file := path.Split(full)
	seg, err := strconv.ParseUint(strings.TrimSuffix(file, format.ExtQueueStore), 10, 64)
	if err != nil || n.vhost == nil {
		return nil
	}
	live := n.vhost.QueueStoreLive(path.Base(dir), seg)
	if qi, err := vfs.ReadFile(n.Disk, strings.TrimSuffix(full, format.ExtQueueStore)+format.ExtIndexV2); err == nil {
		for off := format.HeaderSize; off+format.EntrySize <= len(qi); off += format.EntrySize {
			if b := qi[off : off+format.EntrySize]; b[0] == 1 && format.LocationKind(b[3]) == format.LocQueueStore {
				live[binary.BigEndian.Uint64(b[4:])] = true
			}
		}
	}
	return func(_ format.MsgID, off int64) bool { return live[uint64(off)] }
}

// ackedUnwritten returns, for a v2 queue's .qi or .qs file (full path),
// whether an entry is acked by the queue but not yet written: a .qi slot
// by its number, a .qs entry by its offset, which the slot on disk points
// at. Nil when nothing is waiting.
func (n *Node) ackedUnwritten(full string) func(slot int, off int64) bool {
	dir, file := path.Split(full)
	ext := path.Ext(file)
	seg, err := strconv.ParseUint(strings.TrimSuffix(file, ext), 10, 64)
	if err != nil || n.vhost == nil {
		return nil
	}
	slots := n.vhost.AckedUnwritten(path.Base(dir), seg)
	if len(slots) == 0 {
		return nil
	}
	if ext == format.ExtIndexV2 {
		return func(slot int, _ int64) bool { return slots[slot] }
	}
	offs := map[uint64]bool{}
	if qi, err := vfs.ReadFile(n.Disk, strings.TrimSuffix(full, ext)+format.ExtIndexV2); err == nil {
		for slot := range slots {
			off := format.HeaderSize + slot*format.EntrySize
			if off+format.EntrySize <= len(qi) {
				if b := qi[off : off+format.EntrySize]; b[0] == 1 && format.LocationKind(b[3]) == format.LocQueueStore {
					offs[binary.BigEndian.Uint64(b[4:])] = true
				}
			}
		}
	}
	return func(_ int, off int64) bool { return offs[uint64(off)] }
}

// countEntries walks a file's entries with engine/store/format's scans,
// which read their headers only: a view of a large message store file costs a few
// bytes an entry, not a copy of the file. size is the file's size and
// synced how much of it a power loss keeps; live, when given, says whether
// a message store entry is still referenced, and acked whether a live
// entry (a .qi slot by its number, a .qs entry by its offset) is acked
// but not yet written.
func countEntries(kind string, f io.ReaderAt, size, synced int64, live func(format.MsgID, int64) bool, acked func(int, int64) bool) (entries, nlive int, marks string) {
	var m []byte
	var start int64 // where the entry being marked starts (.qs)
	mark := func(end int64, ok bool) {
		slot := entries
		entries++
		if ok {
			nlive++
		}
		if len(m) >= MaxMarks {
			return
		}
		c := byte('D')
		switch {
		case ok && acked != nil && acked(slot, start):
			c = 'A'
		case ok:
			c = 'L'
		}
		if end > synced {
			c += 'a' - 'A'
		}
		m = append(m, c)
	}
	switch kind {
	case "qi":
		format.ScanIndexSlots(f, size, mark) // acked slots are zeroes
	case "qs":
		start = int64(format.HeaderSize)
		format.ScanQueueStoreEntries(f, size, func(end int64) {
			mark(end, live == nil || live(format.MsgID{}, start))
			start = end
		})
	case "rdq":
		format.ScanMsgFileEntries(f, size, func(off, end int64, id format.MsgID, ok bool) {
			if ok && live != nil && end-off-format.MsgFileEntryOverhead >= 16 {
				ok = live(id, off)
			}
			mark(end, ok)
		})
	}
	return entries, nlive, string(m)
}
