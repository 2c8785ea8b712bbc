package store

import (
	"bytes"
	"fmt"
	"path"
	"strings"

	"warren/engine/store/format"
	"warren/engine/vfs"
)

// What the store promises by its fsyncs, checked as it makes them rather
// than by a crash: a missing fsync that no crash point of a scenario turns
// into a lost confirmed message (the next fsync of the same file makes up
// for it, or nothing was confirmed from it yet) still breaks a promise
// RabbitMQ keeps, and a later scenario, or a reader's, would lose data.
// Each check reads the crashFS mirror, never the disk under test.

// checkRolled holds a 3.10 message store, persistent or transient, to
// what a roll promises: the finished file is durable whole
// (file_handle_cache's close fsyncs what was written since the last
// fsync). In the persistent store the fsync before confirming has
// usually made it so already; in the transient store, whose clients want
// no confirms, the roll's fsync is the only one.
func (d *driver) checkRolled(st *MsgStore, from uint64) {
	if !d.sc.p.fsyncBeforeConfirm() || st.current == from {
		return
	}
	img := promisedImage(d)
	for n := from; n < st.current; n++ {
		name := st.fileName(n)
		want, err := vfs.ReadFile(d.cfs.mirror, name)
		if err != nil {
			continue // the GC removed it
		}
		if got, err := vfs.ReadFile(img, name); err != nil || !bytes.Equal(got, want) {
			d.promised = append(d.promised, fmt.Sprintf("step %d: %s was rolled, but %d of its %d bytes are durable", d.step, path.Base(name), durablePrefix(got, want), len(want)))
		}
	}
}

// durablePrefix is how many bytes of want got holds from the start.
func durablePrefix(got, want []byte) int {
	n := 0
	for n < len(got) && n < len(want) && got[n] == want[n] {
		n++
	}
	return n
}

// checkCompacted holds a 3.13 compaction to what its sync step promises
// before the index points at the moved messages (rabbit_msg_store
// compact_file): every message moved in the file is durable at its new
// place.
func (d *driver) checkCompacted(st *MsgStore, rep GCReport, moved []Move) {
	if !strings.HasPrefix(rep.Job, "compact") || rep.Step != "sync" || len(moved) == 0 {
		return
	}
	// NB: GCStep may run steps of several jobs in turn; moved are the
	// moves of this one (by its name)
	img := promisedImage(d)
	durable := map[Move]bool{}
	byFile := map[uint64][]workMsg{}
	for _, mv := range moved {
		msgs, ok := byFile[mv.ToFile]
		if !ok {
			data, _ := vfs.ReadFile(img, st.fileName(mv.ToFile))
			msgs, _ = scanMsgFile(data, true)
			byFile[mv.ToFile] = msgs
		}
		for _, m := range msgs {
			if m.id == mv.ID && m.offset == mv.ToOffset {
				durable[mv] = true
			}
		}
		if !durable[mv] {
			d.promised = append(d.promised, fmt.Sprintf("step %d: compaction of %s points the index at message %s at %d, which is not durable there",
				d.step, path.Base(rep.File), mv.ID, mv.ToOffset))
		}
	}
}

// v2Writing is, for each durable v2 queue, the .qs segment it was writing
// (-1: none): what terminate must fsync when the queue stops.
func (d *driver) v2Writing() map[string]int64 {
	out := map[string]int64{}
	for _, qn := range d.queueNames() {
		q := d.qs[qn]
		if d.version(qn) != 2 || !d.durableQueue(qn) || q.qs == nil {
			continue
		}
		out[qn] = -1
		if q.qs.writing {
			out[qn] = int64(q.qs.writeSeg)
		}
	}
	return out
}

// checkStoppedQS holds a v2 queue's store to what stopping promises
// (rabbit_classic_queue_store_v2:terminate): the segment it was writing
// is fsynced, so the body of each live persistent message there, which
// the durable index points at, is durable.
func (d *driver) checkStoppedQS(writing map[string]int64) {
	img := promisedImage(d)
	for _, qn := range d.queueNames() {
		seg, ok := writing[qn]
		if !ok || seg < 0 {
			continue
		}
		s := d.qs[qn].qs
		for _, seq := range sortedKeys(d.live[qn]) {
			k := msgKey{qn, d.live[qn][seq]}
			if !d.m.persistent[k] || int64(seq/s.n) != seg {
				continue
			}
			e, live := v2Slot(img, d, qn, seq)
			if live && e.Location.Kind == format.LocQueueStore && !v2BodySynced(img, nil, d, k, e) {
				d.promised = append(d.promised, fmt.Sprintf("step %d: after a clean shutdown the body of live message %s of v2 queue %s is not durable in %s",
					d.step, k.id, qn, path.Base(s.segFile(uint64(seg)))))
			}
		}
	}
}

// checkMerging holds a 3.10 merge to what it promises before it cuts the
// destination short (rabbit_msg_store:combine_files): the temporary copy
// of the destination's live messages past the cut is durable. A
// filesystem commits a truncate with its metadata, whenever its journal
// does, so the copy must be on the disk first; vfs.MemFS makes the
// truncate durable only with the destination's next fsync, after which
// no crash point finds the copy missing.
func (d *driver) checkMerging(rep GCReport) {
	if !strings.HasPrefix(rep.Job, "combine") || rep.Step != "truncate" || !strings.HasSuffix(rep.Detail, "cut after the contiguous prefix") {
		return
	}
	tmp := strings.TrimSuffix(rep.File, format.ExtMsgStore) + tmpExt
	want, err := vfs.ReadFile(d.cfs.mirror, tmp)
	if err != nil {
		return
	}
	if got, err := vfs.ReadFile(promisedImage(d), tmp); err != nil || !bytes.Equal(got, want) {
		d.promised = append(d.promised, fmt.Sprintf("step %d: a merge cut %s short while %d of the %d bytes of its copy %s were durable",
			d.step, path.Base(rep.File), durablePrefix(got, want), len(want), path.Base(tmp)))
	}
}

// checkMerged holds a 3.10 merge to what it promises once it is done,
// before the source's messages are read from the destination alone and
// the source is deleted: the destination is durable whole.
func (d *driver) checkMerged(st *MsgStore, rep GCReport) {
	if !strings.HasPrefix(rep.Job, "combine") || !rep.Done || len(rep.Files) == 0 {
		return
	}
	name := st.fileName(rep.Files[0])
	want, err := vfs.ReadFile(d.cfs.mirror, name)
	if err != nil {
		return
	}
	if got, err := vfs.ReadFile(promisedImage(d), name); err != nil || !bytes.Equal(got, want) {
		d.promised = append(d.promised, fmt.Sprintf("step %d: a merge into %s is done while %d of its %d bytes are durable",
			d.step, path.Base(name), durablePrefix(got, want), len(want)))
	}
}
