package node

// Models rabbit_policy: operator policies matched to queues by pattern,
// the highest priority winning, and how queue arguments and policy keys
// combine.

import (
	"warren/engine/amqp"
)

// Policy is one set_policy definition.
type Policy struct {
	Name       string
	Pattern    string
	ApplyTo    string // queues, exchanges or all
	Priority   int
	Definition amqp.Table
	re         *pattern
	seq        int
}

func (p *Policy) matchesQueue(name string) bool {
	return (p.ApplyTo == "queues" || p.ApplyTo == "all") && p.re.MatchString(name)
}

// policyFor returns the policy that applies to a queue: the matching one
// with the highest priority (ties: the one set last loses to the earlier,
// as rabbit_policy sorts by priority only and keeps list order).
func (c *Cluster) policyFor(queue string) *Policy {
	var best *Policy
	for _, p := range c.policies {
		if !p.matchesQueue(queue) {
			continue
		}
		if best == nil || p.Priority > best.Priority {
			best = p
		}
	}
	return best
}

// effective returns the value of a queue setting from its argument x-KEY
// and the policy's KEY, combined as RabbitMQ combines them for that key.
func effective(args amqp.Table, pol *Policy, key string) (amqp.Value, bool) {
	av, aok := args.Get("x-" + key)
	var pv amqp.Value
	pok := false
	if pol != nil {
		pv, pok = pol.Definition.Get(key)
	}
	switch {
	case aok && pok:
		switch key {
		case "message-ttl", "max-length", "max-length-bytes", "expires":
			// the smaller of argument and policy wins
			if av.Kind.IsInt() && pv.Kind.IsInt() && pv.Int < av.Int {
				return pv, true
			}
			return av, true
		default:
			// the queue's own argument wins
			return av, true
		}
	case aok:
		return av, true
	case pok:
		return pv, true
	}
	return amqp.Value{}, false
}
