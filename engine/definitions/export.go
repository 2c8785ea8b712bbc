package definitions

import (
	"strconv"

	"warren/engine/amqp"
)

// Version is the RabbitMQ version an export names.
const Version = "3.10.8"

// guestHash is the password hash a fresh RabbitMQ 3.10.8 node exports for
// guest (salted SHA-256 of "guest"): importing it keeps guest's password.
const guestHash = "XrZyLlUhRmT8XhULVnQ0VkpFy9D8/re+08vYqVXbmq0C5Dyi"

// Export writes d as `rabbitmqctl export_definitions -` writes a node's
// definitions in 3.10.8: one line of JSON, no newline after it, every
// object's keys in sorted order (Erlang maps), the user guest, its
// permissions and the vhost / as a fresh node has them. d is what the
// node exports; see Exportable for what it leaves out. NB: the broker
// lists exchanges, queues and bindings in the order of its tables (a hash
// order); Export sorts them by name, bindings by source, destination and
// routing key.
func Export(d *Defs) string { return write(d, true) }

// Topology writes d as Export does, but only its bindings, exchanges,
// policies and queues: a file that imports d's topology into a broker
// and changes nothing else there (no user, permission or vhost).
func Topology(d *Defs) string { return write(d, false) }

func write(d *Defs, whole bool) string {
	s := *d
	s.Exchanges = append([]Exchange(nil), d.Exchanges...)
	s.Queues = append([]Queue(nil), d.Queues...)
	s.Bindings = append([]Binding(nil), d.Bindings...)
	s.Policies = append([]Policy(nil), d.Policies...)
	s.sortByName()
	b := []byte(`{"bindings":[`)
	for i, x := range s.Bindings {
		b = item(b, i, x.Args, "destination", str(x.Destination), "destination_type", str(x.DestinationType),
			"routing_key", str(x.Key), "source", str(x.Source))
	}
	b = append(b, `],"exchanges":[`...)
	for i, x := range s.Exchanges {
		b = item(b, i, x.Args, "auto_delete", strconv.FormatBool(x.AutoDelete), "durable", strconv.FormatBool(x.Durable),
			"name", str(x.Name), "type", str(x.Type))
	}
	b = append(b, ']')
	if whole {
		b = append(b, `,"global_parameters":[],"parameters":[],"permissions":[{"configure":".*","read":".*","user":"guest","vhost":"/","write":".*"}]`...)
	}
	b = append(b, `,"policies":[`...)
	for i, p := range s.Policies {
		if i > 0 {
			b = append(b, ',')
		}
		b = append(b, `{"apply-to":`+str(p.ApplyTo)+`,"definition":`...)
		b = appendTable(b, p.Definition)
		b = append(b, `,"name":`+str(p.Name)+`,"pattern":`+str(p.Pattern)+`,"priority":`+strconv.Itoa(p.Priority)+`,"vhost":"/"}`...)
	}
	b = append(b, `],"queues":[`...)
	for i, q := range s.Queues {
		typ := `"classic"`
		if t, ok := q.Args.Get("x-queue-type"); ok && t.Kind == amqp.LongStr && t.Str == "quorum" {
			typ = `"quorum"`
		}
		b = item(b, i, q.Args, "auto_delete", strconv.FormatBool(q.AutoDelete), "durable", strconv.FormatBool(q.Durable),
			"name", str(q.Name), "type", typ)
	}
	b = append(b, ']')
	if whole {
		b = append(b, `,"rabbit_version":"`+Version+`","rabbitmq_version":"`+Version+`","topic_permissions":[],"users":[{"hashing_algorithm":"rabbit_password_hashing_sha256","limits":{},"name":"guest","password_hash":"`+guestHash+`","tags":["administrator"]}],"vhosts":[{"limits":[],"metadata":{"description":"Default virtual host","tags":[]},"name":"/"}]`...)
	}
	return string(append(b, '}'))
}

// item appends one object of a list (after a comma unless it is the
// first): its arguments, then each key with its value written as JSON
// (kv, keys in sorted order), then the vhost.
func item(b []byte, i int, args amqp.Table, kv ...string) []byte {
	if i > 0 {
		b = append(b, ',')
	}
	b = append(b, `{"arguments":`...)
	b = appendTable(b, args)
	for j := 0; j+1 < len(kv); j += 2 {
		b = append(b, `,"`+kv[j]+`":`+kv[j+1]...)
	}
	return append(b, `,"vhost":"/"}`...)
}

// appendTable writes a field table as rabbit_misc:amqp_table makes it a
// map: an object with its keys sorted.
func appendTable(b []byte, t amqp.Table) []byte {
	b = append(b, '{')
	for i, f := range t.Sorted() {
		if i > 0 {
			b = append(b, ',')
		}
		b = append(b, str(f.Key)+":"...)
		b = appendValue(b, f.Val)
	}
	return append(b, '}')
}

func appendValue(b []byte, v amqp.Value) []byte {
	switch v.Kind {
	case amqp.LongStr:
		return append(b, str(v.Str)...)
	case amqp.Array:
		b = append(b, '[')
		for i, e := range v.Arr {
			if i > 0 {
				b = append(b, ',')
			}
			b = appendValue(b, e)
		}
		return append(b, ']')
	case amqp.Table_:
		return appendTable(b, v.Tab)
	}
	// integers and booleans print as JSON writes them
	return append(b, v.String()...)
}

// str writes s as a JSON string: quotes, backslashes and control
// characters escaped, other bytes as they are.
func str(s string) string {
	const hex = "0123456789abcdef"
	b := make([]byte, 0, len(s)+2)
	b = append(b, '"')
	for i := 0; i < len(s); i++ {
		switch c := s[i]; {
		case c == '"' || c == '\\':
			b = append(b, '\\', c)
		case c < 0x20:
			b = append(b, '\\', 'u', '0', '0', hex[c>>4], hex[c&15])
		default:
			b = append(b, c)
		}
	}
	return string(append(b, '"'))
}
