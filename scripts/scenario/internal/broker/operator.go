package broker

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"sort"
	"strconv"
	"strings"
	"time"

	"warren/engine/amqp"
	"warren/engine/script"
	"warren/engine/trace"
)

// ctlTimeout bounds one rabbitmqctl run.
const ctlTimeout = 60 * time.Second

// operator runs set_policy, clear_policy, list_queues, list_policies or
// crash through rabbitmqctl and returns the lines it prints: the queue
// lines of list_queues, or `error: TEXT` when rabbitmqctl refuses.
func (t *Target) operator(cmd *script.Command) []string {
	var err error
	var out []string
	switch cmd.Name {
	case "set_policy":
		err = t.setPolicy(cmd)
	case "clear_policy":
		_, err = t.ctl("clear_policy", cmd.Str("name", ""))
	case "list_queues":
		out, err = t.listQueues(cmd.Words())
	case "list_policies":
		out, err = t.listPolicies()
	case "list_exchanges":
		out, err = t.listExchanges(cmd.Words())
	case "list_bindings":
		out, err = t.listBindings(cmd.Words())
	case "list_consumers":
		out, err = t.listConsumers(cmd.Words())
	case "list_channels":
		out, err = t.listChannels(cmd.Words())
	case "list_connections":
		out, err = t.listConnections(cmd.Words())
	case "purge_queue", "delete_queue":
		err = t.queueAdmin(cmd)
	case "crash":
		err = t.crashQueue(cmd.Str("queue", ""))
	case "cluster":
		err = t.checkCluster(cmd)
	case "stop_app", "start_app":
		err = t.nodeApp(cmd)
	}
	if err != nil {
		return []string{"error: " + err.Error()}
	}
	return out
}

func (t *Target) setPolicy(cmd *script.Command) error {
	def, err := policyJSON(cmd.Table())
	if err != nil {
		return err
	}
	_, err = t.ctl("set_policy",
		"--apply-to", cmd.Str("apply-to", "all"),
		"--priority", strconv.FormatInt(cmd.Int("priority", 0), 10),
		"--", cmd.Str("name", ""), cmd.Str("pattern", ""), def)
	return err
}

// policyJSON writes a policy definition as JSON, keys in the order given:
// integers as numbers, booleans as booleans, everything else as strings.
func policyJSON(t amqp.Table) (string, error) {
	var b strings.Builder
	b.WriteByte('{')
	for i, f := range t {
		if i > 0 {
			b.WriteByte(',')
		}
		k, err := json.Marshal(f.Key)
		if err != nil {
			return "", fmt.Errorf("policy key %q: %w", f.Key, err)
		}
		b.Write(k)
		b.WriteByte(':')
		switch {
		case f.Val.Kind == amqp.Bool || f.Val.Kind.IsInt():
			b.WriteString(f.Val.String())
		default:
			v, err := json.Marshal(f.Val.String())
			if err != nil {
				return "", fmt.Errorf("policy value %s=%q: %w", f.Key, f.Val.String(), err)
			}
			b.Write(v)
		}
	}
	b.WriteByte('}')
	return b.String(), nil
}

// listQueues prints `queue name=Q COL=V ...` for each queue the file
// declares, sorted by name; the default column is messages.
func (t *Target) listQueues(words []string) ([]string, error) {
	var cols []string
	for _, w := range words {
		if w != "name" {
			cols = append(cols, w)
		}
	}
	if len(words) == 0 {
		cols = []string{"messages"}
	}
	// node is warren's column: rabbitmqctl 3.10 shows where a classic
	// queue lives only inside its pid, <NODE.N.N.N>
	asked := append([]string(nil), cols...)
	for i, c := range asked {
		if c == "node" {
			asked[i] = "pid"
		}
	}
	stdout, err := t.ctl(append([]string{"list_queues", "--no-table-headers", "name"}, asked...)...)
	if err != nil {
		return nil, err
	}
	var rows [][]string
	for _, row := range strings.Split(strings.TrimRight(stdout, "\n"), "\n") {
		fields := strings.Split(row, "\t")
		if len(fields) == len(cols)+1 && t.names.declared[fields[0]] {
			fields[0] = t.gen.out(fields[0])
			rows = append(rows, fields)
		}
	}
	sort.Slice(rows, func(i, j int) bool { return rows[i][0] < rows[j][0] })
	out := make([]string, len(rows))
	for i, fields := range rows {
		line := "queue name=" + fields[0]
		for k, c := range cols {
			v := fields[k+1]
			if c == "node" {
				v = pidNode(v)
			}
			line += " " + c + "=" + v
		}
		out[i] = line
	}
	return out, nil
}

// listPolicies prints a `policy ...` line for each policy the file sets,
// sorted by name, its definition typed back into field-table values.
func (t *Target) listPolicies() ([]string, error) {
	stdout, err := t.ctl("list_policies", "--formatter", "json")
	if err != nil {
		return nil, err
	}
	var rows []struct {
		Name       string          `json:"name"`
		Pattern    string          `json:"pattern"`
		ApplyTo    string          `json:"apply-to"`
		Priority   int             `json:"priority"`
		Definition json.RawMessage `json:"definition"`
	}
	if err := json.Unmarshal([]byte(stdout), &rows); err != nil {
		return nil, fmt.Errorf("list_policies: unexpected output %q: %w", stdout, err)
	}
	mine := map[string]bool{}
	for _, p := range t.names.policies {
		mine[p] = true
	}
	sort.Slice(rows, func(i, j int) bool { return rows[i].Name < rows[j].Name })
	var out []string
	for _, r := range rows {
		if !mine[r.Name] {
			continue
		}
		// rabbitmqctl prints the definition as a JSON object, or as a
		// string holding one
		fields := map[string]json.RawMessage{}
		var inner string
		if json.Unmarshal(r.Definition, &inner) == nil {
			err = json.Unmarshal([]byte(inner), &fields)
		} else {
			err = json.Unmarshal(r.Definition, &fields)
		}
		if err != nil {
			return nil, fmt.Errorf("list_policies: definition of %s: %w", r.Name, err)
		}
		var def amqp.Table
		for k, raw := range fields {
			def = append(def, amqp.Field{Key: k, Val: jsonValue(raw)})
		}
		out = append(out, trace.PolicyLine(r.Name, r.Pattern, r.ApplyTo, r.Priority, def))
	}
	return out, nil
}

// jsonValue types a policy definition value the way the language types it.
func jsonValue(raw json.RawMessage) amqp.Value {
	var s string
	if json.Unmarshal(raw, &s) == nil {
		return amqp.StrValue(s)
	}
	var b bool
	if json.Unmarshal(raw, &b) == nil {
		return amqp.BoolValue(b)
	}
	var n int64
	if json.Unmarshal(raw, &n) == nil {
		return amqp.IntValue(n)
	}
	return amqp.StrValue(string(raw))
}

// ctl runs `rabbitmqctl -q -n NODE ARGS...` and returns its standard output.
// A refusal comes back as an error whose text is rabbitmqctl's reason on
// one line (see ctlError).
func (t *Target) ctl(args ...string) (string, error) { return t.ctlOn(t.cfg.Node, args...) }

// ctlOn runs rabbitmqctl against one node of the cluster.
func (t *Target) ctlOn(nodeName string, args ...string) (string, error) {
	return t.ctlInput(nodeName, "", args...)
}

// ctlInput runs rabbitmqctl with stdin as its standard input.
func (t *Target) ctlInput(nodeName, stdin string, args ...string) (string, error) {
	ctx, cancel := context.WithTimeout(context.Background(), ctlTimeout)
	defer cancel()
	c := exec.CommandContext(ctx, t.cfg.Ctl, append([]string{"-q", "-n", nodeName}, args...)...)
	if stdin != "" {
		c.Stdin = strings.NewReader(stdin)
	}
	// NB: rabbitmqctl starts epmd when none is running; keep it on loopback.
	c.Env = append(os.Environ(), "ERL_EPMD_ADDRESS=127.0.0.1")
	var stdout, stderr bytes.Buffer
	c.Stdout, c.Stderr = &stdout, &stderr
	err := c.Run()
	t.rec.touch()
	if err != nil {
		var exit *exec.ExitError
		if !errors.As(err, &exit) {
			return "", fmt.Errorf("%s %s: %w", t.cfg.Ctl, args[0], err)
		}
		return "", ctlError(stderr.String(), stdout.String())
	}
	return stdout.String(), nil
}

// ctlRefusal is rabbitmqctl's reason for refusing a command.
type ctlRefusal string

func (e ctlRefusal) Error() string { return string(e) }

// ctlError turns rabbitmqctl's error report into one line. rabbitmqctl
// prints
//
//	Error:
//	Validation failed
//
//	<<"sideways">> is not a valid overflow value
//
// which becomes `Validation failed: <<"sideways">> is not a valid overflow
// value`. An argument error (`Error (argument validation): TEXT` followed
// by usage) keeps only TEXT.
func ctlError(stderr, stdout string) error {
	lines := strings.Split(stderr, "\n")
	var parts []string
	for i, l := range lines {
		l = strings.TrimSpace(l)
		if rest, ok := strings.CutPrefix(l, "Error ("); ok {
			if _, text, ok := strings.Cut(rest, "): "); ok {
				return ctlRefusal(text)
			}
		}
		if l == "Error:" {
			parts = nil
			for _, m := range lines[i+1:] {
				if m = strings.TrimSpace(m); m != "" {
					parts = append(parts, m)
				}
			}
			break
		}
		if l != "" {
			parts = append(parts, l)
		}
	}
	if len(parts) == 0 {
		parts = []string{strings.TrimSpace(stdout)}
	}
	return ctlRefusal(strings.Join(parts, ": "))
}

// crashQueue kills a queue's process as a crash would (exit reason kill):
// its supervisor starts it again, the channels consuming from it consume
// again, and the publishes it had not confirmed are rejected. A queue
// name that does not exist is refused as the engine refuses it.
func (t *Target) crashQueue(name string) error {
	bin, err := erlangBinary(name)
	if err != nil {
		return err
	}
	stdout, err := t.ctl("eval", "case rabbit_amqqueue:lookup(rabbit_misc:r(<<\"/\">>, queue, "+bin+")) of "+
		"{ok, Q} -> exit(amqqueue:get_pid(Q), kill), crashed; "+
		"{error, not_found} -> not_found end.")
	if err != nil {
		return err
	}
	switch strings.TrimSpace(stdout) {
	case "crashed":
		return nil
	case "not_found":
		return ctlRefusal(script.NoQueue("crash", name))
	}
	return fmt.Errorf("crash: unexpected rabbitmqctl output %q", stdout)
}

// erlangBinary writes s as an Erlang binary of its bytes (<<104,105>>),
// which needs no quoting whatever s holds.
func erlangBinary(s string) (string, error) {
	if len(s) > 255 {
		return "", fmt.Errorf("queue name longer than 255 bytes")
	}
	var b strings.Builder
	b.WriteString("<<")
	for i := 0; i < len(s); i++ {
		if i > 0 {
			b.WriteByte(',')
		}
		b.WriteString(strconv.Itoa(int(s[i])))
	}
	b.WriteString(">>")
	return b.String(), nil
}

// pidNode is the node of a pid as rabbitmqctl prints it: rabbit@host from
// <rabbit@host.1796025643.2697.0>.
func pidNode(pid string) string {
	s := strings.TrimSuffix(strings.TrimPrefix(pid, "<"), ">")
	for i := 0; i < 3; i++ {
		if j := strings.LastIndexByte(s, '.'); j >= 0 {
			s = s[:j]
		}
	}
	return s
}
