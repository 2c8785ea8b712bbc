package broker

import (
	"strings"

	"warren/engine/definitions"
	"warren/engine/node"
	"warren/engine/script"
)

// importDefinitions runs import_definitions on the broker: the file's
// topology for the vhost / (what the engine imports, written again by
// engine/definitions, so that no user, permission or other vhost of the
// file reaches the shared broker) goes to `rabbitmqctl
// import_definitions` on its standard input, on the node that node=
// names (rabbitmqctl -n) or the first. It prints what the engine prints: one line per
// kind of thing left out, and the bindings the broker skips (whose
// exchange or queue is neither in the file nor on the broker).
func (t *Target) importDefinitions(cmd *script.Command) []string {
	d, err := definitions.Parse(cmd.Str("json", ""))
	if err != nil {
		return []string{"error: import_definitions: " + err.Error()}
	}
	xs, err := t.brokerNames("list_exchanges")
	if err != nil {
		return []string{"error: import_definitions: " + err.Error()}
	}
	qs, err := t.brokerNames("list_queues")
	if err != nil {
		return []string{"error: import_definitions: " + err.Error()}
	}
	var out []string
	for _, l := range d.Left {
		out = append(out, l.Line())
	}
	kept, dangling := definitions.Dangling(d, func(n string) bool { return xs[n] }, func(n string) bool { return qs[n] })
	if dangling != nil {
		out = append(out, dangling.Line())
	}
	topo := *d
	topo.Bindings = kept
	// NB: from standard input, as rabbitmqctl may run as another user
	// (Debian's runs as rabbitmq), who could not read a file of ours.
	on := t.cfg.Node
	if cmd.Has("node") {
		i, err := t.nodeIndex(cmd)
		if err != nil {
			return append(out, "error: import_definitions: "+err.Error())
		}
		on = node.NodeName(i)
	}
	_, err = t.ctlInput(on, definitions.Topology(&topo), "import_definitions", "--format", "json")
	if err != nil {
		return append(out, "error: "+err.Error())
	}
	return out
}

// brokerNames lists the names of every exchange or queue of the vhost.
func (t *Target) brokerNames(list string) (map[string]bool, error) {
	stdout, err := t.ctl(list, "--no-table-headers", "name")
	if err != nil {
		return nil, err
	}
	names := map[string]bool{}
	for _, l := range strings.Split(strings.TrimRight(stdout, "\n"), "\n") {
		names[l] = true
	}
	return names, nil
}

// definitionNames adds the queues, exchanges and policies an
// import_definitions command defines to what the runner deletes and what
// list_queues shows.
func definitionNames(c *script.Command, qs, xs, ps, declared map[string]bool) {
	d, err := definitions.Parse(c.Str("json", ""))
	if err != nil {
		return
	}
	for _, q := range d.Queues {
		qs[q.Name] = true
		declared[q.Name] = true
	}
	for _, x := range d.Exchanges {
		xs[x.Name] = true
	}
	for _, p := range d.Policies {
		ps[p.Name] = true
	}
}
