package node

// Models rabbit_exchange, rabbit_exchange_type_{direct,fanout,topic,headers}
// and rabbit_exchange_type_consistent_hash.

import (
	"fmt"
	"strconv"
	"strings"

	"warren/engine/amqp"
	"warren/engine/chash"
)

// Exchange is an exchange and its bindings, in the order they were made.
type Exchange struct {
	Name       string
	Type       string
	Durable    bool
	AutoDelete bool
	// Internal: clients cannot publish to it, only bind it to another
	// exchange (amq.rabbitmq.trace is one).
	Internal bool
	Args     amqp.Table
	Bindings []*Binding
}

// Binding routes from an exchange to a queue, or to another exchange
// (exchange.bind) when Exchange is set.
type Binding struct {
	Queue    string
	Exchange string // the destination exchange; "" for a queue
	Key      string
	// Args are sorted by key, as rabbit_binding sorts them
	// (binding_action) before it stores or looks up a binding.
	Args amqp.Table
}

var exchangeTypes = map[string]bool{"direct": true, "fanout": true, "topic": true, "headers": true, "x-consistent-hash": true}

// validateBinding checks a new binding against the exchange type's rules.
func (x *Exchange) validateBinding(b *Binding) *amqp.Error {
	switch x.Type {
	case "x-consistent-hash":
		w, err := strconv.ParseInt(b.Key, 10, 64)
		if err != nil {
			return amqp.Errorf(amqp.PreconditionFailed, fmt.Sprintf("The binding key must be an integer: <<%q>>", b.Key))
		}
		if w <= 0 {
			return amqp.Errorf(amqp.PreconditionFailed, "The binding key must be greater than 0")
		}
	case "headers":
		if v, ok := b.Args.Get("x-match"); ok {
			if v.Kind != amqp.LongStr {
				return amqp.Errorf(amqp.PreconditionFailed, fmt.Sprintf("Invalid x-match field type %s (value %s); expected longstr", v.Kind, v.Term()))
			}
			switch v.Str {
			case "all", "any", "all-with-x", "any-with-x":
			default:
				return amqp.Errorf(amqp.PreconditionFailed, fmt.Sprintf("Invalid x-match field value <<%q>>; expected all, any, all-with-x, or any-with-x", v.Str))
			}
		}
	}
	return nil
}

// hasBinding reports whether an identical binding exists.
func (x *Exchange) hasBinding(b *Binding) bool {
	for _, e := range x.Bindings {
		if e.Queue == b.Queue && e.Exchange == b.Exchange && e.Key == b.Key && e.Args.Equal(b.Args) {
			return true
		}
	}
	return false
}

// removeBinding deletes a binding; it reports whether one was found.
func (x *Exchange) removeBinding(b *Binding) bool {
	for i, e := range x.Bindings {
		if e.Queue == b.Queue && e.Exchange == b.Exchange && e.Key == b.Key && e.Args.Equal(b.Args) {
			x.Bindings = append(x.Bindings[:i], x.Bindings[i+1:]...)
			return true
		}
	}
	return false
}

// maybeAutoDelete is called on the source of a binding that was removed
// (rabbit_exchange:maybe_auto_delete): an auto-delete exchange goes once
// it is the source of no binding. So one that never had a binding stays.
func (c *Cluster) maybeAutoDelete(x *Exchange) {
	if x.AutoDelete && len(x.Bindings) == 0 {
		c.deleteExchange(x.Name, false)
	}
}

// deleteExchange removes an exchange (internal_delete): the bindings it is
// the source of (when it is deleted by exchange.delete; one that goes by
// auto-delete has none), then those it is the destination of, which may
// take their auto-delete sources with them.
func (c *Cluster) deleteExchange(name string, forSource bool) {
	x, ok := c.exchanges[name]
	if !ok {
		return
	}
	delete(c.exchanges, name)
	if forSource {
		x.Bindings = nil
	}
	c.changed()
	c.removeForDestination(name, true)
}

// unbindQueue removes every binding to a queue that goes.
func (c *Cluster) unbindQueue(name string) {
	c.removeForDestination(name, false)
}

// removeForDestination removes every binding to a queue, or to an
// exchange (toExchange), and lets each source that lost one auto-delete
// (rabbit_binding:remove_for_destination). A source that went meanwhile,
// in a chain or a cycle, is passed over.
func (c *Cluster) removeForDestination(name string, toExchange bool) {
	for _, xn := range c.ExchangeNames() {
		x, ok := c.exchanges[xn]
		if !ok {
			continue
		}
		out := x.Bindings[:0]
		for _, b := range x.Bindings {
			if toExchange && b.Exchange != name || !toExchange && (b.Exchange != "" || b.Queue != name) {
				out = append(out, b)
			}
		}
		if len(out) == len(x.Bindings) {
			continue
		}
		x.Bindings = out
		c.changed()
		c.maybeAutoDelete(x)
	}
}

// route returns the names of the queues a message goes to, each once, in
// binding order, as rabbit_exchange:route walks them: an exchange bound to
// another (exchange.bind) passes the message on, each exchange visited
// once, and an exchange that routes nowhere passes it to its alternate
// exchange, if it has one. The default exchange routes to the queue named
// by the key.
func (c *Cluster) route(x *Exchange, key string, headers amqp.Table, dst []string) []string {
	work, seen := []*Exchange{x}, []string{x.Name}
	var xs []string
	for len(work) > 0 {
		x, work = work[0], work[1:]
		var hits int
		dst, xs, hits = c.routeOne(x, key, headers, dst, xs[:0])
		if hits == 0 {
			if ae, ok := c.alternateOf(x); ok {
				xs = append(xs, ae)
			}
		}
		for _, name := range xs {
			if next, ok := c.exchanges[name]; ok && !containsName(seen, name) {
				seen = append(seen, name)
				work = append(work, next)
			}
		}
	}
	return dst
}

func containsName(list []string, s string) bool {
	for _, e := range list {
		if e == s {
			return true
		}
	}
	return false
}

// routeOne routes through one exchange's bindings: it adds the queues
// matched to dst and the exchanges matched to xs, and counts the
// destinations matched.
func (c *Cluster) routeOne(x *Exchange, key string, headers amqp.Table, dst, xs []string) ([]string, []string, int) {
	if x.Name == "" {
		if _, ok := c.queues[key]; ok {
			return append(dst, key), xs, 1
		}
		return dst, xs, 0
	}
	hits := 0
	add := func(q string) {
		hits++
		for _, d := range dst {
			if d == q {
				return
			}
		}
		dst = append(dst, q)
	}
	hit := func(b *Binding) {
		if b.Exchange != "" {
			hits++
			xs = append(xs, b.Exchange)
			return
		}
		add(b.Queue)
	}
	switch x.Type {
	case "direct":
		for _, b := range x.Bindings {
			if b.Key == key {
				hit(b)
			}
		}
	case "fanout":
		for _, b := range x.Bindings {
			hit(b)
		}
	case "topic":
		for _, b := range x.Bindings {
			if topicMatch(b.Key, key) {
				hit(b)
			}
		}
	case "headers":
		for _, b := range x.Bindings {
			if headersMatch(b.Args, headers) {
				hit(b)
			}
		}
	case "x-consistent-hash":
		var weights []int
		var dests []string
		for _, b := range x.Bindings {
			if b.Exchange != "" {
				continue // warren hashes onto queues only
			}
			dup := false
			for _, d := range dests {
				if d == b.Queue {
					dup = true
				}
			}
			if dup {
				continue // a second binding to the same queue adds no buckets
			}
			w, _ := strconv.Atoi(b.Key)
			weights = append(weights, w)
			dests = append(dests, b.Queue)
		}
		if len(dests) == 0 {
			return dst, xs, hits
		}
		hashKey := []byte(key)
		if hv, ok := x.Args.Get("hash-header"); ok && hv.Kind == amqp.LongStr {
			v, present := headers.Get(hv.Str)
			if !present {
				i := chash.PickHash(chash.Phash2Undefined(), weights)
				if i >= 0 {
					add(dests[i])
				}
				return dst, xs, hits
			}
			hashKey = []byte(v.String())
		}
		if i := chash.Pick(hashKey, weights); i >= 0 {
			add(dests[i])
		}
	}
	return dst, xs, hits
}

// topicMatch matches a routing key against a binding pattern: words split
// on '.', '*' matches one word and '#' zero or more.
func topicMatch(pattern, key string) bool {
	return matchWords(topicWords(pattern), topicWords(key))
}

// topicWords splits a routing or binding key into its words as
// split_topic_key does: every dot ends a word, so "a." is "a" and an empty
// word, but the empty key has no words at all (it is not one empty word).
func topicWords(key string) []string {
	if key == "" {
		return nil
	}
	return strings.Split(key, ".")
}

func matchWords(p, k []string) bool {
	for len(p) > 0 {
		switch p[0] {
		case "#":
			if len(p) == 1 {
				return true
			}
			for i := 0; i <= len(k); i++ {
				if matchWords(p[1:], k[i:]) {
					return true
				}
			}
			return false
		case "*":
			if len(k) == 0 {
				return false
			}
		default:
			if len(k) == 0 || k[0] != p[0] {
				return false
			}
		}
		p, k = p[1:], k[1:]
	}
	return len(k) == 0
}

// headersMatch applies a headers binding: x-match all (default) or any;
// all-with-x and any-with-x also compare x- keys.
func headersMatch(args, headers amqp.Table) bool {
	mode := "all"
	if v, ok := args.Get("x-match"); ok && v.Kind == amqp.LongStr {
		mode = v.Str
	}
	withX := strings.HasSuffix(mode, "-with-x")
	any := strings.HasPrefix(mode, "any")
	matched, checked := 0, 0
	for _, f := range args {
		if f.Key == "x-match" || (!withX && strings.HasPrefix(f.Key, "x-")) {
			continue
		}
		checked++
		v, ok := headers.Get(f.Key)
		if ok && (f.Val.Kind == amqp.Void || f.Val.Equal(v)) {
			matched++
			if any {
				return true
			}
		} else if !any {
			return false
		}
	}
	if any {
		return false
	}
	return matched == checked
}
