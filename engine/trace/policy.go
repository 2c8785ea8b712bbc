package trace

import (
	"strconv"
	"strings"

	"warren/engine/amqp"
)

// PolicyLine prints one row of list_policies:
// `policy name=P pattern=PAT apply-to=A priority=N definition={k=v, ...}`,
// the definition's keys sorted bytewise.
func PolicyLine(name, pattern, applyTo string, priority int, def amqp.Table) string {
	return "policy name=" + name + " pattern=" + pattern + " apply-to=" + applyTo +
		" priority=" + strconv.Itoa(priority) + " definition=" + def.String()
}

// CtlTable prints a field table as rabbitmqctl 3.10.8 prints an arguments
// column: [{"k",v},...] in table order, strings quoted, [] when empty.
func CtlTable(t amqp.Table) string {
	var b strings.Builder
	b.WriteByte('[')
	for i, f := range t {
		if i > 0 {
			b.WriteByte(',')
		}
		b.WriteString(`{"` + f.Key + `",` + ctlValue(f.Val) + "}")
	}
	b.WriteByte(']')
	return b.String()
}

func ctlValue(v amqp.Value) string {
	switch v.Kind {
	case amqp.LongStr:
		return `"` + v.Str + `"`
	case amqp.Array:
		parts := make([]string, len(v.Arr))
		for i, e := range v.Arr {
			parts[i] = ctlValue(e)
		}
		return "[" + strings.Join(parts, ",") + "]"
	case amqp.Table_:
		return CtlTable(v.Tab)
	}
	return v.String()
}
