package store

import (
	"bytes"
	"fmt"
	"path"

	"warren/engine/store/format"
	"warren/engine/vfs"
)

// What a power loss may take from a v2 queue, computed exactly: a v2
// index (rabbit_classic_queue_index_v2) never fsyncs before confirming,
// only when the queue stops, so a confirmed message can be lost; but a
// message whose index entry and body were both synced must come back, and
// one whose ack (its zeroed slot, or its deleted segment) was synced must
// not. "Synced" is read from the crashFS mirror, which saw every sync the
// store asked for on an honest disk, never from the disk under test.

// promisedImage is the disk as the store's syncs left it: the mirror
// after a power loss.
func promisedImage(d *driver) *vfs.MemFS {
	img := d.cfs.mirror.Clone()
	img.PowerLoss()
	return img
}

// v2Slot returns the live entry of seq in queue qn's index on fsys.
func v2Slot(fsys vfs.FS, d *driver, qn string, seq uint64) (format.IndexEntry, bool) {
	x := d.qs[qn].x2
	data, err := vfs.ReadFile(fsys, x.segFile(seq/x.n))
	off := x.slotOffset(seq)
	if err != nil || int64(len(data)) < off+format.EntrySize ||
		!bytes.Equal(data[:format.HeaderSize], segHeader(format.MagicIndex, seq/x.n, x.n)) {
		return format.IndexEntry{}, false
	}
	e, ok := parseSlot(data[off : off+format.EntrySize])
	return e, ok && e.Status == 1
}

// v2BodySynced says whether the body e points to is on fsys, whole.
func v2BodySynced(fsys vfs.FS, rdq map[format.MsgID][]byte, d *driver, k msgKey, e format.IndexEntry) bool {
	term := d.m.term[k]
	switch e.Location.Kind {
	case format.LocQueueStore:
		s := d.qs[k.queue].qs
		seg := d.seq[k] / s.n
		data, err := vfs.ReadFile(fsys, s.segFile(seg))
		want := format.AppendQSEntry(nil, term, s.checkCRC)
		start := int64(e.Location.Offset)
		return err == nil && int64(len(data)) >= start+int64(len(want)) && len(data) >= format.HeaderSize &&
			bytes.Equal(data[:format.HeaderSize], segHeader(format.MagicQueueStore, seg, s.n)) &&
			bytes.Equal(data[start:start+int64(len(want))], want)
	case format.LocMsgStore:
		return e.Location.MsgID == k.id && bytes.Equal(rdq[k.id], term)
	}
	return false
}

// v2Synced says whether message k of a v2 queue had its index entry and
// its body synced: then no power loss may take it.
func v2Synced(img vfs.FS, rdq map[format.MsgID][]byte, d *driver, k msgKey) bool {
	e, ok := v2Slot(img, d, k.queue, d.seq[k])
	return ok && v2BodySynced(img, rdq, d, k, e)
}

// checkPowerLossV2 judges every persistent message of a v2 queue after a
// power loss, given what came back.
func checkPowerLossV2(d *driver, img vfs.FS, back map[msgKey]bool, stats map[string]int, bad func(string, ...any)) {
	rdq := rdqEntriesIn(img, d)
	for _, k := range sortedMsgKeys(d.m.persistent) {
		if d.version(k.queue) != 2 {
			continue
		}
		_, live := v2Slot(img, d, k.queue, d.seq[k])
		switch {
		case d.m.ackTried[k] && back[k] && !live:
			bad("message %s of v2 queue %s back after a power loss, though its ack was synced", k.id, k.queue)
		case d.m.ackTried[k] && back[k]:
			stats["v2-back"]++
		case d.m.ackTried[k] || back[k]:
		case v2Synced(img, rdq, d, k):
			bad("message %s of v2 queue %s lost after a power loss, though its index entry and body were synced", k.id, k.queue)
		case d.m.confirmed[k]:
			stats["v2-lost"]++
		}
	}
}

// checkShutdownSynced holds the store to what a clean shutdown promises:
// the v2 index's terminate fsyncs every segment with live entries, so each
// live persistent message's entry is durable. A store that skipped those
// fsyncs would pass every power-loss rule above (nothing synced, nothing
// promised) and fail here.
func (d *driver) checkShutdownSynced() {
	img := promisedImage(d)
	for _, qn := range d.queueNames() {
		if d.version(qn) != 2 || !d.durableQueue(qn) {
			continue
		}
		for _, seq := range sortedKeys(d.live[qn]) {
			k := msgKey{qn, d.live[qn][seq]}
			if !d.m.persistent[k] {
				continue
			}
			if _, ok := v2Slot(img, d, qn, seq); !ok {
				d.promised = append(d.promised, fmt.Sprintf("step %d: after a clean shutdown the index entry of live message %s of v2 queue %s is not durable", d.step, k.id, qn))
			}
		}
	}
}

// rdqEntriesIn returns the terms of every valid entry of the persistent
// store's files on fsys, by id.
func rdqEntriesIn(fsys vfs.FS, d *driver) map[format.MsgID][]byte {
	out := map[format.MsgID][]byte{}
	dir := path.Join(VHostDir(".", d.sc.p.VHost), persistentStoreDir)
	names, _ := fsys.List(dir)
	for _, n := range names {
		if path.Ext(n) != format.ExtMsgStore {
			continue
		}
		data, err := vfs.ReadFile(fsys, path.Join(dir, n))
		if err != nil {
			continue
		}
		msgs, _ := scanMsgFile(data, true)
		for _, m := range msgs {
			out[m.id] = data[m.offset+24 : m.offset+m.total-1]
		}
	}
	return out
}
