package node

// Models the argument checks of rabbit_amqqueue (check_declare_arguments,
// assert_equivalence) and rabbit_misc:assert_args_equivalence.

import (
	"fmt"

	"warren/engine/amqp"
)

// rs prints a queue resource as RabbitMQ's rabbit_misc:rs/1 does.
func rs(queue string) string { return fmt.Sprintf("queue '%s' in vhost '/'", queue) }

// xrs names an exchange as rabbit_misc:rs does.
func xrs(exchange string) string { return fmt.Sprintf("exchange '%s' in vhost '/'", exchange) }

// equivalenceKeys are the classic queue's arguments that must match on
// re-declare (rabbit_classic_queue capabilities, queue_arguments).
var equivalenceKeys = []string{"x-expires", "x-message-ttl", "x-dead-letter-exchange",
	"x-dead-letter-routing-key", "x-max-length", "x-max-length-bytes", "x-max-priority",
	"x-overflow", "x-queue-mode", "x-queue-version", "x-single-active-consumer",
	"x-queue-type", "x-queue-master-locator"}

// otherTypeArgs are arguments of other queue types, refused on a classic queue.
var otherTypeArgs = []string{"x-dead-letter-strategy", "x-max-in-memory-length", "x-max-in-memory-bytes",
	"x-quorum-initial-group-size", "x-max-age", "x-stream-max-segment-size-bytes",
	"x-initial-cluster-size", "x-queue-leader-locator", "x-delivery-limit",
	"x-stream-filter-size-bytes"}

const tenYearsMs = 315_360_000_000

// argCheck validates one argument's value; it returns Erlang's ~p of the
// error term, or "" when the value is acceptable.
type argCheck func(v amqp.Value, args amqp.Table) string

func expectInt(v amqp.Value) string {
	if v.Kind.IsInt() {
		return ""
	}
	return fmt.Sprintf("%q", "expected integer, got "+v.Kind.String())
}

func nonNegInt(v amqp.Value, _ amqp.Table) string {
	if e := expectInt(v); e != "" {
		return e
	}
	if v.Int < 0 {
		return fmt.Sprintf("{value_negative,%d}", v.Int)
	}
	return ""
}

func checkExpiry(n int64) string {
	if n < 0 {
		return fmt.Sprintf("{value_negative,%d}", n)
	}
	if n > tenYearsMs {
		return fmt.Sprintf("{value_too_large,%d}", n)
	}
	return ""
}

func stringArg(v amqp.Value) string {
	if v.Kind == amqp.LongStr {
		return ""
	}
	return fmt.Sprintf("{unacceptable_type,%s}", v.Kind)
}

func oneOf(v amqp.Value, values []string, bad string) string {
	if e := stringArg(v); e != "" {
		return e
	}
	for _, ok := range values {
		if v.Str == ok {
			return ""
		}
	}
	return bad
}

// declareChecks run in this order, as declare_args/0 lists them.
var declareChecks = []struct {
	key   string
	check argCheck
}{
	{"x-expires", func(v amqp.Value, _ amqp.Table) string {
		if e := expectInt(v); e != "" {
			return e
		}
		if v.Int == 0 {
			return "{value_zero,0}"
		}
		return checkExpiry(v.Int)
	}},
	{"x-message-ttl", func(v amqp.Value, _ amqp.Table) string {
		if e := expectInt(v); e != "" {
			return e
		}
		return checkExpiry(v.Int)
	}},
	{"x-dead-letter-exchange", func(v amqp.Value, _ amqp.Table) string { return stringArg(v) }},
	{"x-dead-letter-routing-key", func(v amqp.Value, args amqp.Table) string {
		if e := stringArg(v); e != "" {
			return e
		}
		if _, ok := args.Get("x-dead-letter-exchange"); !ok {
			return "routing_key_but_no_dlx_defined"
		}
		return ""
	}},
	{"x-max-length", nonNegInt},
	{"x-max-length-bytes", nonNegInt},
	{"x-max-priority", func(v amqp.Value, a amqp.Table) string {
		if e := nonNegInt(v, a); e != "" {
			return e
		}
		if v.Int > 255 {
			return fmt.Sprintf("{max_value_exceeded,%d}", v.Int)
		}
		return ""
	}},
	{"x-overflow", func(v amqp.Value, _ amqp.Table) string {
		return oneOf(v, []string{"drop-head", "reject-publish", "reject-publish-dlx"}, "invalid_overflow")
	}},
	{"x-queue-mode", func(v amqp.Value, _ amqp.Table) string {
		return oneOf(v, []string{"default", "lazy"}, fmt.Sprintf("%q", "unsupported queue mode '"+v.Str+"'"))
	}},
	{"x-queue-version", func(v amqp.Value, a amqp.Table) string {
		if e := nonNegInt(v, a); e != "" {
			return e
		}
		if v.Int != 1 && v.Int != 2 {
			return fmt.Sprintf("%q", fmt.Sprintf("unsupported queue version '%d'", v.Int))
		}
		return ""
	}},
	{"x-single-active-consumer", func(v amqp.Value, _ amqp.Table) string {
		if v.Kind == amqp.Bool {
			return ""
		}
		return fmt.Sprintf("{unacceptable_type,%s}", v.Kind)
	}},
	{"x-queue-type", func(v amqp.Value, _ amqp.Table) string {
		return oneOf(v, []string{"classic", "quorum", "stream"}, fmt.Sprintf("%q", "unsupported queue type '"+v.Str+"'"))
	}},
}

// checkDeclareArgs validates the arguments of a new queue.
func checkDeclareArgs(queue string, args amqp.Table, version string) *amqp.Error {
	for _, c := range declareChecks {
		v, ok := args.Get(c.key)
		if !ok {
			continue
		}
		if e := c.check(v, args); e != "" {
			return amqp.Errorf(amqp.PreconditionFailed, fmt.Sprintf("invalid arg '%s' for %s: %s", c.key, rs(queue), e))
		}
	}
	if v, ok := args.Get("x-queue-type"); ok && v.Kind == amqp.LongStr && v.Str != "classic" && !(v.Str == "quorum" && version == "4.0") {
		return amqp.Errorf(amqp.NotImplemented, fmt.Sprintf("queue type '%s' is not simulated in the %s profile: warren models classic queues, and quorum queues' priorities in 4.0", v.Str, version))
	}
	if v, ok := args.Get("x-queue-type"); ok && v.Kind == amqp.LongStr && v.Str == "quorum" {
		return nil
	}
	for _, f := range args {
		for _, bad := range otherTypeArgs {
			if f.Key == bad {
				return amqp.Errorf(amqp.PreconditionFailed, fmt.Sprintf("invalid arg '%s' for %s of queue type rabbit_classic_queue", f.Key, rs(queue)))
			}
		}
	}
	return nil
}

// describe prints a field as rabbit_misc:val/1 does inside an
// inequivalence message.
func describe(v amqp.Value, present bool, typed bool) string {
	if !present {
		return "none"
	}
	if typed {
		return fmt.Sprintf("the value '%s' of type '%s'", v.Term(), v.Kind)
	}
	return fmt.Sprintf("'%s'", v.Term())
}

// assertArgsEquivalence compares re-declared arguments with the existing ones.
func assertArgsEquivalence(what string, orig, next amqp.Table, keys []string) *amqp.Error {
	for _, k := range keys {
		ov, oOK := orig.Get(k)
		nv, nOK := next.Get(k)
		switch {
		case !oOK && !nOK:
			continue
		case oOK && nOK:
			if ov.Kind == nv.Kind && ov.Equal(nv) {
				continue
			}
			if ov.Kind.IsInt() && nv.Kind.IsInt() && ov.Int == nv.Int {
				continue
			}
			return inequivalent(k, what, describe(nv, true, false), describe(ov, true, false))
		default:
			if k == "x-queue-type" && ((oOK && ov.Kind == amqp.LongStr && ov.Str == "classic") || (nOK && nv.Kind == amqp.LongStr && nv.Str == "classic")) {
				continue
			}
			return inequivalent(k, what, describe(nv, nOK, true), describe(ov, oOK, true))
		}
	}
	return nil
}

func inequivalent(key, what, received, current string) *amqp.Error {
	return amqp.Errorf(amqp.PreconditionFailed, fmt.Sprintf("inequivalent arg '%s' for %s: received %s but current is %s", key, what, received, current))
}

func boolField(key, what string, current, received bool) *amqp.Error {
	if current == received {
		return nil
	}
	return inequivalent(key, what, fmt.Sprintf("'%t'", received), fmt.Sprintf("'%t'", current))
}
