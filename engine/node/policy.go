package node

// Models rabbit_policy: operator policies matched to queues and exchanges
// by pattern, the highest priority winning, and how queue arguments and
// policy keys combine.

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

// matches reports whether the policy applies to a queue (or to an
// exchange) of that name: its apply-to takes that kind, and its pattern
// matches the name (matches_type, then the pattern).
func (p *Policy) matches(name string, exchange bool) bool {
	kind := "queues"
	if exchange {
		kind = "exchanges"
	}
	return (p.ApplyTo == kind || p.ApplyTo == "all") && p.re.MatchString(name)
}

// policyFor returns the policy that applies to a queue: the matching one
// with the highest priority (ties: the one set last loses to the earlier,
// as rabbit_policy sorts by priority only and keeps list order).
func (c *Cluster) policyFor(queue string) *Policy { return c.bestPolicy(queue, false) }

// exchangePolicyFor returns the policy that applies to an exchange, chosen
// the same way among the policies that apply to exchanges: a queues-only
// policy never hides an exchange policy of the same pattern, whatever its
// priority, and an `all` policy competes with both.
func (c *Cluster) exchangePolicyFor(exchange string) *Policy { return c.bestPolicy(exchange, true) }

func (c *Cluster) bestPolicy(name string, exchange bool) *Policy {
	var best *Policy
	for _, p := range c.policies {
		if !p.matches(name, exchange) {
			continue
		}
		if best == nil || p.Priority > best.Priority {
			best = p
		}
	}
	return best
}

// alternateOf is the name of an exchange's alternate exchange, as
// rabbit_policy:get_arg finds it: the exchange's own alternate-exchange
// argument if it has one, else its policy's alternate-exchange key. The
// policy is the one in force at the publish, so that set_policy and
// clear_policy take effect at once.
func (c *Cluster) alternateOf(x *Exchange) (string, bool) {
	if x.Name == "" {
		return "", false // the default exchange routes by queue name alone
	}
	if v, ok := x.Args.Get("alternate-exchange"); ok {
		return v.Str, v.Kind == amqp.LongStr
	}
	if len(c.policies) == 0 {
		return "", false
	}
	if p := c.exchangePolicyFor(x.Name); p != nil {
		if v, ok := p.Definition.Get("alternate-exchange"); ok && v.Kind == amqp.LongStr {
			return v.Str, true
		}
	}
	return "", false
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
