package script

import (
	"strings"

	"warren/engine/internal/order"
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

// MaxBody is the largest message body the language accepts (RabbitMQ's
// default max_message_size, 128 MiB).
const MaxBody = 134217728

// MaxCount bounds count=N on basic.publish.
const MaxCount = 10_000_000

var specs = []*Spec{
	{Name: "queue.declare", Params: []Param{{Key: "on", Kind: On}, {Key: "queue", Kind: Name}, {Key: "durable", Kind: Flag}, {Key: "exclusive", Kind: Flag}, {Key: "auto-delete", Kind: Flag}, {Key: "passive", Kind: Flag}},
		Extra: XArgs, Usage: "queue.declare queue=Q [durable] [exclusive] [auto-delete] [passive] [x-ARG=V ...]"},
	{Name: "queue.delete", Params: []Param{{Key: "on", Kind: On}, {Key: "queue", Kind: Name}, {Key: "if-unused", Kind: Flag}, {Key: "if-empty", Kind: Flag}},
		Usage: "queue.delete queue=Q [if-unused] [if-empty]"},
	{Name: "queue.purge", Params: []Param{{Key: "on", Kind: On}, {Key: "queue", Kind: Name}}, Usage: "queue.purge queue=Q"},
	{Name: "queue.bind", Params: []Param{{Key: "on", Kind: On}, {Key: "queue", Kind: Name}, {Key: "exchange", Kind: Name, Required: true}, {Key: "key", Kind: Name}},
		Extra: AnyArgs, Usage: "queue.bind queue=Q exchange=E [key=K] [ARG=V ...]"},
	{Name: "queue.unbind", Params: []Param{{Key: "on", Kind: On}, {Key: "queue", Kind: Name}, {Key: "exchange", Kind: Name, Required: true}, {Key: "key", Kind: Name}},
		Extra: AnyArgs, Usage: "queue.unbind queue=Q exchange=E [key=K] [ARG=V ...]"},
	{Name: "exchange.declare", Params: []Param{{Key: "on", Kind: On}, {Key: "exchange", Kind: Name, Required: true}, {Key: "type", Kind: Str}, {Key: "durable", Kind: Flag}, {Key: "auto-delete", Kind: Flag}, {Key: "passive", Kind: Flag}, {Key: "internal", Kind: Flag}},
		Extra: AnyArgs, Usage: "exchange.declare exchange=E type=direct|fanout|topic|headers|x-consistent-hash [durable] [auto-delete] [ARG=V ...]"},
	{Name: "exchange.bind", Params: []Param{{Key: "on", Kind: On}, {Key: "destination", Kind: Name, Required: true}, {Key: "source", Kind: Name, Required: true}, {Key: "key", Kind: Name}},
		Extra: AnyArgs, Usage: "exchange.bind destination=E source=E [key=K] [ARG=V ...]"},
	{Name: "exchange.unbind", Params: []Param{{Key: "on", Kind: On}, {Key: "destination", Kind: Name, Required: true}, {Key: "source", Kind: Name, Required: true}, {Key: "key", Kind: Name}},
		Extra: AnyArgs, Usage: "exchange.unbind destination=E source=E [key=K] [ARG=V ...]"},
	{Name: "exchange.delete", Params: []Param{{Key: "on", Kind: On}, {Key: "exchange", Kind: Name, Required: true}}, Usage: "exchange.delete exchange=E"},
	{Name: "basic.qos", Params: []Param{{Key: "on", Kind: On}, {Key: "prefetch", Kind: Int, Min: 0, Max: 65535, Required: true}, {Key: "global", Kind: Flag}, {Key: "prefetch-size", Kind: Int, Min: 0, Max: 1<<32 - 1}},
		Usage: "basic.qos prefetch=N [global]"},
	{Name: "basic.consume", Params: []Param{{Key: "on", Kind: On}, {Key: "queue", Kind: Name}, {Key: "tag", Kind: Name}, {Key: "no-ack", Kind: Flag}, {Key: "exclusive", Kind: Flag}, {Key: "ack-every", Kind: Int, Min: 1, Max: 1_000_000}, {Key: "work-us", Kind: Int, Min: 0, Max: 60_000_000}},
		Extra: XArgs, Usage: "basic.consume queue=Q [tag=T] [no-ack] [exclusive] [x-priority=N] [ack-every=N] [work-us=N]"},
	{Name: "basic.cancel", Params: []Param{{Key: "on", Kind: On}, {Key: "tag", Kind: Name, Required: true}}, Usage: "basic.cancel tag=T"},
	{Name: "basic.publish", Params: []Param{{Key: "on", Kind: On}, {Key: "exchange", Kind: Name}, {Key: "key", Kind: Name}, {Key: "body", Kind: Str}, {Key: "size", Kind: Int, Min: 0, Max: MaxBody},
		{Key: "count", Kind: Int, Min: 0, Max: MaxCount}, {Key: "persistent", Kind: Flag}, {Key: "priority", Kind: Int, Min: 0, Max: 255}, {Key: "expiration", Kind: Str}, {Key: "mandatory", Kind: Flag}, {Key: "immediate", Kind: Flag},
		{Key: "content-type", Kind: Str}, {Key: "content-encoding", Kind: Str}, {Key: "correlation-id", Kind: Str}, {Key: "reply-to", Kind: Name}, {Key: "message-id", Kind: Str},
		{Key: "timestamp", Kind: Int, Min: 0, Max: 1<<63 - 1}, {Key: "type", Kind: Str}, {Key: "user-id", Kind: Str}, {Key: "app-id", Kind: Str}},
		Extra: HeaderArgs, Usage: "basic.publish [exchange=E] [key=K] [body=TEXT | size=BYTES] [count=N] [persistent] [priority=N] [expiration=MS] [mandatory] [header.NAME=V ...] [content-type=T] [content-encoding=E] [correlation-id=ID] [reply-to=Q] [message-id=ID] [timestamp=N] [type=T] [user-id=U] [app-id=A]"},
	{Name: "basic.get", Params: []Param{{Key: "on", Kind: On}, {Key: "queue", Kind: Name}, {Key: "no-ack", Kind: Flag}}, Usage: "basic.get queue=Q [no-ack]"},
	{Name: "basic.ack", Params: []Param{{Key: "on", Kind: On}, {Key: "tag", Kind: Int, Min: 0, Max: 1 << 62, Required: true}, {Key: "multiple", Kind: Flag}}, Usage: "basic.ack tag=N [multiple]"},
	{Name: "basic.nack", Params: []Param{{Key: "on", Kind: On}, {Key: "tag", Kind: Int, Min: 0, Max: 1 << 62, Required: true}, {Key: "multiple", Kind: Flag}, {Key: "requeue", Kind: BoolOr}},
		Usage: "basic.nack tag=N [multiple] [requeue=false]"},
	{Name: "basic.reject", Params: []Param{{Key: "on", Kind: On}, {Key: "tag", Kind: Int, Min: 0, Max: 1 << 62, Required: true}, {Key: "requeue", Kind: BoolOr}}, Usage: "basic.reject tag=N [requeue=false]"},
	{Name: "basic.recover", Params: []Param{{Key: "on", Kind: On}, {Key: "requeue", Kind: BoolOr}}, Usage: "basic.recover [requeue]"},
	{Name: "confirm.select", Params: []Param{{Key: "on", Kind: On}}, Usage: "confirm.select"},
	{Name: "tx.select", Params: []Param{{Key: "on", Kind: On}}, Usage: "tx.select"},
	{Name: "tx.commit", Params: []Param{{Key: "on", Kind: On}}, Usage: "tx.commit"},
	{Name: "tx.rollback", Params: []Param{{Key: "on", Kind: On}}, Usage: "tx.rollback"},
	{Name: "channel.close", Params: []Param{{Key: "on", Kind: On}}, Usage: "channel.close [on=cN.M]"},
	{Name: "connection.close", Params: []Param{{Key: "on", Kind: On}}, Usage: "connection.close [on=cN]"},
	{Name: "wait", Params: []Param{{Key: "ms", Kind: Int, Min: 0, Max: 3_600_000, Required: true}}, Usage: "wait ms=N"},

	{Name: "set_policy", Params: []Param{{Key: "name", Kind: Name, Required: true}, {Key: "pattern", Kind: Str, Required: true}, {Key: "apply-to", Kind: Enum, Values: []string{"queues", "exchanges", "all"}}, {Key: "priority", Kind: Int, Min: -1 << 31, Max: 1<<31 - 1}},
		Extra: AnyArgs, Usage: "set_policy name=P pattern=REGEX [apply-to=queues|exchanges|all] [priority=N] KEY=V ..."},
	{Name: "clear_policy", Params: []Param{{Key: "name", Kind: Name, Required: true}}, Usage: "clear_policy name=P"},
	{Name: "list_queues", Extra: Words, WordSet: QueueColumns, Usage: "list_queues [COLUMN ...]"},
	{Name: "list_policies", Usage: "list_policies"},
	{Name: "list_exchanges", Extra: Words, WordSet: ExchangeColumns, Usage: "list_exchanges [COLUMN ...]"},
	{Name: "list_bindings", Extra: Words, WordSet: BindingColumns, Usage: "list_bindings [COLUMN ...]"},
	{Name: "list_consumers", Extra: Words, WordSet: ConsumerColumns, Usage: "list_consumers [COLUMN ...]"},
	{Name: "list_channels", Extra: Words, WordSet: ChannelColumns, Usage: "list_channels [COLUMN ...]"},
	{Name: "list_connections", Extra: Words, WordSet: ConnectionColumns, Usage: "list_connections [COLUMN ...]"},
	{Name: "purge_queue", Params: []Param{{Key: "queue", Kind: Name, Required: true}}, Usage: "purge_queue queue=Q"},
	{Name: "delete_queue", Params: []Param{{Key: "queue", Kind: Name, Required: true}, {Key: "if-unused", Kind: Flag}, {Key: "if-empty", Kind: Flag}}, Usage: "delete_queue queue=Q [if-unused] [if-empty]"},
	{Name: "import_definitions", Params: []Param{{Key: "node", Kind: Name}, {Key: "json", Kind: Str, Required: true}}, Usage: "import_definitions [node=N|NAME] {JSON as rabbitmqctl export_definitions writes it}"},
	{Name: "export_definitions", Engine: true, Usage: "export_definitions"},
	{Name: "crash", Params: []Param{{Key: "queue", Kind: Name, Required: true}}, Usage: "crash queue=Q"},
	{Name: "cluster", Params: []Param{{Key: "nodes", Kind: Int, Min: 2, Max: 8, Required: true}, {Key: "ram", Kind: Int, Min: 0, Max: 7}, {Key: "link-us", Kind: Int, Min: 0, Max: 1_000_000}},
		Usage: "cluster nodes=N [ram=K] [link-us=MICROSECONDS]"},
	{Name: "connect", Params: []Param{{Key: "on", Kind: On}, {Key: "node", Kind: Name, Required: true}}, Usage: "connect on=cN node=N|NAME"},
	{Name: "stop_app", Params: []Param{{Key: "node", Kind: Name, Required: true}}, Usage: "stop_app node=N|NAME"},
	{Name: "start_app", Params: []Param{{Key: "node", Kind: Name, Required: true}}, Usage: "start_app node=N|NAME"},

	// Simulation control: the engine only.
	{Name: "step", Params: []Param{{Key: "n", Kind: Int, Min: 1, Max: 1_000_000}}, Engine: true, Usage: "step [n=N]"},
	{Name: "run", Params: []Param{{Key: "ms", Kind: Int, Min: 0, Max: 3_600_000}, {Key: "events", Kind: Int, Min: 1, Max: 100_000_000}}, Engine: true, Usage: "run [ms=N | events=N]"},
	{Name: "show", Extra: Words, WordSet: ShowViews, Engine: true, Usage: "show [files|disk|reads|gc|throughput|rates|schedulers|cpu|processes|process-memory|supervisors|cluster|queues|consumers|credit|memory|clock|exchanges|bindings]"},
	{Name: "set", Params: []Param{{Key: "schedulers", Kind: Int, Min: 1, Max: 64}, {Key: "watermark", Kind: Int, Min: 1, Max: 1 << 50}, {Key: "memory-per-message", Kind: Int, Min: 0, Max: 1 << 30}, {Key: "trace", Kind: Enum, Values: []string{"full", "summary"}}, {Key: "version", Kind: Enum, Values: []string{"3.10", "3.13", "4.0"}}, {Key: "file-size-limit", Kind: Int, Min: 4096, Max: 1 << 34},
		{Key: "queue-master-locator", Kind: Enum, Values: []string{"client-local", "min-masters", "random"}}, {Key: "consumer-timeout", Kind: Int, Min: 0, Max: 1 << 40}},
		Engine: true, Usage: "set [version=3.10|3.13|4.0] [schedulers=N] [watermark=BYTES] [memory-per-message=BYTES] [trace=full|summary] [file-size-limit=BYTES] [queue-master-locator=client-local|min-masters|random]"},

	{Name: "expect", Params: []Param{{Key: "queue", Kind: Name}, {Key: "saw", Kind: Enum, Values: SawKinds}, {Key: "on", Kind: On}, {Key: "redelivered", Kind: Flag}, {Key: "persistent", Kind: Flag},
		{Key: "process", Kind: Str}, {Key: "credit", Kind: Str}, {Key: "file", Kind: Str}, {Key: "alarm", Kind: Enum, Values: []string{"memory", "disk", "none"}}, {Key: "never", Kind: Enum, Values: NeverKinds}, {Key: "within-ms", Kind: Int, Min: 0, Max: 3_600_000},
		{Key: "after", Kind: Enum, Values: RestartKinds}, {Key: "gone", Kind: Flag}}, Extra: AnyArgs, Engine: true,
		Usage: "expect queue=Q COLUMN=V ... | expect on=CONN[.CH] saw=KIND [FIELD=V ...] [redelivered] [persistent]"},
	{Name: "restart", Params: []Param{{Key: "kind", Kind: Enum, Values: RestartKinds}}, Engine: true,
		Usage: "restart [kind=clean|crash|power-loss]"},
	{Name: "fault", Params: []Param{{Key: "path", Kind: Str}, {Key: "node", Kind: Name}}, Extra: Words, WordSet: FaultWords, Engine: true,
		Usage: "fault sync-fail|write-fail|enospc path=GLOB [node=N] | fault clear [node=N]"},
	{Name: "alarm", Params: []Param{{Key: "set", Kind: Enum, Values: []string{"memory", "disk"}}, {Key: "clear", Kind: Enum, Values: []string{"memory", "disk"}}}, Engine: true,
		Usage: "alarm set=memory|disk | alarm clear=memory|disk"},
}

// RestartKinds are the ways `restart kind=` stops the node, which
// `expect ... after=` names.
var RestartKinds = []string{"clean", "crash", "power-loss"}

// NoQueue is how both targets refuse an operator command that names a
// queue that does not exist.
func NoQueue(cmd, name string) string { return cmd + ": no queue '" + name + "' in vhost '/'" }

// QueueColumns are the list_queues columns warren knows.
var QueueColumns = []string{"name", "messages", "messages_ready", "messages_unacknowledged", "consumers",
	"durable", "auto_delete", "exclusive", "policy", "arguments", "memory", "state", "message_bytes", "node", "consumer_utilisation"}

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
	"file":    {"entries", "live", "dead", "size", "synced"},
}

var SawKinds = []string{"declare-ok", "delete-ok", "purge-ok", "consume-ok", "deliver", "get-ok", "get-empty",
	"confirm-ack", "confirm-nack", "return", "cancelled", "closed", "blocked", "unblocked", "connection-lost"}

// FaultWords are the faults `fault` injects, and clear.
var FaultWords = []string{"sync-fail", "write-fail", "enospc", "clear"}

// ShowViews are the views `show` can print.
var ShowViews = []string{"files", "disk", "reads", "gc", "throughput", "rates", "schedulers", "cpu", "processes", "process-memory", "supervisors", "cluster", "queues", "consumers", "credit", "memory", "clock", "exchanges", "bindings"}

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
	order.Strings(out)
	return out
}

// closest returns the known word nearest to w, if it is close enough to be a
// likely typo.
func closest(w string, words []string) string {
	best, bestD := "", 1<<30
	for _, c := range words {
		if len(w) > len(c)+3 || len(c) > len(w)+3 {
			continue // more than 3 edits apart: not worth the distance
		}
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
