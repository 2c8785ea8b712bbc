package engine

// rabbitmqctl's list commands beyond list_queues (list_exchanges,
// list_bindings, list_consumers, list_channels, list_connections), and
// purge_queue and delete_queue. Each prints a line per item, sorted, keys
// first, then the columns asked or the defaults, valued as rabbitmqctl
// 3.10.8 prints them.

import (
	"slices"
	"strconv"
	"strings"

	"warren/engine/node"
	"warren/engine/script"
	"warren/engine/trace"
)

var listCommands = []command{
	{"list_exchanges", handler{family: familyOperator, apply: func(s *Sim, cmd script.Command) ([]string, error) {
		cols := columns(cmd, []string{"name"}, []string{"type"})
		var out []string
		for _, x := range s.cluster.ListExchanges() {
			out = append(out, row("exchange", cols, func(c string) string {
				switch c {
				case "name":
					return x.Name
				case "type":
					return x.Type
				case "durable":
					return strconv.FormatBool(x.Durable)
				case "auto_delete":
					return strconv.FormatBool(x.AutoDelete)
				case "internal":
					return strconv.FormatBool(x.Internal)
				case "arguments":
					return trace.CtlTable(x.Args)
				}
				return x.Policy
			}))
		}
		return out, nil
	}}},
	{"list_bindings", handler{family: familyOperator, apply: func(s *Sim, cmd script.Command) ([]string, error) {
		cols := columns(cmd, []string{"source_name", "destination_name"}, []string{"source_kind", "destination_kind", "routing_key", "arguments"})
		var out []string
		for _, b := range s.cluster.ListBindings() {
			out = append(out, row("binding", cols, func(c string) string {
				switch c {
				case "source_name":
					return b.Source
				case "source_kind":
					return b.SourceKind
				case "destination_name":
					return b.Destination
				case "destination_kind":
					return b.DestinationKind
				case "routing_key":
					return b.Key
				}
				return trace.CtlTable(b.Args)
			}))
		}
		return out, nil
	}}},
	{"list_consumers", handler{family: familyOperator, apply: func(s *Sim, cmd script.Command) ([]string, error) {
		cols := columns(cmd, []string{"queue_name", "consumer_tag"}, []string{"channel", "ack_required", "prefetch_count", "active", "arguments"})
		var out []string
		for _, k := range s.cluster.ListConsumers() {
			out = append(out, row("consumer", cols, func(c string) string {
				switch c {
				case "queue_name":
					return k.Queue
				case "consumer_tag":
					return k.Tag
				case "channel":
					return k.Channel
				case "ack_required":
					return strconv.FormatBool(k.AckRequired)
				case "prefetch_count":
					return strconv.Itoa(k.Prefetch)
				case "active":
					return strconv.FormatBool(k.Active)
				case "activity_status":
					return k.ActivityStatus
				}
				return trace.CtlTable(k.Args)
			}))
		}
		return out, nil
	}}},
	{"list_channels", handler{family: familyOperator, apply: func(s *Sim, cmd script.Command) ([]string, error) {
		cols := columns(cmd, []string{"name"}, []string{"consumer_count", "messages_unacknowledged"})
		var out []string
		for _, ch := range s.cluster.ListChannels() {
			out = append(out, row("channel", cols, func(c string) string {
				switch c {
				case "name":
					return "c" + strconv.Itoa(ch.Conn) + "." + strconv.Itoa(ch.Num)
				case "connection":
					return "c" + strconv.Itoa(ch.Conn)
				case "number":
					return strconv.Itoa(ch.Num)
				case "user":
					return node.User
				case "consumer_count":
					return strconv.Itoa(ch.Consumers)
				case "messages_unacknowledged":
					return strconv.Itoa(ch.Unacked)
				case "prefetch_count":
					return strconv.Itoa(ch.Prefetch)
				case "global_prefetch_count":
					return strconv.Itoa(ch.Global)
				case "confirm":
					return strconv.FormatBool(ch.Confirm)
				case "transactional":
					return strconv.FormatBool(ch.Tx)
				case "messages_unconfirmed":
					return strconv.Itoa(ch.Unconfirmed)
				case "messages_uncommitted":
					return strconv.Itoa(ch.UncommittedMessages)
				}
				return strconv.Itoa(ch.UncommittedAcks)
			}))
		}
		return out, nil
	}}},
	{"list_connections", handler{family: familyOperator, apply: func(s *Sim, cmd script.Command) ([]string, error) {
		cols := columns(cmd, []string{"name"}, []string{"state", "channels"})
		var out []string
		for _, cn := range s.cluster.ListConnections() {
			out = append(out, row("connection", cols, func(c string) string {
				switch c {
				case "name":
					return "c" + strconv.Itoa(cn.Conn)
				case "state":
					return cn.State
				case "channels":
					return strconv.Itoa(cn.Channels)
				case "user":
					return node.User
				}
				return "/"
			}))
		}
		return out, nil
	}}},
	{"purge_queue", queueAdmin},
	{"delete_queue", queueAdmin},
}

var queueAdmin = handler{family: familyOperator,
	check: func(s *Sim, cmd script.Command) error {
		return s.cluster.CheckQueueAdmin(cmd.Name, cmd.Str("queue", ""), cmd.Has("if-unused"), cmd.Has("if-empty"))
	},
	apply: func(s *Sim, cmd script.Command) ([]string, error) {
		s.cluster.QueueAdmin(cmd.Name, cmd.Str("queue", ""))
		return nil, nil
	}}

// columns is the keys, then the words asked that are not keys, or the
// defaults.
func columns(cmd script.Command, keys, defaults []string) []string {
	words := cmd.Words()
	if len(words) == 0 {
		return append(append([]string(nil), keys...), defaults...)
	}
	out := append([]string(nil), keys...)
	for _, w := range words {
		if !slices.Contains(keys, w) {
			out = append(out, w)
		}
	}
	return out
}

// row prints `KIND col=V ...`.
func row(kind string, cols []string, val func(string) string) string {
	var b strings.Builder
	b.WriteString(kind)
	for _, c := range cols {
		b.WriteString(" " + c + "=" + val(c))
	}
	return b.String()
}
