package script

import (
	"sort"
	"strings"
)

// Kind is the type a parameter's value must have.
type Kind uint8

// Parameter kinds.
const (
	Str    Kind = iota // any text, possibly empty
	Name               // any text, possibly empty (queue, exchange, key names)
	Int                // an integer in [Min, Max]
	Flag               // a bare word, no value
	Enum               // one of Values
	BoolOr             // a bare flag, or =true / =false
	On                 // c1 or c1.2
)

// Param describes one named parameter of a command.
type Param struct {
	Key      string
	Kind     Kind
	Required bool
	Min, Max int64
	Values   []string
}

// Extra says which unnamed `key=value` arguments a command accepts.
type Extra uint8

// Extra argument classes.
const (
	NoExtra    Extra = iota
	XArgs            // x-ARG=V (queue.declare, basic.consume)
	AnyArgs          // every other key=V (queue.bind, queue.unbind, exchange.declare, set_policy)
	HeaderArgs       // header.NAME=V (basic.publish)
	Words            // bare words (list_queues columns)
)

// Spec is the signature of one command.
type Spec struct {
	Name   string
	Params []Param
	Extra  Extra
	Usage  string
	// Engine is true for commands only the engine understands (simulation
	// control); a real broker target refuses them.
	Engine bool
	// WordSet, when not nil, lists the bare words allowed (Extra == Words).
	WordSet []string
}

func (s *Spec) param(key string) (*Param, bool) {
	for i := range s.Params {
		if s.Params[i].Key == key {
			return &s.Params[i], true
		}
	}
	return nil, false
}

// IsTableKey says whether key is one of the arguments that become a field
// table (or, for expect, the fields and columns a goal asks for).
func (s *Spec) IsTableKey(key string) bool {
	if _, named := s.param(key); named {
		return false
	}
	switch s.Extra {
	case XArgs:
		return strings.HasPrefix(key, "x-")
	case AnyArgs:
		return true
	}
	return false
}

var onParam = Param{Key: "on", Kind: On}

func p(key string, kind Kind) Param        { return Param{Key: key, Kind: kind} }
func req(key string, kind Kind) Param      { return Param{Key: key, Kind: kind, Required: true} }
func num(key string, min, max int64) Param { return Param{Key: key, Kind: Int, Min: min, Max: max} }
func reqNum(key string, min, max int64) Param {
	return Param{Key: key, Kind: Int, Min: min, Max: max, Required: true}
}
func enum(key string, values ...string) Param { return Param{Key: key, Kind: Enum, Values: values} }
func reqEnum(key string, vs ...string) Param {
	return Param{Key: key, Kind: Enum, Values: vs, Required: true}
}

// MaxBody is the largest message body the language accepts (RabbitMQ's
// default max_message_size, 128 MiB).
const MaxBody = 134217728

// MaxCount bounds count=N on basic.publish.
const MaxCount = 10_000_000

var specs = []*Spec{
	{Name: "queue.declare", Params: []Param{onParam, p("queue", Name), p("durable", Flag), p("exclusive", Flag), p("auto-delete", Flag), p("passive", Flag)},
		Extra: XArgs, Usage: "queue.declare queue=Q [durable] [exclusive] [auto-delete] [passive] [x-ARG=V ...]"},
	{Name: "queue.delete", Params: []Param{onParam, p("queue", Name), p("if-unused", Flag), p("if-empty", Flag)},
		Usage: "queue.delete queue=Q [if-unused] [if-empty]"},
	{Name: "queue.purge", Params: []Param{onParam, p("queue", Name)}, Usage: "queue.purge queue=Q"},
	{Name: "queue.bind", Params: []Param{onParam, p("queue", Name), req("exchange", Name), p("key", Name)},
		Extra: AnyArgs, Usage: "queue.bind queue=Q exchange=E [key=K] [ARG=V ...]"},
	{Name: "queue.unbind", Params: []Param{onParam, p("queue", Name), req("exchange", Name), p("key", Name)},
		Extra: AnyArgs, Usage: "queue.unbind queue=Q exchange=E [key=K] [ARG=V ...]"},
	{Name: "exchange.declare", Params: []Param{onParam, req("exchange", Name), p("type", Str), p("durable", Flag), p("auto-delete", Flag), p("passive", Flag), p("internal", Flag)},
		Extra: AnyArgs, Usage: "exchange.declare exchange=E type=direct|fanout|topic|headers|x-consistent-hash [durable] [auto-delete] [ARG=V ...]"},
	{Name: "exchange.bind", Params: []Param{onParam, req("destination", Name), req("source", Name), p("key", Name)},
		Extra: AnyArgs, Usage: "exchange.bind destination=E source=E [key=K] [ARG=V ...]"},
	{Name: "exchange.unbind", Params: []Param{onParam, req("destination", Name), req("source", Name), p("key", Name)},
		Extra: AnyArgs, Usage: "exchange.unbind destination=E source=E [key=K] [ARG=V ...]"},
	{Name: "exchange.delete", Params: []Param{onParam, req("exchange", Name)}, Usage: "exchange.delete exchange=E"},
	{Name: "basic.qos", Params: []Param{onParam, reqNum("prefetch", 0, 65535), p("global", Flag), num("prefetch-size", 0, 1<<32-1)},
		Usage: "basic.qos prefetch=N [global]"},
	{Name: "basic.consume", Params: []Param{onParam, p("queue", Name), p("tag", Name), p("no-ack", Flag), p("exclusive", Flag), num("ack-every", 1, 1_000_000), num("work-us", 0, 60_000_000)},
		Extra: XArgs, Usage: "basic.consume queue=Q [tag=T] [no-ack] [exclusive] [x-priority=N] [ack-every=N] [work-us=N]"},
	{Name: "basic.cancel", Params: []Param{onParam, req("tag", Name)}, Usage: "basic.cancel tag=T"},
	{Name: "basic.publish", Params: []Param{onParam, p("exchange", Name), p("key", Name), p("body", Str), num("size", 0, MaxBody),
		num("count", 0, MaxCount), p("persistent", Flag), num("priority", 0, 255), p("expiration", Str), p("mandatory", Flag), p("immediate", Flag),
		p("content-type", Str), p("content-encoding", Str), p("correlation-id", Str), p("reply-to", Name), p("message-id", Str),
		num("timestamp", 0, 1<<63-1), p("type", Str), p("user-id", Str), p("app-id", Str)},
		Extra: HeaderArgs, Usage: "basic.publish [exchange=E] [key=K] [body=TEXT | size=BYTES] [count=N] [persistent] [priority=N] [expiration=MS] [mandatory] [header.NAME=V ...]"},
	{Name: "basic.get", Params: []Param{onParam, p("queue", Name), p("no-ack", Flag)}, Usage: "basic.get queue=Q [no-ack]"},
	{Name: "basic.ack", Params: []Param{onParam, reqNum("tag", 0, 1<<62), p("multiple", Flag)}, Usage: "basic.ack tag=N [multiple]"},
	{Name: "basic.nack", Params: []Param{onParam, reqNum("tag", 0, 1<<62), p("multiple", Flag), p("requeue", BoolOr)},
		Usage: "basic.nack tag=N [multiple] [requeue=false]"},
	{Name: "basic.reject", Params: []Param{onParam, reqNum("tag", 0, 1<<62), p("requeue", BoolOr)}, Usage: "basic.reject tag=N [requeue=false]"},
	{Name: "basic.recover", Params: []Param{onParam, p("requeue", BoolOr)}, Usage: "basic.recover [requeue]"},
	{Name: "confirm.select", Params: []Param{onParam}, Usage: "confirm.select"},
	{Name: "tx.select", Params: []Param{onParam}, Usage: "tx.select"},
	{Name: "tx.commit", Params: []Param{onParam}, Usage: "tx.commit"},
	{Name: "tx.rollback", Params: []Param{onParam}, Usage: "tx.rollback"},
	{Name: "channel.close", Params: []Param{onParam}, Usage: "channel.close [on=cN.M]"},
	{Name: "connection.close", Params: []Param{onParam}, Usage: "connection.close [on=cN]"},
	{Name: "wait", Params: []Param{reqNum("ms", 0, 3_600_000)}, Usage: "wait ms=N"},

	{Name: "set_policy", Params: []Param{req("name", Name), req("pattern", Str), enum("apply-to", "queues", "exchanges", "all"), num("priority", -1<<31, 1<<31-1)},
		Extra: AnyArgs, Usage: "set_policy name=P pattern=REGEX [apply-to=queues|exchanges|all] [priority=N] KEY=V ..."},
	{Name: "clear_policy", Params: []Param{req("name", Name)}, Usage: "clear_policy name=P"},
	{Name: "list_queues", Extra: Words, WordSet: QueueColumns, Usage: "list_queues [COLUMN ...]"},
	{Name: "list_policies", Usage: "list_policies"},
	{Name: "list_exchanges", Extra: Words, WordSet: ExchangeColumns, Usage: "list_exchanges [COLUMN ...]"},
	{Name: "list_bindings", Extra: Words, WordSet: BindingColumns, Usage: "list_bindings [COLUMN ...]"},
	{Name: "list_consumers", Extra: Words, WordSet: ConsumerColumns, Usage: "list_consumers [COLUMN ...]"},
	{Name: "list_channels", Extra: Words, WordSet: ChannelColumns, Usage: "list_channels [COLUMN ...]"},
	{Name: "list_connections", Extra: Words, WordSet: ConnectionColumns, Usage: "list_connections [COLUMN ...]"},
	{Name: "purge_queue", Params: []Param{req("queue", Name)}, Usage: "purge_queue queue=Q"},
	{Name: "delete_queue", Params: []Param{req("queue", Name), p("if-unused", Flag), p("if-empty", Flag)}, Usage: "delete_queue queue=Q [if-unused] [if-empty]"},
	{Name: "crash", Params: []Param{req("queue", Name)}, Usage: "crash queue=Q"},
	{Name: "cluster", Params: []Param{reqNum("nodes", 2, 8), num("ram", 0, 7), num("link-us", 0, 1_000_000)},
		Usage: "cluster nodes=N [ram=K] [link-us=MICROSECONDS]"},
	{Name: "connect", Params: []Param{onParam, req("node", Name)}, Usage: "connect on=cN node=N|NAME"},
	{Name: "stop_app", Params: []Param{req("node", Name)}, Usage: "stop_app node=N|NAME"},
	{Name: "start_app", Params: []Param{req("node", Name)}, Usage: "start_app node=N|NAME"},

	// Simulation control: the engine only.
	{Name: "step", Params: []Param{num("n", 1, 1_000_000)}, Engine: true, Usage: "step [n=N]"},
	{Name: "run", Params: []Param{num("ms", 0, 3_600_000), num("events", 1, 100_000_000)}, Engine: true, Usage: "run [ms=N | events=N]"},
	{Name: "show", Extra: Words, WordSet: ShowViews, Engine: true, Usage: "show [" + strings.Join(ShowViews, "|") + "]"},
	{Name: "set", Params: []Param{num("schedulers", 1, 64), num("watermark", 1, 1<<50), num("memory-per-message", 0, 1<<30), enum("trace", "full", "summary"), enum("version", "3.10", "3.13", "4.0"), num("file-size-limit", 4096, 1<<34),
		enum("queue-master-locator", "client-local", "min-masters", "random")},
		Engine: true, Usage: "set [version=3.10|3.13|4.0] [schedulers=N] [watermark=BYTES] [memory-per-message=BYTES] [trace=full|summary] [file-size-limit=BYTES] [queue-master-locator=client-local|min-masters|random]"},

	{Name: "expect", Params: []Param{p("queue", Name), enum("saw", SawKinds...), onParam, p("redelivered", Flag), p("persistent", Flag),
		p("process", Str), p("credit", Str), p("file", Str), enum("alarm", "memory", "disk", "none"), enum("never", NeverKinds...), num("within-ms", 0, 3_600_000)}, Extra: AnyArgs, Engine: true,
		Usage: "expect queue=Q COLUMN=V ... | expect on=CONN[.CH] saw=KIND [FIELD=V ...] [redelivered] [persistent]"},
	{Name: "restart", Params: []Param{enum("kind", "clean", "crash", "power-loss")}, Engine: true,
		Usage: "restart [kind=clean|crash|power-loss]"},
	{Name: "fault", Params: []Param{p("path", Str), p("node", Name)}, Extra: Words, WordSet: FaultWords, Engine: true,
		Usage: "fault sync-fail|write-fail|enospc path=GLOB [node=N] | fault clear [node=N]"},
	{Name: "alarm", Params: []Param{enum("set", "memory", "disk"), enum("clear", "memory", "disk")}, Engine: true,
		Usage: "alarm set=memory|disk | alarm clear=memory|disk"},
}

// NoQueue is how both targets refuse an operator command that names a
// queue that does not exist.
func NoQueue(cmd, name string) string { return cmd + ": no queue '" + name + "' in vhost '/'" }

// QueueColumns are the list_queues columns warren knows.
var QueueColumns = []string{"name", "messages", "messages_ready", "messages_unacknowledged", "consumers",
	"durable", "auto_delete", "exclusive", "policy", "arguments", "memory", "state", "message_bytes", "node"}

// ExchangeColumns are the list_exchanges columns warren knows.
var ExchangeColumns = []string{"name", "type", "durable", "auto_delete", "internal", "arguments", "policy"}

// BindingColumns are the list_bindings columns.
var BindingColumns = []string{"source_name", "source_kind", "destination_name", "destination_kind", "routing_key", "arguments"}

// ConsumerColumns are the list_consumers columns warren knows; channel
// names the consumer's channel as on= does (rabbitmqctl shows its pid).
var ConsumerColumns = []string{"queue_name", "consumer_tag", "channel", "ack_required", "prefetch_count", "active", "activity_status", "arguments"}

// ChannelColumns are the list_channels columns warren knows.
var ChannelColumns = []string{"name", "connection", "number", "user", "consumer_count", "messages_unacknowledged", "prefetch_count",
	"global_prefetch_count", "confirm", "transactional", "messages_unconfirmed", "messages_uncommitted", "acks_uncommitted"}

// ConnectionColumns are the list_connections columns warren knows.
var ConnectionColumns = []string{"name", "state", "channels", "user", "vhost"}

// SawKinds are the kinds of trace line `expect saw=` looks for.
// NeverKinds are what `expect never=` says never happened: a connection's
// reader never stopped reading its socket (blocked), a channel never had a
// publish nacked or returned (dropped).
var NeverKinds = []string{"blocked", "dropped"}

// ExpectColumns are the fields the goals on processes, credit and files
// compare, by form.
var ExpectColumns = map[string][]string{
	"process": {"state", "mailbox", "blocked"},
	"credit":  {"left", "blocked"},
	"file":    {"entries", "live", "dead", "size"},
}

var SawKinds = []string{"declare-ok", "delete-ok", "purge-ok", "consume-ok", "deliver", "get-ok", "get-empty",
	"confirm-ack", "confirm-nack", "return", "cancelled", "closed", "blocked", "unblocked", "connection-lost"}

// FaultWords are the faults `fault` injects, and clear.
var FaultWords = []string{"sync-fail", "write-fail", "enospc", "clear"}

// ShowViews are the views `show` can print.
var ShowViews = []string{"files", "disk", "gc", "throughput", "rates", "schedulers", "cpu", "processes", "supervisors", "cluster", "queues", "consumers", "credit", "memory", "clock", "exchanges", "bindings"}

var specByName = func() map[string]*Spec {
	m := make(map[string]*Spec, len(specs)+1)
	for _, s := range specs {
		m[s.Name] = s
	}
	m[submitSpec.Name] = submitSpec
	return m
}()

// Lookup returns the signature of a command.
func Lookup(name string) (*Spec, bool) {
	s, ok := specByName[name]
	return s, ok
}

// Specs lists the signature of every command, submit aside (it wraps
// another command), in the order of the language's reference.
func Specs() []*Spec { return append([]*Spec(nil), specs...) }

// Names lists every command, sorted (for completion in the console).
func Names() []string {
	out := make([]string, 0, len(specs)+1)
	out = append(out, "submit")
	for _, s := range specs {
		out = append(out, s.Name)
	}
	sort.Strings(out)
	return out
}

// closest returns the known word nearest to w, if it is close enough to be a
// likely typo.
func closest(w string, words []string) string {
	best, bestD := "", 1<<30
	for _, c := range words {
		if d := editDistance(w, c); d < bestD {
			best, bestD = c, d
		}
	}
	if bestD <= 2 || (bestD <= 3 && len(w) > 8) {
		return best
	}
	return ""
}

func editDistance(a, b string) int {
	prev := make([]int, len(b)+1)
	cur := make([]int, len(b)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(a); i++ {
		cur[0] = i
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
		}
		prev, cur = cur, prev
	}
	return prev[len(b)]
}
