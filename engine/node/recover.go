package node

// Recovering a durable queue's messages from its files, after a restart of
// the node or a crash of the queue's process.

import (
	"sort"

	"warren/engine/store/format"
)

// levelSeq names a message on disk: its priority level and seq id there.
type levelSeq struct {
	level int
	seq   uint64
}

// knownMsg is what a crashed queue process had of a message on disk.
type knownMsg struct {
	msg *Message
	seq uint64 // its ack tag; 0 when it was acked already
}

// recoverQueue starts a durable queue again and refills it from its files.
// After a crash of the queue alone, known holds what the old process had
// of each message on disk: its message (so that the body need not be
// decoded again) and its seq id (ack tag), which it keeps; seqs go on from
// oldNext unless the index was empty.
func (n *Node) recoverQueue(rec *QueueRecord, delivered map[levelSeq]bool, clean bool, known map[levelSeq]knownMsg, oldNext uint64) {
	n.recovering = true
	n.startQueue(nil, rec)
	n.recovering = false
	q := rec.proc
	d := &queueDisk{confirmWait: map[format.MsgID][]pubRef{}}
	n.startStores()
	var all []entry
	indexed := false
	for lvl, name := range levelNames(rec) {
		files, r, err := n.vhost.RecoverQueue(name)
		if err != nil {
			n.storageFault(err)
			continue
		}
		n.storeClients[files.ClientRef()] = q.pid
		d.levels = append(d.levels, files)
		d.next = append(d.next, r.NextSeq)
		indexed = indexed || r.NextSeq > 0
		d.acks = append(d.acks, nil)
		for _, m := range r.Messages {
			k, ok := known[levelSeq{lvl, m.Seq}]
			if !ok {
				if k.msg, err = n.readStored(files, m); err != nil {
					n.storageFault(err)
					continue
				}
			}
			e := entry{msg: k.msg, stored: true, dseq: m.Seq, expiry: int64(m.Expiry), seq: k.seq}
			// redelivered: what was delivered before a clean stop, and
			// everything after a crash
			e.delivered = !clean || delivered[levelSeq{lvl, m.Seq}]
			all = append(all, e)
		}
	}
	q.disk = d
	// requeue in publish order across levels
	sort.SliceStable(all, func(i, j int) bool { return all[i].msg.ID < all[j].msg.ID })
	for _, e := range all {
		q.nextSeq = max(q.nextSeq, e.seq)
	}
	if indexed {
		// the index's bound is past every seq id the old process used
		q.nextSeq = max(q.nextSeq, oldNext)
	}
	for _, e := range all {
		if e.seq == 0 {
			// acked, but the ack had not reached the disk
			q.nextSeq++
			e.seq = q.nextSeq
		}
		q.ready.push(e)
	}
}
