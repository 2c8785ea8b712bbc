package node

// Models rabbit_writer: serialises a channel's outgoing methods to the
// socket and tells each queue, every 50 deliveries, that they were sent
// (rabbit_amqqueue_common:notify_sent), which lets the queue keep at most
// 200 unsent deliveries in flight per channel.

import "warren/engine/beam"

// moreConsumerCreditAfter is MORE_CONSUMER_CREDIT_AFTER.
const moreConsumerCreditAfter = 50

type writer struct {
	n       *Node
	conn    int
	num     int
	channel beam.PID
	sent    []peerCount // deliveries left before the next notify_sent, per queue
}

func (w *writer) Handle(ctx *beam.Ctx, m beam.Msg) {
	switch m.Kind {
	case kWrite:
		c := &w.n.Config.Costs
		ctx.Charge(c.WriterSend)
		if d, ok := m.P.(*consumerDelivery); ok {
			ctx.Charge(int64(len(d.Msg.Body)>>10) * c.PerKB)
			w.notifySent(ctx, d.queue)
			w.n.cluster.client.Frame(w.conn, w.num, &d.Deliver, ctx.End())
			w.n.cluster.freeDelivery(d)
			return
		}
		w.n.cluster.client.Frame(w.conn, w.num, m.P, ctx.End())
	case kShutdown:
		ctx.Exit()
	}
}

func (w *writer) notifySent(ctx *beam.Ctx, q beam.PID) {
	i := find(w.sent, q)
	if i < 0 {
		w.sent = append(w.sent, peerCount{q, moreConsumerCreditAfter})
		i = len(w.sent) - 1
	}
	w.sent[i].n--
	if w.sent[i].n == 0 {
		w.sent[i].n = moreConsumerCreditAfter
		ctx.Send(q, beam.Msg{Kind: kNotifySent, N: moreConsumerCreditAfter, P: w.channel})
	}
}
