package trace

import "strconv"

// SummaryRun is the shortest run of like events that Summary folds.
const SummaryRun = 3

// Summary sorts the events like Lines, then folds each run of at least
// SummaryRun deliveries (to one consumer), get-oks or confirms of one kind
// on the same channel into one line, so that a scenario moving thousands
// of messages reads in a few lines:
//
//	c2.1 deliver consumer=c tags=1-3000 (3000 messages)
//	c1.1 confirm-ack seq=1-3000 (3000 confirms)
func Summary(events []Event) []string {
	Sort(events)
	var out []string
	for i := 0; i < len(events); {
		j := i + 1
		for j < len(events) && foldable(&events[i], &events[j]) {
			j++
		}
		if j-i < SummaryRun || !summarised(events[i].Kind) {
			for k := i; k < j; k++ {
				out = append(out, events[k].String())
			}
		} else {
			out = append(out, fold(events[i:j]))
		}
		i = j
	}
	return out
}

func summarised(k Kind) bool {
	return k == Deliver || k == GetOK || k == ConfirmAck || k == ConfirmNack
}

func foldable(a, b *Event) bool {
	return summarised(a.Kind) && a.Kind == b.Kind && a.Conn == b.Conn && a.Chan == b.Chan && a.ConsumerTag == b.ConsumerTag
}

func fold(run []Event) string {
	first, last := &run[0], &run[len(run)-1]
	n := strconv.Itoa(len(run))
	switch first.Kind {
	case Deliver:
		return first.Name() + " deliver consumer=" + first.ConsumerTag + " tags=" + utoa(first.DeliveryTag) + "-" + utoa(last.DeliveryTag) + " (" + n + " messages)"
	case GetOK:
		return first.Name() + " get-ok tags=" + utoa(first.DeliveryTag) + "-" + utoa(last.DeliveryTag) + " (" + n + " messages)"
	case ConfirmAck:
		return first.Name() + " confirm-ack seq=" + utoa(first.Seq) + "-" + utoa(last.Seq) + " (" + n + " confirms)"
	default:
		return first.Name() + " confirm-nack seq=" + utoa(first.Seq) + "-" + utoa(last.Seq) + " (" + n + " confirms)"
	}
}
