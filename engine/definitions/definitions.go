package definitions

import (
	"sort"
	"strconv"
	"strings"

	"warren/engine/amqp"
)

// Queue is a queue of a definitions file.
type Queue struct {
	Name                string
	Durable, AutoDelete bool
	Args                amqp.Table
}

// Exchange is an exchange of a definitions file.
type Exchange struct {
	Name, Type                    string
	Durable, AutoDelete, Internal bool
	Args                          amqp.Table
}

// Binding is a binding of a definitions file: from the exchange Source to
// a queue (DestinationType "queue") or an exchange ("exchange").
type Binding struct {
	Source, Destination, DestinationType, Key string
	Args                                      amqp.Table
}

// Policy is a policy of a definitions file.
type Policy struct {
	Name, Pattern, ApplyTo string
	Priority               int
	Definition             amqp.Table
}

// Left is one kind of thing a file holds that warren does not import,
// with the names of those things.
type Left struct {
	Kind  string // "users", "permissions", "queues in other vhosts", ...
	Names []string
	Why   string
}

// Line says what was left out on one line: `not imported: users (1:
// guest): warren has no users; every connection is guest`.
func (l Left) Line() string {
	names := l.Names
	more := ""
	if len(names) > 3 {
		names, more = names[:3], ", ..."
	}
	return "not imported: " + l.Kind + " (" + strconv.Itoa(len(l.Names)) + ": " + strings.Join(names, ", ") + more + "): " + l.Why
}

// Defs is what a definitions file holds for the vhost warren simulates
// (/), and what it holds besides.
type Defs struct {
	Exchanges []Exchange
	Queues    []Queue
	Bindings  []Binding
	Policies  []Policy
	// Left lists, kind by kind, what the file holds that is not imported.
	Left []Left
}

// Error is a definitions file that cannot be imported: where in it, and
// what is wrong.
type Error struct {
	Where string // queues[2].durable
	Msg   string
}

func (e *Error) Error() string { return e.Where + ": " + e.Msg }

// The reasons given for what is left out.
const (
	whyUsers       = "warren has no users; every connection is guest"
	whyPermissions = "warren checks no permissions"
	whyVhosts      = "warren simulates one vhost, /"
	whyParameters  = "warren models no runtime parameters (federation, shovels, limits)"
	whyGlobal      = "warren models no global parameters"
	whyOtherVhost  = "warren simulates one vhost, /"
	whyAmqQueue    = "RabbitMQ 3.10.8 skips queues whose name begins with amq. on import"
	whyAmqExchange = "RabbitMQ 3.10.8 skips the default exchange and those whose name begins with amq. on import"
	whyQueueType   = "warren's RabbitMQ 3.10 simulates classic queues"
	whyUnknownKey  = "not a key of RabbitMQ 3.10.8's definitions"
)

// Parse reads a definitions file.
func Parse(src string) (*Defs, error) {
	root, err := parseJSON(src)
	if err != nil {
		return nil, err
	}
	if root.kind != 'o' {
		return nil, &Error{Where: "the file", Msg: "must be a JSON object, as rabbitmqctl export_definitions writes"}
	}
	d := &Defs{}
	left := map[string]*Left{}
	leave := func(kind, why, name string) {
		l, ok := left[kind]
		if !ok {
			l = &Left{Kind: kind, Why: why}
			left[kind] = l
		}
		l.Names = append(l.Names, name)
	}
	for i, key := range root.keys {
		v := root.vals[i]
		switch key {
		case "rabbit_version", "rabbitmq_version", "product_name", "product_version":
			continue
		}
		switch key {
		case "users", "vhosts", "permissions", "topic_permissions", "parameters", "global_parameters",
			"policies", "queues", "exchanges", "bindings":
		default:
			leave("keys", whyUnknownKey, key)
			continue
		}
		if v.kind != 'a' {
			return nil, &Error{Where: key, Msg: "must be a list"}
		}
		for j, item := range v.vals {
			where := key + "[" + strconv.Itoa(j) + "]"
			if item.kind != 'o' {
				return nil, &Error{Where: where, Msg: "must be an object"}
			}
			if err := d.read(key, where, item, leave); err != nil {
				return nil, err
			}
		}
	}
	for _, kind := range []string{"users", "vhosts", "permissions", "topic_permissions", "parameters", "global_parameters",
		"exchanges in other vhosts", "queues in other vhosts", "bindings in other vhosts", "policies in other vhosts",
		"exchanges named amq.*", "queues named amq.*", "quorum queues", "stream queues", "keys"} {
		if l, ok := left[kind]; ok {
			d.Left = append(d.Left, *l)
		}
	}
	return d, nil
}

// read takes one item of the list key.
func (d *Defs) read(key, where string, o *node, leave func(kind, why, name string)) error {
	r := reader{o: o, where: where}
	vhost := r.str("vhost", "/")
	other := func(kind string, name string) bool {
		if vhost == "/" {
			return false
		}
		leave(kind+" in other vhosts", whyOtherVhost, vhost+" "+name)
		return true
	}
	switch key {
	case "users":
		leave("users", whyUsers, r.str("name", "?"))
	case "vhosts":
		if name := r.str("name", ""); name != "/" {
			leave("vhosts", whyVhosts, name)
		}
	case "permissions", "topic_permissions":
		leave(key, whyPermissions, r.str("user", "?")+" in "+r.str("vhost", "?"))
	case "parameters":
		leave("parameters", whyParameters, r.str("component", "?")+" "+r.str("name", "?"))
	case "global_parameters":
		leave("global_parameters", whyGlobal, r.str("name", "?"))
	case "exchanges":
		x := Exchange{Name: r.need("name"), Type: r.need("type"), Durable: r.flag("durable"), AutoDelete: r.flag("auto_delete"),
			Internal: r.flag("internal"), Args: r.table("arguments")}
		if r.err != nil || other("exchanges", x.Name) {
			return r.err
		}
		if x.Name == "" || strings.HasPrefix(x.Name, "amq.") {
			leave("exchanges named amq.*", whyAmqExchange, quoteEmpty(x.Name))
			return nil
		}
		d.Exchanges = append(d.Exchanges, x)
	case "queues":
		q := Queue{Name: r.need("name"), Durable: r.flag("durable"), AutoDelete: r.flag("auto_delete"), Args: r.table("arguments")}
		if r.err != nil || other("queues", q.Name) {
			return r.err
		}
		if strings.HasPrefix(q.Name, "amq.") {
			leave("queues named amq.*", whyAmqQueue, q.Name)
			return nil
		}
		if t, ok := q.Args.Get("x-queue-type"); ok && t.Kind == amqp.LongStr && (t.Str == "stream" || t.Str == "quorum") {
			leave(t.Str+" queues", whyQueueType, q.Name)
			return nil
		}
		d.Queues = append(d.Queues, q)
	case "bindings":
		b := Binding{Source: r.need("source"), Destination: r.need("destination"), DestinationType: r.need("destination_type"),
			Key: r.str("routing_key", ""), Args: r.table("arguments")}
		if r.err == nil && b.DestinationType != "queue" && b.DestinationType != "exchange" {
			return &Error{Where: where + ".destination_type", Msg: "must be queue or exchange, got " + strconv.Quote(b.DestinationType)}
		}
		if r.err != nil || other("bindings", b.Source+" -> "+b.Destination) {
			return r.err
		}
		d.Bindings = append(d.Bindings, b)
	case "policies":
		p := Policy{Name: r.need("name"), Pattern: r.need("pattern"), ApplyTo: r.str("apply-to", "all"), Priority: r.int("priority"),
			Definition: r.table("definition")}
		if r.err != nil || other("policies", p.Name) {
			return r.err
		}
		switch p.ApplyTo {
		case "queues", "exchanges", "all":
		default:
			return &Error{Where: where + ".apply-to", Msg: "must be queues, exchanges or all, got " + strconv.Quote(p.ApplyTo)}
		}
		d.Policies = append(d.Policies, p)
	}
	return r.err
}

func quoteEmpty(s string) string {
	if s == "" {
		return `""`
	}
	return s
}

// reader takes the fields of one object, keeping the first error.
type reader struct {
	o     *node
	where string
	err   error
}

func (r *reader) bad(key, msg string) {
	if r.err == nil {
		r.err = &Error{Where: r.where + "." + key, Msg: msg}
	}
}

func (r *reader) str(key, def string) string {
	v := r.o.get(key)
	if v == nil {
		return def
	}
	if v.kind != 's' {
		r.bad(key, "must be a string")
		return def
	}
	return v.str
}

func (r *reader) need(key string) string {
	if r.o.get(key) == nil {
		r.bad(key, "is missing")
		return ""
	}
	return r.str(key, "")
}

func (r *reader) flag(key string) bool {
	v := r.o.get(key)
	if v == nil {
		return false
	}
	if v.kind != 'b' {
		r.bad(key, "must be true or false")
		return false
	}
	return v.b
}

func (r *reader) int(key string) int {
	v := r.o.get(key)
	if v == nil {
		return 0
	}
	n, err := strconv.ParseInt(v.num, 10, 32)
	if v.kind != 'n' || err != nil {
		r.bad(key, "must be an integer")
		return 0
	}
	return int(n)
}

// table reads an arguments or definition object as
// rabbit_misc:to_amqp_table types it: keys in sorted order (an Erlang map
// of them), integers as long, other numbers as double, strings as
// longstr, lists as arrays and objects as tables; null is refused.
func (r *reader) table(key string) amqp.Table {
	v := r.o.get(key)
	if v == nil {
		return nil
	}
	if v.kind == 'a' && len(v.vals) == 0 {
		return nil // args([]): an empty list is an empty table
	}
	if v.kind != 'o' {
		r.bad(key, "must be an object")
		return nil
	}
	t, msg := toTable(v)
	if msg != "" {
		r.bad(key, msg)
	}
	return t
}

func toTable(o *node) (amqp.Table, string) {
	var t amqp.Table
	for i, k := range o.keys {
		v, msg := toValue(o.vals[i])
		if msg != "" {
			return nil, k + ": " + msg
		}
		t = t.With(k, v) // a key written twice: the last one, as in a map
	}
	return t.Sorted(), ""
}

func toValue(n *node) (amqp.Value, string) {
	switch n.kind {
	case 's':
		return amqp.StrValue(n.str), ""
	case 'b':
		return amqp.BoolValue(n.b), ""
	case 'n':
		if i, err := strconv.ParseInt(n.num, 10, 64); err == nil {
			return amqp.LongValue(i), ""
		}
		f, err := strconv.ParseFloat(n.num, 64)
		if err != nil {
			return amqp.Value{}, "the number " + n.num + " is out of range"
		}
		return amqp.Value{Kind: amqp.Double, Float: f}, ""
	case 'a':
		vs := make([]amqp.Value, 0, len(n.vals))
		for _, e := range n.vals {
			v, msg := toValue(e)
			if msg != "" {
				return amqp.Value{}, msg
			}
			vs = append(vs, v)
		}
		return amqp.ArrayValue(vs...), ""
	case 'o':
		t, msg := toTable(n)
		if msg != "" {
			return amqp.Value{}, msg
		}
		return amqp.TableValue(t), ""
	}
	return amqp.Value{}, "null is not allowed (null_not_allowed)"
}

// sortByName orders what an export lists.
func (d *Defs) sortByName() {
	sort.SliceStable(d.Exchanges, func(i, j int) bool { return d.Exchanges[i].Name < d.Exchanges[j].Name })
	sort.SliceStable(d.Queues, func(i, j int) bool { return d.Queues[i].Name < d.Queues[j].Name })
	sort.SliceStable(d.Policies, func(i, j int) bool { return d.Policies[i].Name < d.Policies[j].Name })
	sort.SliceStable(d.Bindings, func(i, j int) bool {
		a, b := d.Bindings[i], d.Bindings[j]
		if a.Source != b.Source {
			return a.Source < b.Source
		}
		if a.Destination != b.Destination {
			return a.Destination < b.Destination
		}
		return a.Key < b.Key
	})
}

// Dangling splits d's bindings into those whose source and destination
// exist, in d or already in the node (exchange and queue say which names
// the node has), and the others, which RabbitMQ 3.10.8 skips on import:
// rabbit_binding:add returns an error for them, which apply_defs does not
// raise. The left ones come back as one Left, nil when there are none.
func Dangling(d *Defs, exchange, queue func(string) bool) ([]Binding, *Left) {
	xs, qs := map[string]bool{}, map[string]bool{}
	for _, x := range d.Exchanges {
		xs[x.Name] = true
	}
	for _, q := range d.Queues {
		qs[q.Name] = true
	}
	var kept []Binding
	var left *Left
	for _, b := range d.Bindings {
		dest := qs[b.Destination] || queue(b.Destination)
		if b.DestinationType == "exchange" {
			dest = xs[b.Destination] || exchange(b.Destination)
		}
		if b.Source != "" && (xs[b.Source] || exchange(b.Source)) && dest {
			kept = append(kept, b)
			continue
		}
		if left == nil {
			left = &Left{Kind: "bindings whose exchange or queue does not exist", Why: "RabbitMQ 3.10.8 skips them on import"}
		}
		left.Names = append(left.Names, quoteEmpty(b.Source)+" -> "+b.Destination)
	}
	return kept, left
}
