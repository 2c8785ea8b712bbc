package node

// Operator commands, as rabbitmqctl runs them: set_policy, clear_policy,
// list_queues. Models the validators of rabbit_policies.

import (
	"fmt"
	"sort"
	"strconv"

	"warren/engine/amqp"
	"warren/engine/say"
)

// erlTerm prints a policy value as Erlang's ~p would: a binary as <<"...">>.
func erlTerm(v amqp.Value) string {
	switch {
	case v.Kind == amqp.LongStr:
		return fmt.Sprintf("<<%q>>", v.Str)
	case v.Kind == amqp.Bool || v.Kind.IsInt():
		return v.Term()
	}
	return v.String()
}

type policyRule struct {
	valid func(v amqp.Value) bool
	what  string
}

func isStr(v amqp.Value) bool { return v.Kind == amqp.LongStr }
func intAtLeast(min int64) func(amqp.Value) bool {
	return func(v amqp.Value) bool { return v.Kind.IsInt() && v.Int >= min }
}
func strIn(values ...string) func(amqp.Value) bool {
	return func(v amqp.Value) bool {
		if v.Kind != amqp.LongStr {
			return false
		}
		for _, s := range values {
			if v.Str == s {
				return true
			}
		}
		return false
	}
}

var policyRules = map[string]policyRule{
	"alternate-exchange":      {isStr, "alternate exchange name"},
	"dead-letter-exchange":    {isStr, "dead letter exchange name"},
	"dead-letter-routing-key": {isStr, "dead letter routing key"},
	"message-ttl":             {intAtLeast(0), "message TTL"},
	"expires":                 {intAtLeast(1), "queue expiry"},
	"max-length":              {intAtLeast(0), "maximum length"},
	"max-length-bytes":        {intAtLeast(0), "maximum length in bytes"},
	"queue-mode":              {strIn("default", "lazy"), "queue-mode value"},
	"queue-version":           {func(v amqp.Value) bool { return v.Kind.IsInt() && (v.Int == 1 || v.Int == 2) }, "queue-version value"},
	"overflow":                {strIn("drop-head", "reject-publish", "reject-publish-dlx"), "overflow value"},
	"queue-master-locator":    {strIn("min-masters", "client-local", "random"), "queue master locator value"},
}

// OperatorError is a refused operator command, printed as `error: TEXT`.
// Means, when it has a key, says what rabbitmqctl's refusal means; the
// refusal itself stays in rabbitmqctl's words.
type OperatorError struct {
	Text  string
	Means say.Text
}

func (e *OperatorError) Error() string { return e.Text }

// ErrNoPolicy is rabbitmqctl clear_policy's answer for a name not set.
var ErrNoPolicy = &OperatorError{Text: "Parameter does not exist", Means: say.T("con.ctl.noParameter")}

// invalidPolicy is rabbitmqctl set_policy's refusal of a policy: TEXT
// after "Validation failed: ".
func invalidPolicy(text string) error {
	return &OperatorError{Text: "Validation failed: " + text, Means: say.T("con.ctl.validation")}
}

// CheckPolicy validates a policy as rabbitmqctl set_policy does, before
// anything changes: the pattern must compile and every key must be a known
// policy setting with a valid value.
func CheckPolicy(pattern string, def amqp.Table) error {
	if _, err := compilePattern(pattern); err != nil {
		return invalidPolicy(strconv.Quote(pattern) + " is not a valid regular expression")
	}
	var unknown []amqp.Field
	for _, f := range def {
		rule, ok := policyRules[f.Key]
		if !ok {
			unknown = append(unknown, f)
			continue
		}
		if !rule.valid(f.Val) {
			return invalidPolicy(erlTerm(f.Val) + " is not a valid " + rule.what)
		}
	}
	if len(unknown) > 0 {
		sort.SliceStable(unknown, func(i, j int) bool { return unknown[i].Key < unknown[j].Key })
		list := ""
		for i, f := range unknown {
			if i > 0 {
				list += ","
			}
			list += fmt.Sprintf("{<<%q>>,%s}", f.Key, erlTerm(f.Val))
		}
		return invalidPolicy("[" + list + "] are not recognised policy settings")
	}
	return nil
}

// HasPolicy says whether a policy of that name is set.
func (c *Cluster) HasPolicy(name string) bool {
	for _, p := range c.policies {
		if p.Name == name {
			return true
		}
	}
	return false
}

// SetPolicy adds or replaces a policy and reapplies policies to queues.
func (c *Cluster) SetPolicy(name, pattern, applyTo string, priority int, def amqp.Table) error {
	if err := CheckPolicy(pattern, def); err != nil {
		return err
	}
	re, _ := compilePattern(pattern)
	p := &Policy{Name: name, Pattern: pattern, ApplyTo: applyTo, Priority: priority, Definition: def, re: re}
	replaced := false
	for i, old := range c.policies {
		if old.Name == name {
			c.policies[i] = p
			replaced = true
		}
	}
	if !replaced {
		c.policies = append(c.policies, p)
	}
	c.reapplyPolicies()
	return nil
}

// Policies lists the policies, sorted by name.
func (c *Cluster) Policies() []*Policy {
	out := append([]*Policy(nil), c.policies...)
	sort.Slice(out, func(i, j int) bool { return out[i].Name < out[j].Name })
	return out
}

// ClearPolicy removes a policy.
func (c *Cluster) ClearPolicy(name string) error {
	for i, p := range c.policies {
		if p.Name == name {
			c.policies = append(c.policies[:i], c.policies[i+1:]...)
			c.reapplyPolicies()
			return nil
		}
	}
	return ErrNoPolicy
}

// reapplyPolicies recomputes each queue's policy; a queue whose settings
// changed re-reads them (as on a policy_changed notification). An
// exchange's policy may give it an alternate exchange, so the channels'
// cached routing decisions are dropped too.
func (c *Cluster) reapplyPolicies() {
	c.changed()
	for _, name := range c.QueueNames() {
		rec := c.queues[name]
		rec.Policy = c.policyFor(name)
		if rec.proc != nil {
			rec.proc.configure()
			c.RT.Send(rec.PID, sim_msgPolicyChanged)
		}
	}
}

// QueueInfo is one row of list_queues.
type QueueInfo struct {
	Name                   string
	Messages, Ready, Unack int
	Consumers              int
	Durable, AutoDelete    bool
	Exclusive              bool
	Policy                 string
	// Bytes is message_bytes: the bodies of the ready and the
	// unacknowledged messages (rabbit_variable_queue:info/2 adds bytes
	// and unacked_bytes).
	Bytes int64
	// ReadyBytes is the bodies of the ready messages alone, what show
	// queues and the widget's snapshot say a queue holds.
	ReadyBytes int64
	// Utilisation is consumer_utilisation: the moving share of time the
	// queue could deliver at once (see consumer_use.go); 0 without
	// consumers.
	Utilisation float64
	Args        amqp.Table
	Node        string // where its process lives
	Down        bool   // its node is stopped
}

// ListQueues returns every queue's info, sorted by name.
func (c *Cluster) ListQueues() []QueueInfo {
	var out []QueueInfo
	for _, name := range c.QueueNames() {
		if info, ok := c.QueueInfo(name); ok {
			out = append(out, info)
		}
	}
	return out
}

// QueueInfo is one queue's row of ListQueues; ok is false when there is
// no such queue, or its process is dead (its info call fails:
// rabbitmqctl leaves it out).
func (c *Cluster) QueueInfo(name string) (info QueueInfo, ok bool) {
	rec := c.queues[name]
	if rec == nil || rec.dead {
		return QueueInfo{}, false
	}
	q := rec.proc
	info = QueueInfo{Name: name, Durable: rec.Durable, AutoDelete: rec.AutoDelete, Exclusive: rec.Exclusive, Args: rec.Args}
	if rec.home != nil {
		info.Node = rec.home.Name
	}
	info.Down = rec.down
	if rec.Policy != nil {
		info.Policy = rec.Policy.Name
	}
	if q != nil {
		info.Ready = q.ready.count
		info.Unack = q.pending.len()
		info.Messages = info.Ready + info.Unack
		info.Consumers = q.cons.count
		info.ReadyBytes = q.ready.bytes
		info.Bytes = q.ready.bytes + q.pending.bytes
		if q.cons.count > 0 {
			info.Utilisation = q.use.capacity(c.RT.Now())
		}
	}
	return info, true
}
