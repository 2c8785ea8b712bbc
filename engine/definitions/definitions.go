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

// kinds are the lists of a definitions file, in the order Parse names
// what it leaves out, and the kinds of Left besides.
var kinds = []string{"users", "vhosts", "permissions", "topic_permissions", "parameters", "global_parameters",
	"exchanges in other vhosts", "queues in other vhosts", "bindings in other vhosts", "policies in other vhosts",
	"exchanges named amq.*", "queues named amq.*", "quorum queues", "stream queues", "keys"}

// fieldKind is the JSON type of each field an item may have: 's' string,
// 'b' boolean, 'n' integer, 'o' object (an empty list too, for
// arguments).
func fieldKind(key string) byte {
	switch key {
	case "durable", "auto_delete", "internal":
		return 'b'
	case "priority":
		return 'n'
	case "arguments", "definition":
		return 'o'
	case "name", "vhost", "type", "source", "destination", "destination_type", "routing_key", "pattern", "apply-to", "user", "component":
		return 's'
	}
	return 0 // anything else is not read
}

// required are the fields each list's items must have.
var required = map[string][]string{
	"exchanges": {"name", "type"},
	"queues":    {"name"},
	"bindings":  {"source", "destination", "destination_type"},
	"policies":  {"name", "pattern"},
}

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
	for i, key := range root.keys {
		v := root.vals[i]
		switch key {
		case "rabbit_version", "rabbitmq_version", "product_name", "product_version":
			continue
		case "users", "vhosts", "permissions", "topic_permissions", "parameters", "global_parameters",
			"policies", "queues", "exchanges", "bindings":
		default:
			d.leave(left, "keys", key)
			continue
		}
		if v.kind != 'a' {
			return nil, &Error{Where: key, Msg: "must be a list"}
		}
		for j, item := range v.vals {
			if err := d.read(left, key, key+"["+strconv.Itoa(j)+"]", item); err != nil {
				return nil, err
			}
		}
	}
	for _, kind := range kinds {
		if l, ok := left[kind]; ok {
			d.Left = append(d.Left, *l)
		}
	}
	return d, nil
}

// leave notes one thing of a kind that is not imported.
func (d *Defs) leave(left map[string]*Left, kind, name string) {
	l, ok := left[kind]
	if !ok {
		l = &Left{Kind: kind, Why: why(kind)}
		left[kind] = l
	}
	l.Names = append(l.Names, name)
}

// why is the reason given for leaving out a kind.
func why(kind string) string {
	switch {
	case kind == "users":
		return "warren has no users; every connection is guest"
	case kind == "permissions" || kind == "topic_permissions":
		return "warren checks no permissions"
	case kind == "vhosts" || strings.HasSuffix(kind, " in other vhosts"):
		return "warren simulates one vhost, /"
	case kind == "parameters":
		return "warren models no runtime parameters (federation, shovels, limits)"
	case kind == "global_parameters":
		return "warren models no global parameters"
	case kind == "queues named amq.*":
		return "RabbitMQ 3.10.8 skips queues whose name begins with amq. on import"
	case kind == "exchanges named amq.*":
		return "RabbitMQ 3.10.8 skips the default exchange and those whose name begins with amq. on import"
	case strings.HasSuffix(kind, " queues"):
		return "warren's RabbitMQ 3.10 simulates classic queues"
	}
	return "not a key of RabbitMQ 3.10.8's definitions"
}

// read takes one item of the list key.
func (d *Defs) read(left map[string]*Left, key, where string, o *node) error {
	if o.kind != 'o' {
		return &Error{Where: where, Msg: "must be an object"}
	}
	for i, k := range o.keys {
		want, got := fieldKind(k), o.vals[i].kind
		if want != 0 && want != got && !(want == 'o' && got == 'a' && len(o.vals[i].vals) == 0) {
			return &Error{Where: where + "." + k, Msg: "must be " + kindWords(want)}
		}
	}
	for _, k := range required[key] {
		if o.get(k) == nil {
			return &Error{Where: where + "." + k, Msg: "is missing"}
		}
	}
	s := func(k string) string {
		if v := o.get(k); v != nil {
			return v.str
		}
		return ""
	}
	b := func(k string) bool { v := o.get(k); return v != nil && v.b }
	name, vhost := s("name"), s("vhost")
	if vhost == "" {
		vhost = "/" // a vhost's own export from the management UI names none
	}
	switch key {
	case "users", "global_parameters":
		d.leave(left, key, name)
		return nil
	case "vhosts":
		if name != "/" {
			d.leave(left, key, name)
		}
		return nil
	case "permissions", "topic_permissions":
		d.leave(left, key, s("user")+" in "+vhost)
		return nil
	case "parameters":
		d.leave(left, key, s("component")+" "+name)
		return nil
	case "bindings":
		name = s("source") + " -> " + s("destination")
	}
	if vhost != "/" {
		d.leave(left, key+" in other vhosts", vhost+" "+name)
		return nil
	}
	args, err := table(o, where, "arguments")
	if err != nil {
		return err
	}
	switch key {
	case "exchanges":
		if name == "" || strings.HasPrefix(name, "amq.") {
			d.leave(left, "exchanges named amq.*", quoteEmpty(name))
			return nil
		}
		d.Exchanges = append(d.Exchanges, Exchange{Name: name, Type: s("type"), Durable: b("durable"), AutoDelete: b("auto_delete"), Internal: b("internal"), Args: args})
	case "queues":
		if strings.HasPrefix(name, "amq.") {
			d.leave(left, "queues named amq.*", name)
			return nil
		}
		if t, ok := args.Get("x-queue-type"); ok && (t.Str == "stream" || t.Str == "quorum") {
			d.leave(left, t.Str+" queues", name)
			return nil
		}
		d.Queues = append(d.Queues, Queue{Name: name, Durable: b("durable"), AutoDelete: b("auto_delete"), Args: args})
	case "bindings":
		t := s("destination_type")
		if t != "queue" && t != "exchange" {
			return &Error{Where: where + ".destination_type", Msg: "must be queue or exchange, got " + strconv.Quote(t)}
		}
		d.Bindings = append(d.Bindings, Binding{Source: s("source"), Destination: s("destination"), DestinationType: t, Key: s("routing_key"), Args: args})
	case "policies":
		applyTo := s("apply-to")
		switch applyTo {
		case "":
			applyTo = "all"
		case "queues", "exchanges", "all":
		default:
			return &Error{Where: where + ".apply-to", Msg: "must be queues, exchanges or all, got " + strconv.Quote(applyTo)}
		}
		def, err := table(o, where, "definition")
		if err != nil {
			return err
		}
		prio := int64(0)
		if v := o.get("priority"); v != nil {
			if prio, err = strconv.ParseInt(v.num, 10, 32); err != nil {
				return &Error{Where: where + ".priority", Msg: "must be a 32-bit integer"}
			}
		}
		d.Policies = append(d.Policies, Policy{Name: name, Pattern: s("pattern"), ApplyTo: applyTo, Priority: int(prio), Definition: def})
	}
	return nil
}

func kindWords(k byte) string {
	switch k {
	case 'b':
		return "true or false"
	case 'n':
		return "an integer"
	case 'o':
		return "an object"
	}
	return "a string"
}

func quoteEmpty(s string) string {
	if s == "" {
		return `""`
	}
	return s
}

// table reads the arguments or definition object key of o as
// rabbit_misc:to_amqp_table types it: keys in sorted order (an Erlang map
// of them), integers as long (json.go refuses other numbers), strings as
// longstr, lists as arrays and objects as tables; null is refused.
func table(o *node, where, key string) (amqp.Table, error) {
	v := o.get(key)
	if v == nil || v.kind == 'a' {
		return nil, nil // args([]): an empty list is an empty table
	}
	t, msg := toTable(v)
	if msg != "" {
		return nil, &Error{Where: where + "." + key, Msg: msg}
	}
	return t, nil
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
		i, err := strconv.ParseInt(n.num, 10, 64)
		if err != nil {
			return amqp.Value{}, "the number " + n.num + " is out of range"
		}
		return amqp.LongValue(i), ""
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
