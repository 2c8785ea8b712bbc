package engine

// The operator commands, named after rabbitmqctl's: policies, list_queues,
// crashing a queue process, and stopping and starting a node's app. A
// refusal is rabbitmqctl's own, checked before the node is touched.

import (
	"fmt"
	"strconv"
	"strings"

	"warren/engine/node"
	"warren/engine/say"
	"warren/engine/script"
	"warren/engine/trace"
)

// operatorCommands are the rabbitmqctl commands.
var operatorCommands = []command{
	{"set_policy", handler{family: familyOperator,
		check: func(s *Sim, cmd script.Command) error {
			return node.CheckPolicy(cmd.Str("pattern", ""), cmd.Table())
		},
		apply: func(s *Sim, cmd script.Command) ([]string, error) {
			return nil, s.cluster.SetPolicy(cmd.Str("name", ""), cmd.Str("pattern", ""), cmd.Str("apply-to", "all"), int(cmd.Int("priority", 0)), cmd.Table())
		}}},
	{"clear_policy", handler{family: familyOperator,
		check: func(s *Sim, cmd script.Command) error {
			if !s.cluster.HasPolicy(cmd.Str("name", "")) {
				return node.ErrNoPolicy
			}
			return nil
		},
		apply: func(s *Sim, cmd script.Command) ([]string, error) {
			return nil, s.cluster.ClearPolicy(cmd.Str("name", ""))
		}}},
	{"list_policies", handler{family: familyOperator, apply: listPolicies}},
	{"list_queues", handler{family: familyOperator, apply: listQueues}},
	{"crash", handler{family: familyOperator,
		check: func(s *Sim, cmd script.Command) error { return s.cluster.CheckCrash(cmd.Str("queue", "")) },
		apply: func(s *Sim, cmd script.Command) ([]string, error) {
			return nil, s.cluster.CrashQueue(cmd.Str("queue", ""))
		}}},
	{"stop_app", handler{family: familyOperator, check: checkApp,
		apply: func(s *Sim, cmd script.Command) ([]string, error) {
			m, err := s.cluster.Member(cmd.Str("node", ""))
			if err != nil {
				return nil, err
			}
			return nil, s.cluster.StopApp(m)
		}}},
	{"start_app", handler{family: familyOperator, check: checkApp,
		apply: func(s *Sim, cmd script.Command) ([]string, error) {
			m, err := s.cluster.Member(cmd.Str("node", ""))
			if err != nil {
				return nil, err
			}
			return nil, s.cluster.StartApp(m)
		}}},
}

// checkApp refuses stop_app and start_app on a node that is not there, on
// a single node, and where the build cannot do it.
func checkApp(s *Sim, cmd script.Command) error {
	if _, err := s.cluster.Member(cmd.Str("node", "")); err != nil {
		return say.Wrap("con.named", err, cmd.Name)
	}
	return s.cluster.CheckApp(cmd.Name)
}

func listPolicies(s *Sim, _ script.Command) ([]string, error) {
	var out []string
	for _, p := range s.cluster.Policies() {
		out = append(out, trace.PolicyLine(p.Name, p.Pattern, p.ApplyTo, p.Priority, p.Definition))
	}
	return out, nil
}

// listQueues prints `queue name=Q COLUMN=V ...` for each queue, by name.
func listQueues(s *Sim, cmd script.Command) ([]string, error) {
	cols := cmd.Words()
	if len(cols) == 0 {
		cols = []string{"messages"}
	}
	var out []string
	for _, q := range s.cluster.ListQueues() {
		var b strings.Builder
		b.WriteString("queue name=" + q.Name)
		for _, c := range cols {
			if c == "name" {
				continue
			}
			b.WriteString(" " + c + "=" + queueColumn(q, c))
		}
		out = append(out, b.String())
	}
	return out, nil
}

func queueColumn(q node.QueueInfo, col string) string {
	if q.Down {
		// rabbitmqctl cannot ask the process of a queue whose node is down
		switch col {
		case "messages", "messages_ready", "messages_unacknowledged", "consumers", "memory", "message_bytes", "consumer_utilisation":
			return ""
		case "state":
			return "down"
		}
	}
	switch col {
	case "messages":
		return strconv.Itoa(q.Messages)
	case "messages_ready":
		return strconv.Itoa(q.Ready)
	case "messages_unacknowledged":
		return strconv.Itoa(q.Unack)
	case "consumers":
		return strconv.Itoa(q.Consumers)
	case "durable":
		return strconv.FormatBool(q.Durable)
	case "auto_delete":
		return strconv.FormatBool(q.AutoDelete)
	case "exclusive":
		return strconv.FormatBool(q.Exclusive)
	case "policy":
		return q.Policy
	case "message_bytes":
		return strconv.FormatInt(q.Bytes, 10)
	case "consumer_utilisation":
		return node.FormatUtilisation(q.Consumers, q.Utilisation)
	case "arguments":
		return trace.CtlTable(q.Args)
	case "state":
		return "running"
	case "node":
		return q.Node
	}
	return fmt.Sprintf("?%s", col)
}
