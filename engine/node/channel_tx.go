package node

// Transactions in rabbit_channel: after tx.select, publishes are routed
// when they arrive but reach their queues only at tx.commit, and acks,
// nacks and rejects leave the unacked list at once but reach the queues
// only at tx.commit; tx.rollback drops the publishes and puts the held
// deliveries back among the unacked.

import (
	"sort"

	"warren/engine/amqp"
	"warren/engine/beam"
)

// txState is the channel's transaction: {Msgs, Acks}.
type txState struct {
	publishes []txPublish
	acks      []txAck // in the order they came
	// committing: tx.commit delivered everything and waits for the
	// queues' confirms; failed: a queue rejected a publish meanwhile
	committing, failed bool
}

type txPublish struct {
	m     *BasicPublish
	dests []*QueueRecord
}

// txAck is a run of settlements of one kind (ack, requeue, reject).
type txAck struct {
	kind uint16
	list []unacked
}

// hold keeps settlements until the commit; consecutive ones of the same
// kind join one run, as ack_cons does.
func (t *txState) hold(list []unacked, kind uint16) {
	if n := len(t.acks); n > 0 && t.acks[n-1].kind == kind {
		t.acks[n-1].list = append(t.acks[n-1].list, list...)
		return
	}
	t.acks = append(t.acks, txAck{kind: kind, list: append([]unacked(nil), list...)})
}

// ackCount is list_channels' acks_uncommitted: like ack_len, it counts
// the deliveries held by acks only, not those held by nacks or rejects.
func (t *txState) ackCount() int {
	n := 0
	for _, a := range t.acks {
		if a.kind == kAck {
			n += len(a.list)
		}
	}
	return n
}

// settleTx takes the queues' confirms of a transaction's publishes
// (record_rejects marks it failed) and, once a commit has none left to
// wait for, completes it (maybe_complete_tx, complete_tx).
func (ch *channel) settleTx(ctx *beam.Ctx) {
	t := ch.tx
	for _, c := range ch.confirmOut {
		t.failed = t.failed || c.Nack
	}
	ch.confirmOut = ch.confirmOut[:0]
	if !t.committing || len(ch.unconfirmed) > 0 {
		return
	}
	ch.tx = &txState{}
	if t.failed {
		ch.fail(ctx, amqp.Errorf(amqp.PreconditionFailed, "partial tx completion"))
		return
	}
	ch.send(ctx, Ok{Method: "tx.commit-ok"})
}

func (ch *channel) txMethod(ctx *beam.Ctx, m any) *amqp.Error {
	switch m.(type) {
	case TxSelect:
		if ch.confirm {
			return amqp.Errorf(amqp.PreconditionFailed, "cannot switch from confirm to tx mode")
		}
		if ch.tx == nil {
			ch.tx = &txState{}
		}
		ch.send(ctx, Ok{Method: "tx.select-ok"})
	case TxCommit:
		if ch.tx == nil {
			return amqp.Errorf(amqp.PreconditionFailed, "channel is not transactional")
		}
		t := ch.tx
		ch.tx = &txState{failed: t.failed}
		for _, p := range t.publishes {
			ch.deliverPublish(ctx, p.m, p.dests)
		}
		for _, a := range t.acks {
			ch.settle(ctx, a.list, a.kind)
		}
		ch.tx.committing = true
		ch.settleTx(ctx)
	case TxRollback:
		if ch.tx == nil {
			return amqp.Errorf(amqp.PreconditionFailed, "channel is not transactional")
		}
		all := append([]unacked(nil), ch.unacked.items()...)
		for _, a := range ch.tx.acks {
			all = append(all, a.list...)
		}
		sort.Slice(all, func(i, j int) bool { return all[i].tag < all[j].tag })
		ch.unacked = fifo[unacked]{}
		for _, u := range all {
			ch.unacked.push(u)
		}
		ch.tx = &txState{}
		ch.send(ctx, Ok{Method: "tx.rollback-ok"})
	}
	return nil
}
