package broker

import (
	"sort"
	"strings"

	"warren/engine/script"
)

// names are the broker objects a file touches, found by reading its
// commands: the runner deletes them before and after the file so that
// files do not see each other's leftovers.
type names struct {
	queues    []string
	exchanges []string
	policies  []string
	declared  map[string]bool // queues named by queue.declare: what list_queues shows
}

// exchangeArgs are the table keys whose value names an exchange.
var exchangeArgs = []string{"x-dead-letter-exchange", "dead-letter-exchange", "alternate-exchange"}

// scanNames collects every queue= and exchange= name of cmds, the exchanges
// named by dead-letter and alternate-exchange arguments and policy keys, and
// every policy name. Built-in names (the default exchange, amq.*) are left
// out: they cannot be deleted.
func scanNames(cmds []script.Command) names {
	qs, xs, ps := map[string]bool{}, map[string]bool{}, map[string]bool{}
	n := names{declared: map[string]bool{}}
	for i := range cmds {
		c := &cmds[i]
		if c.Name == "import_definitions" {
			definitionNames(c, qs, xs, ps, n.declared)
			continue
		}
		if q, ok := c.Arg("queue"); ok {
			qs[q.Val] = true
			if c.Name == "queue.declare" {
				n.declared[q.Val] = true
			}
		}
		for _, k := range []string{"exchange", "source", "destination"} {
			if x, ok := c.Arg(k); ok && (k == "exchange" || c.Name == "exchange.bind" || c.Name == "exchange.unbind") {
				xs[x.Val] = true
			}
		}
		for _, f := range c.Table() {
			for _, k := range exchangeArgs {
				if f.Key == k {
					xs[f.Val.String()] = true
				}
			}
		}
		if c.Name == "set_policy" || c.Name == "clear_policy" {
			ps[c.Str("name", "")] = true
		}
	}
	n.queues, n.exchanges, n.policies = deletable(qs), deletable(xs), sorted(ps)
	return n
}

func deletable(set map[string]bool) []string {
	var out []string
	for _, s := range sorted(set) {
		if s != "" && !strings.HasPrefix(s, "amq.") {
			out = append(out, s)
		}
	}
	return out
}

func sorted(set map[string]bool) []string {
	out := make([]string, 0, len(set))
	for s := range set {
		out = append(out, s)
	}
	sort.Strings(out)
	return out
}
