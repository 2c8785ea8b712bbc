package node

// Importing definitions as rabbit_definitions:apply_defs does for one
// vhost: exchanges, policies, queues, then bindings, each added unless one
// of that name (or that binding) exists already; and what
// rabbit_definitions:all_definitions exports of them.

import (
	"fmt"

	"warren/engine/definitions"
)

// CheckDefinitions refuses definitions that rabbitmqctl import_definitions
// would fail on, before anything changes: an unknown exchange type, a
// policy or queue argument that is not valid, a binding whose ends are
// a binding that RabbitMQ skips is no error (see ImportDefinitions).
func (c *Cluster) CheckDefinitions(d *definitions.Defs) error {
	xs := map[string]bool{}
	for i, x := range d.Exchanges {
		if !exchangeTypes[x.Type] {
			return &OperatorError{Text: fmt.Sprintf("exchanges[%d] %s: unknown exchange type '%s'", i, x.Name, x.Type)}
		}
		xs[x.Name] = true
	}
	for _, p := range d.Policies {
		if err := CheckPolicy(p.Pattern, p.Definition); err != nil {
			return &OperatorError{Text: "policy " + p.Name + ": " + err.Error()}
		}
	}
	qs := map[string]bool{}
	for _, q := range d.Queues {
		if _, ok := c.queues[q.Name]; !ok {
			if e := checkDeclareArgs(q.Name, q.Args, c.First().Config.Version); e != nil {
				return &OperatorError{Text: e.Text}
			}
		}
		qs[q.Name] = true
	}
	return nil
}

// ImportDefinitions adds what d defines and the node lacks, and returns
// the bindings it skipped as RabbitMQ 3.10.8 does (nil when none): those
// whose source or destination does not exist, and those that the source's
// exchange type refuses (rabbit_binding:add returns an error for both,
// which apply_defs does not raise). It does not check: CheckDefinitions
// has. on is the node the import runs on (rabbitmqctl -n): add_queue_int
// declares each queue with rabbit_amqqueue:declare/6, which passes
// node(), so that a queue lives there unless its locator says otherwise,
// as a queue a client declares on that node would.
func (c *Cluster) ImportDefinitions(d *definitions.Defs, on *Node) []definitions.Left {
	for _, x := range d.Exchanges {
		if _, ok := c.exchanges[x.Name]; !ok {
			c.exchanges[x.Name] = &Exchange{Name: x.Name, Type: x.Type, Durable: x.Durable, AutoDelete: x.AutoDelete, Internal: x.Internal, Args: x.Args}
		}
	}
	for _, p := range d.Policies {
		_ = c.SetPolicy(p.Name, p.Pattern, p.ApplyTo, p.Priority, p.Definition)
	}
	for _, q := range d.Queues {
		if _, ok := c.queues[q.Name]; ok {
			continue
		}
		rec := &QueueRecord{Name: q.Name, Durable: q.Durable, AutoDelete: q.AutoDelete, Args: q.Args, Type: "classic"}
		rec.Policy = on.cluster.policyFor(q.Name)
		// its process starts its expiry timer in an init of its own
		// (startQueue), as rabbit_classic_queue:declare's {init, new}
		// call has it do
		on.placeQueue(rec).startQueue(nil, rec)
	}
	kept, dangling := definitions.Dangling(d,
		func(name string) bool { _, ok := c.exchanges[name]; return ok },
		func(name string) bool { _, ok := c.queues[name]; return ok })
	var left []definitions.Left
	if dangling != nil {
		left = append(left, *dangling)
	}
	refused := definitions.Left{Kind: "bindings their exchange type refuses", Why: "RabbitMQ 3.10.8 skips them on import"}
	for _, b := range kept {
		x := c.exchanges[b.Source]
		// a binding keeps its arguments sorted by key, as rabbit_binding
		// does when it adds one
		nb := &Binding{Queue: b.Destination, Key: b.Key, Args: b.Args.Sorted()}
		if b.DestinationType == "exchange" {
			nb = &Binding{Exchange: b.Destination, Key: b.Key, Args: b.Args.Sorted()}
		}
		if e := x.validateBinding(nb); e != nil {
			refused.Names = append(refused.Names, b.Source+" -> "+b.Destination+" ("+e.Text+")")
			continue
		}
		if !x.hasBinding(nb) {
			x.Bindings = append(x.Bindings, nb)
		}
	}
	if len(refused.Names) > 0 {
		left = append(left, refused)
	}
	c.changed()
	return left
}

// Definitions returns what rabbitmqctl export_definitions exports of the
// vhost: the exchanges but the default one, those named amq.* and the
// internal ones; the queues but the exclusive ones; the bindings but the
// default exchange's; the policies.
func (c *Cluster) Definitions() *definitions.Defs {
	d := &definitions.Defs{}
	for _, name := range c.ExchangeNames() {
		x := c.exchanges[name]
		if x.Internal || name == "" || (len(name) >= 4 && name[:4] == "amq.") {
			continue
		}
		d.Exchanges = append(d.Exchanges, definitions.Exchange{Name: name, Type: x.Type, Durable: x.Durable, AutoDelete: x.AutoDelete, Args: x.Args})
	}
	// rabbit_binding:list_explicit: every binding but the default
	// exchange's, those of internal and amq.* exchanges included
	for _, name := range c.ExchangeNames() {
		if name == "" {
			continue
		}
		for _, b := range c.exchanges[name].Bindings {
			db := definitions.Binding{Source: name, Destination: b.Queue, DestinationType: "queue", Key: b.Key, Args: b.Args}
			if b.Exchange != "" {
				db.Destination, db.DestinationType = b.Exchange, "exchange"
			}
			d.Bindings = append(d.Bindings, db)
		}
	}
	for _, name := range c.QueueNames() {
		q := c.queues[name]
		if q.Exclusive || q.dead {
			continue
		}
		d.Queues = append(d.Queues, definitions.Queue{Name: name, Durable: q.Durable, AutoDelete: q.AutoDelete, Args: q.Args})
	}
	for _, p := range c.Policies() {
		d.Policies = append(d.Policies, definitions.Policy{Name: p.Name, Pattern: p.Pattern, ApplyTo: p.ApplyTo, Priority: p.Priority, Definition: p.Definition})
	}
	return d
}
