package definitions

import (
	"strconv"
	"unicode/utf8"

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
	var w writer
	w.b = append(w.b, `{"bindings":[`...)
	for i, b := range s.Bindings {
		w.sep(i)
		w.b = append(w.b, `{"arguments":`...)
		w.table(b.Args)
		w.field("destination", b.Destination)
		w.field("destination_type", b.DestinationType)
		w.field("routing_key", b.Key)
		w.field("source", b.Source)
		w.field("vhost", "/")
		w.b = append(w.b, '}')
	}
	w.b = append(w.b, `],"exchanges":[`...)
	for i, x := range s.Exchanges {
		w.sep(i)
		w.b = append(w.b, `{"arguments":`...)
		w.table(x.Args)
		w.boolean("auto_delete", x.AutoDelete)
		w.boolean("durable", x.Durable)
		w.field("name", x.Name)
		w.field("type", x.Type)
		w.field("vhost", "/")
		w.b = append(w.b, '}')
	}
	w.b = append(w.b, ']')
	if whole {
		w.b = append(w.b, `,"global_parameters":[],"parameters":[],"permissions":[{"configure":".*","read":".*","user":"guest","vhost":"/","write":".*"}]`...)
	}
	w.b = append(w.b, `,"policies":[`...)
	for i, p := range s.Policies {
		w.sep(i)
		w.b = append(w.b, '{')
		w.str("apply-to")
		w.b = append(w.b, ':')
		w.str(p.ApplyTo)
		w.b = append(w.b, `,"definition":`...)
		w.table(p.Definition)
		w.field("name", p.Name)
		w.field("pattern", p.Pattern)
		w.b = append(w.b, `,"priority":`...)
		w.b = strconv.AppendInt(w.b, int64(p.Priority), 10)
		w.field("vhost", "/")
		w.b = append(w.b, '}')
	}
	w.b = append(w.b, `],"queues":[`...)
	for i, q := range s.Queues {
		w.sep(i)
		w.b = append(w.b, `{"arguments":`...)
		w.table(q.Args)
		w.boolean("auto_delete", q.AutoDelete)
		w.boolean("durable", q.Durable)
		w.field("name", q.Name)
		typ := "classic"
		if t, ok := q.Args.Get("x-queue-type"); ok && t.Kind == amqp.LongStr && t.Str == "quorum" {
			typ = "quorum"
		}
		w.field("type", typ)
		w.field("vhost", "/")
		w.b = append(w.b, '}')
	}
	w.b = append(w.b, ']')
	if whole {
		w.b = append(w.b, `,"rabbit_version":"`+Version+`","rabbitmq_version":"`+Version+`","topic_permissions":[],"users":[{"hashing_algorithm":"rabbit_password_hashing_sha256","limits":{},"name":"guest","password_hash":"`+guestHash+`","tags":["administrator"]}],"vhosts":[{"limits":[],"metadata":{"description":"Default virtual host","tags":[]},"name":"/"}]`...)
	}
	w.b = append(w.b, '}')
	return string(w.b)
}

type writer struct{ b []byte }

func (w *writer) sep(i int) {
	if i > 0 {
		w.b = append(w.b, ',')
	}
}

func (w *writer) field(k, v string) {
	w.b = append(w.b, ',')
	w.str(k)
	w.b = append(w.b, ':')
	w.str(v)
}

func (w *writer) boolean(k string, v bool) {
	w.b = append(w.b, ',')
	w.str(k)
	w.b = append(w.b, ':')
	w.b = strconv.AppendBool(w.b, v)
}

// table writes a field table as rabbit_misc:amqp_table makes it a map: an
// object with its keys sorted.
func (w *writer) table(t amqp.Table) {
	w.b = append(w.b, '{')
	for i, f := range t.Sorted() {
		w.sep(i)
		w.str(f.Key)
		w.b = append(w.b, ':')
		w.value(f.Val)
	}
	w.b = append(w.b, '}')
}

func (w *writer) value(v amqp.Value) {
	switch {
	case v.Kind == amqp.LongStr:
		w.str(v.Str)
	case v.Kind == amqp.Bool:
		w.b = strconv.AppendBool(w.b, v.Int != 0)
	case v.Kind.IsInt() || v.Kind == amqp.Timestamp:
		w.b = strconv.AppendInt(w.b, v.Int, 10)
	case v.Kind == amqp.Float || v.Kind == amqp.Double:
		w.b = strconv.AppendFloat(w.b, v.Float, 'g', -1, 64)
	case v.Kind == amqp.Array:
		w.b = append(w.b, '[')
		for i, e := range v.Arr {
			w.sep(i)
			w.value(e)
		}
		w.b = append(w.b, ']')
	case v.Kind == amqp.Table_:
		w.table(v.Tab)
	default:
		w.b = append(w.b, "null"...)
	}
}

// str writes a JSON string: quotes, backslashes and control characters
// escaped, other text as it is (invalid UTF-8 as U+FFFD).
func (w *writer) str(s string) {
	const hex = "0123456789abcdef"
	w.b = append(w.b, '"')
	for i := 0; i < len(s); {
		c := s[i]
		if c < utf8.RuneSelf {
			switch {
			case c == '"' || c == '\\':
				w.b = append(w.b, '\\', c)
			case c == '\n':
				w.b = append(w.b, '\\', 'n')
			case c == '\r':
				w.b = append(w.b, '\\', 'r')
			case c == '\t':
				w.b = append(w.b, '\\', 't')
			case c < 0x20:
				w.b = append(w.b, '\\', 'u', '0', '0', hex[c>>4], hex[c&15])
			default:
				w.b = append(w.b, c)
			}
			i++
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && size == 1 {
			w.b = append(w.b, "\ufffd"...)
		} else {
			w.b = append(w.b, s[i:i+size]...)
		}
		i += size
	}
	w.b = append(w.b, '"')
}
